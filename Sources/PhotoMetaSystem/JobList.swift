/// Jobs waiting in the order given, for `WorkerPool` and `SerialWorker`, used under their own
/// lock. `take` empties the job's slot, so the closure lives only in the taker's hands: the
/// taker runs it and lets it go outside the lock (a job's captures' `deinit` may take that lock:
/// a `SerialWorker` released by its own job).
struct JobList {
    private var jobs: [(@Sendable () -> Void)?] = []
    private var head = 0

    /// No job waits.
    var isEmpty: Bool { head == jobs.count }

    mutating func append(_ job: @escaping @Sendable () -> Void) { jobs.append(job) }

    /// The first job waiting, taken out; nil when none waits.
    mutating func take() -> (@Sendable () -> Void)? {
        guard head < jobs.count else { return nil }
        var job: (@Sendable () -> Void)? = nil
        swap(&job, &jobs[head])
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }
}
