import Foundation

/// The one wait of the test targets: whoever changes what a test waits for does it through
/// `change` (which wakes the waiters); `wait` looks at the predicate again at each change (and
/// at least every 250 ms), bounded by a deadline. Never a sleep that hopes.
package final class ChangeSignal: @unchecked Sendable {
    private let condition = NSCondition()

    package init() {}

    /// Runs `body` under the lock, then wakes every waiter.
    @discardableResult
    package func change<T>(_ body: () -> T) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }

    /// Runs `body` under the lock (a consistent read of what `change` writes).
    package func read<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Waits until `predicate` holds; false when `timeout` seconds pass first.
    @discardableResult
    package func wait(timeout: Double, _ predicate: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate() {
            condition.lock()
            let woken = condition.wait(until: min(deadline, Date().addingTimeInterval(0.25)))
            condition.unlock()
            if !woken, Date() >= deadline { return predicate() }
        }
        return true
    }
}
