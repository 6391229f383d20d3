import Foundation
import Synchronization
import XCTest

@testable import PhotoMetaSystem

/// photometa's own threads for parallel and serial work (`WorkerPool`, `ParallelMap`,
/// `SerialWorker`), which replace libdispatch's queues so that an idle service wakes no thread.
/// Waits are bounded and event-driven (expectations, semaphores with a limit).
final class WorkerPoolTests: XCTestCase {
    func testParallelMapReturnsEveryResultInOrder() {
        let squares = ParallelMap.run(1_000) { i in i * i }
        XCTAssertEqual(squares, (0..<1_000).map { $0 * $0 })
        XCTAssertEqual(ParallelMap.run(0) { $0 }, [])
        XCTAssertEqual(ParallelMap.run(1) { $0 + 7 }, [7])
    }

    func testParallelMapRunsOnMoreThanOneThread() {
        // Each iteration waits (bounded) until two threads have started one: only a map that
        // really shares its work gets past the first pair.
        let started = Mutex<Set<UInt64>>([])
        let twoSeen = DispatchSemaphore(value: 0)
        let threads = ParallelMap.run(8) { _ -> UInt64 in
            let tid = UInt64(pthread_self())
            let count = started.withLock { s in
                s.insert(tid)
                return s.count
            }
            if count == 2 { for _ in 0..<8 { twoSeen.signal() } }
            _ = twoSeen.wait(timeout: .now() + 10)
            return tid
        }
        XCTAssertGreaterThanOrEqual(Set(threads).count, 2, "the caller and at least one pool thread")
    }

    /// A pool job that maps in parallel finishes even when every pool thread is busy with such
    /// a job (the caller does the work the helpers cannot take): more jobs than threads.
    func testNestedMapsInPoolJobsDoNotWaitForEachOther() {
        let jobs = WorkerPool.shared.width * 3
        let done = expectation(description: "every job's map finished")
        done.expectedFulfillmentCount = jobs
        let sums = Mutex<[Int]>([])
        for j in 0..<jobs {
            WorkerPool.shared.async {
                let values = ParallelMap.run(200) { i in i + j }
                sums.withLock { $0.append(values.reduce(0, +)) }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(sums.withLock { $0.sorted() }, (0..<jobs).map { 19_900 + 200 * $0 })
    }

    func testASerialWorkerRunsJobsOneAtATimeInOrder() {
        let worker = SerialWorker(name: "test.serial")
        let order = Mutex<[Int]>([])
        let running = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        for i in 0..<500 {
            worker.async {
                if running.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                    overlapped.store(true, ordering: .sequentiallyConsistent)
                }
                order.withLock { $0.append(i) }
                running.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
        worker.sync()
        XCTAssertEqual(order.withLock { $0 }, Array(0..<500), "all run, in order, before sync returns")
        XCTAssertFalse(overlapped.load(ordering: .sequentiallyConsistent))
        worker.sync()  // nothing queued: returns at once
    }

    /// The last reference to a worker may go inside one of its own jobs (an index writer
    /// released by the job that used it): the worker's thread then ends, without a deadlock.
    func testAWorkerReleasedByItsOwnJobEnds() {
        final class Holder: @unchecked Sendable { var worker: SerialWorker? }
        let holder = Holder()
        holder.worker = SerialWorker(name: "test.released")
        weak let weakWorker = holder.worker
        let finished = expectation(description: "the job that released the worker returned")
        holder.worker?.async {
            holder.worker = nil
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        // Gone inside the job, on the worker's own thread, when the job let go of it.
        XCTAssertNil(weakWorker)
        // And a new worker still works (no lock left held by the old one).
        let next = SerialWorker(name: "test.next")
        let ran = expectation(description: "a job of the next worker ran")
        next.async { ran.fulfill() }
        wait(for: [ran], timeout: 10)
    }

    /// `sync` waits for the jobs given before it, not for a queue that others keep filling.
    func testSyncDoesNotWaitForJobsGivenAfterIt() {
        let worker = SerialWorker(name: "test.sync")
        let stop = Atomic<Bool>(false)
        let producer = Thread {
            var given = 0
            while !stop.load(ordering: .relaxed), given < 1_000_000 {
                worker.async {}
                given += 1
            }
        }
        producer.start()
        let returned = expectation(description: "sync returned while jobs kept coming")
        Thread {
            worker.async {}
            worker.sync()
            returned.fulfill()
        }.start()
        wait(for: [returned], timeout: 30)
        stop.store(true, ordering: .relaxed)
    }
}
