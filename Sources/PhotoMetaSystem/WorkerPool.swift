import Foundation

/// photometa's threads for work shared across cores (`ParallelMap`, a folder's parse while the
/// scan goes on): one a core, started on first use and kept for the life of the process,
/// sleeping on a condition without a timeout while there is no work.
///
/// Not libdispatch's global queues: once their pool has started, libdispatch's monitor wakes
/// the process once a second for as long as it lives, and idle worker threads wake again to
/// retire a few seconds after their last job; a `serve` idle for hours would wake every second
/// (docs/performance.md, "An idle service wakes no thread").
///
/// A job may wait for work it gave the pool only if it can do that work itself when no thread
/// is free (`ParallelMap` does): the pool never grows beyond its threads.
package final class WorkerPool: @unchecked Sendable {
    /// The process's pool.
    package static let shared = WorkerPool(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    private var jobs = JobList()
    private let threads: Int
    private var started = false

    init(threads: Int) { self.threads = max(1, threads) }

    /// How many threads run the pool's jobs.
    package var width: Int { threads }

    /// Runs `job` on one of the pool's threads, after the jobs given before it have started.
    package func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let start = !started
        started = true
        condition.signal()
        condition.unlock()
        guard start else { return }
        for i in 0..<threads {
            let thread = Thread { self.loop() }
            thread.name = "photometa.pool.\(i)"
            thread.start()
        }
    }

    private func loop() {
        condition.lock()
        while true {
            var job = jobs.take()
            guard job != nil else {
                condition.wait()
                continue
            }
            condition.unlock()
            job?()
            job = nil  // let go outside the lock (`JobList`)
            condition.lock()
        }
    }
}
