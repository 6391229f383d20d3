import Foundation

/// Inspects many files on all cores while the scan is still finding them, and hands results
/// back in scan order (path order) as soon as each prefix is complete: `--jsonl` streams, and
/// memory is bounded by the work in flight, not by the size of the tree. Rendering (JSON, text)
/// happens on the workers too: only the ordered hand-over is serial.
public enum InspectionRunner {
    /// How many scanned items may wait for a worker.
    static let queueLimit = 1024

    /// `render` runs on the workers, concurrently; `emit` is called once per item, in order,
    /// never concurrently; `scanEvent` receives the scan's errors and skip counts.
    public static func run<Rendered: Sendable>(paths: [String], scanner: PathScanner,
                                               workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                                               scanEvent: @escaping @Sendable (PathScanner.Event) -> Void,
                                               render: @escaping @Sendable (PathScanner.Item, MediaAsset) -> Rendered,
                                               emit: @escaping @Sendable (Rendered) -> Void) {
        let queue = WorkQueue(limit: queueLimit)
        let results = OrderedResults<Rendered>(emit: emit)
        let producer = Thread {
            // Items are handed over in batches: a wake-up per file costs more than the file.
            var batch: [PathScanner.Item] = []
            batch.reserveCapacity(64)
            scanner.scan(paths) { event in
                if case .item(let item) = event {
                    batch.append(item)
                    if batch.count == 64 {
                        queue.push(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                } else {
                    scanEvent(event)
                }
            }
            queue.push(batch)
            queue.finish()
        }
        producer.start()
        DispatchQueue.concurrentPerform(iterations: max(1, workers)) { _ in
            while let (i, item) = queue.pop() {
                let asset = MediaFileInspector.inspect(path: item.path, facts: item.facts, siblings: item.siblings?.paths)
                results.deliver(i, render(item, asset))
            }
        }
    }
}

extension InspectionRunner {
    /// Inspects items scanned beforehand; `emit` gets each asset with its index, in order.
    public static func run(_ scan: PathScanner.Result, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                           emit: @escaping @Sendable (Int, MediaAsset) -> Void) {
        let items = scan.items
        let results = OrderedResults<(Int, MediaAsset)>(emit: { emit($0.0, $0.1) })
        let counter = WorkQueue(limit: Int.max)
        counter.push(items)
        counter.finish()
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, items.count))) { _ in
            while let (i, item) = counter.pop() {
                let asset = MediaFileInspector.inspect(path: item.path, facts: item.facts, siblings: item.siblings?.paths)
                results.deliver(i, (i, asset))
            }
        }
    }
}

/// Scanned items waiting for a worker, numbered in scan order; the producer blocks when
/// `limit` items wait.
private final class WorkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [PathScanner.Item] = []
    private var head = 0
    private var numbered = 0
    private var done = false
    private let limit: Int

    init(limit: Int) { self.limit = limit }


    func push(_ batch: [PathScanner.Item]) {
        guard !batch.isEmpty else { return }
        condition.lock()
        while items.count - head >= limit { condition.wait() }
        let wasEmpty = head == items.count
        items.append(contentsOf: batch)
        // Wake the workers only when one may be waiting for work.
        if wasEmpty { condition.broadcast() }
        condition.unlock()
    }

    func finish() {
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }

    func pop() -> (Int, PathScanner.Item)? {
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

/// A reorder buffer: results arrive in any order and leave in index order.
private final class OrderedResults<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var nextToEmit = 0
    private var pending: [Int: T] = [:]
    private let emit: @Sendable (T) -> Void

    init(emit: @escaping @Sendable (T) -> Void) { self.emit = emit }

    func deliver(_ i: Int, _ value: T) {
        lock.lock()
        defer { lock.unlock() }
        pending[i] = value
        while let v = pending.removeValue(forKey: nextToEmit) {
            emit(v)
            nextToEmit += 1
        }
    }
}
