#if canImport(Glibc)
    import Glibc
#endif

/// A lock with a shared side, held by many at once, and an exclusive side, held by one while
/// no one holds the shared side (a pthread rwlock). A waiting exclusive holder goes before new
/// shared ones: with glibc's default (shared first) a steady stream of shared holders could keep
/// it waiting for good.
package final class SharedExclusiveLock: @unchecked Sendable {
    // @unchecked: the rwlock lives at a fixed address of its own, made once and never moved,
    // and pthread makes every use of it safe from any thread.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    package init() {
        lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` holding the shared side.
    package func shared<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` holding the exclusive side: no other holder of either side meanwhile.
    package func exclusive<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
