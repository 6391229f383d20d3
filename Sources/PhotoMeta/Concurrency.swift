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
    /// The producer waits for room; it is woken once the queue has drained to half its limit,
    /// not at each item taken: a sleep and a wake-up per run would cost more than the run.
    private var producerWaits = false
    private var cancelled = false
    private let limit: Int

    package init(limit: Int) { self.limit = limit }

    package func push(_ batch: [Item]) {
        guard !batch.isEmpty else { return }
        condition.lock()
        while items.count - head >= limit && !cancelled {
            producerWaits = true
            condition.wait()
        }
        producerWaits = false
        guard !cancelled else { return condition.unlock() }
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

    /// Drops what waits and takes nothing more: the consumers' next `pop` is nil, the
    /// producer's pushes return at once (the reader of the results went away).
    package func cancel() {
        condition.lock()
        items.removeAll()
        head = 0
        done = true
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next item and its number, or nil once the queue is finished and empty.
    package func pop() -> (Int, Item)? {
        guard let (first, items) = pop(sharingWith: 1, atMost: 1), let item = items.first else { return nil }
        return (first, item)
    }

    /// The next run of consecutive items (at most `atMost`, and no more than a fair share of
    /// what waits among `sharingWith` workers) and the number of the first, or nil once the
    /// queue is finished and empty. A lock hand-off per file costs more than a warm file's
    /// reading (docs/performance.md, "inspect, warm and cold"); a run keeps the others fed.
    package func pop(sharingWith workers: Int, atMost: Int) -> (Int, ArraySlice<Item>)? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !done { condition.wait() }
        let waiting = items.count - head
        guard waiting > 0 else { return nil }
        let share = (waiting + max(1, workers) - 1) / max(1, workers)
        let n = max(1, min(atMost, share))
        // A copy, not a slice: a slice shares the queue's storage, so the producer's next
        // append would copy the whole queue (2.5 % of a warm `inspect -r` in the profile).
        let run = ArraySlice(Array(items[head..<(head + n)]))
        head += n
        let first = numbered
        numbered += n
        if head > 4096 {  // drop consumed items now and then
            items.removeFirst(head)
            head = 0
        }
        // Wake the producer once half the queue is free (it may be the only waiter).
        if producerWaits, items.count - head <= limit / 2 {
            producerWaits = false
            condition.broadcast()
        }
        return (first, run)
    }
}

/// A reorder buffer: results arrive in any order and leave in index order, one at a time,
/// through `emit`, which is never called concurrently. One delivering thread at a time drains
/// what is ready, outside the lock, so the others deposit and go back to work instead of
/// queueing behind a write to a slow reader; they wait only while more than `limit` results
/// are held (a reader that does not keep up slows the workers, it does not fill memory).
package final class OrderedResults<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var nextToEmit = 0
    private var pending: [Int: [T]] = [:]
    private var held = 0
    private var draining = false
    private let limit: Int
    private let emit: @Sendable (T) -> Void

    package init(limit: Int = 4096, emit: @escaping @Sendable (T) -> Void) {
        self.limit = limit
        self.emit = emit
    }

    package func deliver(_ i: Int, _ value: T) { deliver(first: i, [value]) }

    /// Hands over the results of items `first`, `first + 1`, ... in order.
    package func deliver(first: Int, _ values: [T]) {
        guard !values.isEmpty else { return }
        condition.lock()
        pending[first] = values
        held += values.count
        guard !draining else {
            // Never a deadlock: the item to emit next was taken by a worker that is not here
            // (items are taken in order), and that worker drains when it delivers.
            while held > limit && draining { condition.wait() }
            condition.unlock()
            return
        }
        draining = true
        while true {
            var ready: [[T]] = []
            while let v = pending.removeValue(forKey: nextToEmit) {
                ready.append(v)
                nextToEmit += v.count
                held -= v.count
            }
            if ready.isEmpty { break }
            condition.broadcast()
            condition.unlock()
            for run in ready { for v in run { emit(v) } }
            condition.lock()
        }
        draining = false
        condition.broadcast()
        condition.unlock()
    }
}
