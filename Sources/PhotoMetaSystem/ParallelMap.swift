import Foundation
import Synchronization

/// Runs `body(i)` for i in 0..<count on all cores and returns the results in order.
package enum ParallelMap {
    package static func run<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let box = ResultBox<T>(count: count)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let i = box.next() { box.set(i, body(i)) }
        }
        return box.values()
    }

    private final class ResultBox<T: Sendable>: Sendable {
        private struct State {
            var storage: [T?]
            var cursor = 0
        }
        private let state: Mutex<State>
        init(count: Int) { state = Mutex(State(storage: Array(repeating: nil, count: count))) }
        func next() -> Int? {
            state.withLock { s in
                guard s.cursor < s.storage.count else { return nil }
                s.cursor += 1
                return s.cursor - 1
            }
        }
        func set(_ i: Int, _ v: T) { state.withLock { $0.storage[i] = v } }
        func values() -> [T] { state.withLock { $0.storage.compactMap { $0 } } }
    }
}
