import PhotoMetaCore
import Synchronization

/// A `WallClock` the test moves: `sleep` advances it at once, so a rule about seconds passing
/// (settling, `--wait`) is tested without waiting, and every run sees the same times.
package final class FakeClock: WallClock {
    private let time: Mutex<Double>
    /// Every `sleep` asked for, in order (a test can check what was waited for).
    private let sleeps = Mutex<[Double]>([])

    /// A clock reading `start` (seconds since 1970).
    package init(_ start: Double) { time = Mutex(start) }

    package func now() -> Double { time.withLock { $0 } }

    package func sleep(seconds: Double) {
        sleeps.withLock { $0.append(seconds) }
        advance(max(0, seconds))
    }

    /// Moves the clock forward by `seconds`.
    package func advance(_ seconds: Double) { time.withLock { $0 += seconds } }

    /// The sleeps asked for so far.
    package var slept: [Double] { sleeps.withLock { $0 } }
}
