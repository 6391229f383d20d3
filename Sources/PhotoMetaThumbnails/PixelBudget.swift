import Foundation

/// A budget of pixels that concurrent full-size decodes take from and give back; a decode
/// larger than the whole budget waits until it can run alone.
final class PixelBudget: @unchecked Sendable {
    // A condition variable, not a lock box: callers wait on it (like WorkQueue).
    private let condition = NSCondition()
    private var inFlight = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func run<T, E: Error>(pixels: Int, _ body: () throws(E) -> T) throws(E) -> T {
        let want = min(max(pixels, 1), limit)
        condition.lock()
        while inFlight + want > limit { condition.wait() }
        inFlight += want
        condition.unlock()
        defer {
            condition.lock()
            inFlight -= want
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
