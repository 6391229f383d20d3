import Foundation

/// Inspects many files on all cores and hands results back in input order as soon as each
/// prefix is complete, so `--jsonl` streams while output stays sorted.
public enum InspectionRunner {
    /// `emit` is called once per item, in order, never concurrently.
    public static func run(_ items: [PathScanner.Item], workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                           emit: @escaping @Sendable (Int, MediaAsset) -> Void) {
        let state = OrderedResults(count: items.count, emit: emit)
        let n = max(1, min(workers, items.count))
        DispatchQueue.concurrentPerform(iterations: n) { _ in
            while let i = state.nextIndex() {
                let asset = MediaFileInspector.inspect(path: items[i].path)
                state.deliver(i, asset)
            }
        }
    }
}

/// The shared state of one run: a work counter and a reorder buffer.
private final class OrderedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var nextToEmit = 0
    private var pending: [Int: MediaAsset] = [:]
    private let count: Int
    private let emit: @Sendable (Int, MediaAsset) -> Void

    init(count: Int, emit: @escaping @Sendable (Int, MediaAsset) -> Void) {
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

    func deliver(_ i: Int, _ asset: MediaAsset) {
        lock.lock()
        defer { lock.unlock() }
        pending[i] = asset
        while let a = pending.removeValue(forKey: nextToEmit) {
            emit(nextToEmit, a)
            nextToEmit += 1
        }
    }
}
