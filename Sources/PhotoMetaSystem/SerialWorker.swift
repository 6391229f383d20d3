import Foundation

/// Runs jobs one after the other, in the order given, on a thread of its own: what a serial
/// dispatch queue does, without libdispatch. A serial queue runs on libdispatch's worker pool,
/// whose monitor, once the pool has started, wakes the process once a second for as long as it
/// lives; a service idle for hours would wake every second (docs/performance.md, "An idle
/// service wakes no thread"). The thread starts with the first job, sleeps on a condition
/// without a timeout between jobs, and ends once the worker is released and its jobs are done.
package final class SerialWorker: Sendable {
    private let state: State
    private let name: String

    /// `name` names the thread (for `top -H`, `/proc/PID/task/*/comm`).
    package init(name: String) {
        self.name = name
        state = State()
    }

    deinit { state.close() }

    /// Runs `job` after the jobs given before it.
    package func async(_ job: @escaping @Sendable () -> Void) {
        state.add(job, name: name)
    }

    /// Returns once every job given before the call has run (jobs given meanwhile, from other
    /// threads, are not waited for). Never from one of the worker's own jobs: it would wait
    /// for itself.
    package func sync() {
        state.waitForJobsGiven()
    }

    /// The jobs and the thread that runs them; the thread holds this, never the worker, so
    /// releasing the worker ends the thread.
    private final class State: @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs = JobList()
        /// Jobs given, and jobs run to their end, since the start (what `sync` counts).
        private var given = 0
        private var done = 0
        private var started = false
        private var closed = false

        func add(_ job: @escaping @Sendable () -> Void, name: String) {
            condition.lock()
            jobs.append(job)
            given += 1
            let start = !started
            started = true
            condition.broadcast()
            condition.unlock()
            guard start else { return }
            let thread = Thread { self.loop() }
            thread.name = name
            thread.start()
        }

        func waitForJobsGiven() {
            condition.lock()
            let ticket = given
            while done < ticket { condition.wait() }
            condition.unlock()
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }

        private func loop() {
            condition.lock()
            while true {
                var job = jobs.take()
                if job != nil {
                    condition.unlock()
                    job?()
                    job = nil  // let go outside the lock (`JobList`)
                    condition.lock()
                    done += 1
                    condition.broadcast()
                } else if closed {
                    break
                } else {
                    condition.wait()
                }
            }
            started = false
            condition.unlock()
        }
    }
}
