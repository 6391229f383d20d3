import Foundation
import PhotoMetaSystem
import Synchronization

/// A flag set from another thread (a signal handler's queue, a stream's termination) and read
/// by a loop that should stop.
public final class StopFlag: Sendable {
    private let value = Mutex(false)
    /// Readable once the flag is set, for a loop that sleeps in `poll` (nil when no pipe could
    /// be made: such a loop wakes now and then to look at the flag).
    private let pipe = Mutex<WakePipe?>(nil)
    /// A flag not yet set.
    public init() {}
    /// True once `set()` was called.
    public var isSet: Bool { value.withLock { $0 } }
    /// Asks the loop to stop.
    public func set() {
        value.withLock { $0 = true }
        pipe.withLock { $0?.wake() }
    }
    /// A descriptor that becomes readable when the flag is set (made on first use).
    package var wakeDescriptor: Int32? {
        pipe.withLock { p in
            if p == nil { p = WakePipe() }
            if isSet { p?.wake() }
            return p?.descriptor
        }
    }
}

/// Items waiting for a worker, numbered in the order they were pushed; the producer blocks
/// when `limit` items wait. (A condition variable, not a lock box: producers and consumers wait
/// on it.)
package final class WorkQueue<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item] = []
    private var head = 0
    private var numbered = 0
    private var done = false
    private let limit: Int

    package init(limit: Int) { self.limit = limit }

    package func push(_ batch: [Item]) {
        guard !batch.isEmpty else { return }
        condition.lock()
        while items.count - head >= limit { condition.wait() }
        let wasEmpty = head == items.count
        items.append(contentsOf: batch)
        // Wake the workers only when one may be waiting for work.
        if wasEmpty { condition.broadcast() }
        condition.unlock()
    }

    package func finish() {
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }

    package func pop() -> (Int, Item)? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !done { condition.wait() }
        guard head < items.count else { return nil }
        let item = items[head]
        let wasFull = items.count - head >= limit
        head += 1
        numbered += 1
        if head > 4096 {  // drop consumed items now and then
            items.removeFirst(head)
            head = 0
        }
        // Wake the producer only when it may be waiting for room.
        if wasFull { condition.broadcast() }
        return (numbered - 1, item)
    }
}

/// A reorder buffer: results arrive in any order and leave in index order, one at a time.
package final class OrderedResults<T: Sendable>: Sendable {
    private struct State {
        var nextToEmit = 0
        var pending: [Int: T] = [:]
    }
    private let state = Mutex(State())
    private let emit: @Sendable (T) -> Void

    package init(emit: @escaping @Sendable (T) -> Void) { self.emit = emit }

    package func deliver(_ i: Int, _ value: T) {
        state.withLock { s in
            s.pending[i] = value
            while let v = s.pending.removeValue(forKey: s.nextToEmit) {
                emit(v)
                s.nextToEmit += 1
            }
        }
    }
}
