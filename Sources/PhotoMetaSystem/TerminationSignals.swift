internal import CSignals
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM, for the commands that run until stopped (`watch`, `serve`): while a
/// receiver is registered, each signal calls it, on a thread of photometa's; with none, a
/// signal is ignored (the process is not killed).
///
/// Without libdispatch: a handler writes the signal's number to a pipe (`CSignals.c`), and one
/// thread for the whole process sleeps in `read(2)` on it. A dispatch signal source would run
/// its handler on libdispatch's global queue, which starts libdispatch's worker pool, whose
/// monitor then wakes the process once a second for as long as it lives: an idle `serve`
/// would never be idle (docs/performance.md, "An idle service wakes no thread").
package enum TerminationSignals {
    /// A receiver taken in by `receive`; `cancel` takes it out.
    package final class Registration: Sendable {
        fileprivate let id: Int
        fileprivate init(id: Int) { self.id = id }

        /// Signals no longer call the receiver (they are ignored again when no receiver is left).
        package func cancel() {
            _ = TerminationSignals.receivers.withLock { $0.removeValue(forKey: id) }
        }
    }

    private static let receivers = Mutex<[Int: @Sendable () -> Void]>([:])
    private static let nextID = Atomic<Int>(0)

    /// The pipe and its reading thread, made once: false when no pipe could be made or the
    /// handler could not be installed, and the signals then keep their default action (the
    /// process ends at once, rather than a `serve` that nothing but SIGKILL stops).
    private static let installed: Bool = {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // The handler's end never blocks: a full pipe already holds a pending stop.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let reader = ends[0]
        guard pm_termination_handle(ends[1]) == 0 else {
            for s in [SIGINT, SIGTERM] { signal(s, SIG_DFL) }
            for fd in ends { close(fd) }
            return false
        }
        let thread = Thread {
            // The signals reach this thread even when the process was started with them
            // blocked (its other threads keep the mask they inherited).
            pm_termination_unblock()
            var byte: UInt8 = 0
            while true {
                let n = read(reader, &byte, 1)
                if n < 0, errno == EINTR { continue }
                guard n == 1 else { return }
                for receiver in receivers.withLock({ Array($0.values) }) { receiver() }
            }
        }
        thread.name = "photometa.signals"
        thread.start()
        return true
    }()

    /// `received` is called on every SIGINT and SIGTERM until the registration is cancelled.
    /// Before the first registration the signals keep their dispositions; after it, a signal
    /// with no receiver is ignored. Where no handler could be installed (no descriptor left),
    /// a signal ends the process as by default.
    package static func receive(_ received: @escaping @Sendable () -> Void) -> Registration {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        receivers.withLock { $0[id] = received }
        _ = installed
        return Registration(id: id)
    }
}
