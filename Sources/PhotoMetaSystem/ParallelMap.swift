import Foundation

/// Runs `body(i)` for i in 0..<count on all cores and returns the results in order.
package enum ParallelMap {
    /// The caller's thread works with `WorkerPool`'s (one a core in all), so the call finishes
    /// even when every pool thread is busy: a pool job may call it and waits for no one.
    package static func run<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let work = Work(count: count, body: body)
        let helpers = min(WorkerPool.shared.width, count) - 1
        for _ in 0..<max(0, helpers) { WorkerPool.shared.async { work.help() } }
        work.help()
        return work.results()
    }

    /// The iterations, handed out one at a time, and their results.
    private final class Work<T: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var storage: [T?]
        private var cursor = 0
        private var finished = 0
        /// Released once every iteration has run (a helper that starts later finds none left).
        private var body: (@Sendable (Int) -> T)?

        init(count: Int, body: @escaping @Sendable (Int) -> T) {
            storage = Array(repeating: nil, count: count)
            self.body = body
        }

        /// Runs iterations until none is left.
        func help() {
            while let (i, body) = next() {
                let value = body(i)
                condition.lock()
                storage[i] = value
                finished += 1
                if finished == storage.count {
                    self.body = nil
                    condition.broadcast()
                }
                condition.unlock()
            }
        }

        private func next() -> (Int, @Sendable (Int) -> T)? {
            condition.lock()
            defer { condition.unlock() }
            guard cursor < storage.count, let body else { return nil }
            cursor += 1
            return (cursor - 1, body)
        }

        /// Every result, in order, once every iteration has run. The results leave with the
        /// caller: a helper job still queued keeps this object, not them.
        func results() -> [T] {
            condition.lock()
            while finished < storage.count { condition.wait() }
            let values = storage.compactMap { $0 }
            storage = []
            finished = 0
            condition.unlock()
            return values
        }
    }
}
