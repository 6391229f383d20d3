import Foundation
import Synchronization
import XCTest

@testable import PhotoMeta

/// `WorkQueue` hands out runs of consecutive items and `OrderedResults` puts their results back
/// in order, whoever finishes first: `inspect -r` prints in scan order on that.
final class WorkHandOffTests: XCTestCase {
    func testRunsAreConsecutiveAndResultsLeaveInOrder() {
        let count = 5_000
        let queue = WorkQueue<Int>(limit: 64)
        let emitted = Mutex<[Int]>([])
        let inEmit = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        let results = OrderedResults<Int>(limit: 16) { v in
            // Never two emits at once.
            if inEmit.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                overlapped.store(true, ordering: .sequentiallyConsistent)
            }
            emitted.withLock { $0.append(v) }
            inEmit.subtract(1, ordering: .sequentiallyConsistent)
        }
        let producer = Thread {
            var next = 0
            while next < count {
                let n = min(count - next, 1 + next % 7)
                queue.push(Array(next..<next + n))
                next += n
            }
            queue.finish()
        }
        producer.start()
        let done = DispatchGroup()
        for w in 0..<4 {
            done.enter()
            Thread {
                while let (first, run) = queue.pop(sharingWith: 4, atMost: 8) {
                    XCTAssertLessThanOrEqual(run.count, 8)
                    // The items of a run are the ones numbered from `first`, in order.
                    XCTAssertEqual(Array(run), Array(first..<first + run.count))
                    // Finish out of order now and then.
                    if (first + w) % 5 == 0 { usleep(200) }
                    results.deliver(first: first, run.map { $0 })
                }
                done.leave()
            }.start()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(emitted.withLock { $0 }, Array(0..<count))
        XCTAssertFalse(overlapped.load(ordering: .sequentiallyConsistent))
    }

    func testASingleWorkerTakesItsShareNotTheWholeQueue() {
        let queue = WorkQueue<Int>(limit: 100)
        queue.push(Array(0..<10))
        queue.finish()
        // Ten waiting among four workers: a run of at most three, so the others get some.
        let run = queue.pop(sharingWith: 4, atMost: 8)
        XCTAssertEqual(run?.0, 0)
        XCTAssertEqual(run.map { Array($0.1) }, [0, 1, 2])
        XCTAssertEqual(queue.pop()?.1, 3)
        var rest: [Int] = []
        while let (_, r) = queue.pop(sharingWith: 1, atMost: 8) { rest += r }
        XCTAssertEqual(rest, Array(4..<10))
        XCTAssertNil(queue.pop())
    }
}
