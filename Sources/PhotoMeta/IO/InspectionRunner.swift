import Foundation

/// Inspects many files on all cores and hands results back in input order as soon as each
/// prefix is complete, so `--jsonl` streams while output stays sorted. Rendering (JSON, text)
/// happens on the workers too: only the ordered hand-over is serial.
public enum InspectionRunner {
    /// `render` runs on the workers, concurrently; `emit` is called once per item, in order,
    /// never concurrently.
    public static func run<Rendered: Sendable>(_ scan: PathScanner.Result,
                                               workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                                               render: @escaping @Sendable (Int, MediaAsset) -> Rendered,
                                               emit: @escaping @Sendable (Int, Rendered) -> Void) {
        let items = scan.items
        let listed = scan.listed
        let state = OrderedResults<Rendered>(count: items.count, emit: emit)
        let n = max(1, min(workers, items.count))
        DispatchQueue.concurrentPerform(iterations: n) { _ in
            while let i = state.nextIndex() {
                let item = items[i]
                let asset = MediaFileInspector.inspect(path: item.path, facts: item.facts,
                                                       siblings: item.explicit ? nil : listed)
                state.deliver(i, render(i, asset))
            }
        }
    }

    /// The assets themselves, in order.
    public static func run(_ scan: PathScanner.Result, emit: @escaping @Sendable (Int, MediaAsset) -> Void) {
        run(scan, render: { $1 }, emit: emit)
    }
}

/// The shared state of one run: a work counter and a reorder buffer.
private final class OrderedResults<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var nextToEmit = 0
    private var pending: [Int: T] = [:]
    private let count: Int
    private let emit: @Sendable (Int, T) -> Void

    init(count: Int, emit: @escaping @Sendable (Int, T) -> Void) {
        self.count = count
        self.emit = emit
    }

    func nextIndex() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    func deliver(_ i: Int, _ value: T) {
        lock.lock()
        defer { lock.unlock() }
        pending[i] = value
        while let v = pending.removeValue(forKey: nextToEmit) {
            emit(nextToEmit, v)
            nextToEmit += 1
        }
    }
}
