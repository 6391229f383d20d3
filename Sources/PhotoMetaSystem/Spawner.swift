internal import CSpawn
import PhotoMetaCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How a confined photometa still starts the thumbnail helper and `watch --exec` hooks
/// (docs/sandbox.md): a process forked before the confinement (C: `Sources/CSpawn/CSpawner.c`)
/// keeps the right to execute programs and starts, on request over a unix socket, only the two
/// it was told about when it started (the helper's path, the hook's command). photometa then
/// denies itself execve entirely; a photometa taken over by a hostile file can ask the spawner
/// for the helper or the user's hook (with PHOTOMETA_* variables), nothing else.
package enum Spawner {
    /// The spawner's socket and what it runs; nil before `start` (programs are then started
    /// directly).
    struct Running: Sendable {
        var socket: Int32
        var helper: String?
    }
    static let running = Mutex<Running?>(nil)

    /// Forks the spawner (call while the process has one thread, before confining it).
    /// `helper` is the thumbnail helper's path, `hook` the `--exec` command; nil refuses that
    /// kind. Starting twice keeps the first.
    package static func start(helper: String?, hook: String?) throws(SystemError) {
        let fd: Int32
        switch (helper, hook) {
        case (let h?, let k?): fd = PathBytes.withCPath(h) { h in k.withCString { pm_spawner_start(h, $0) } }
        case (let h?, nil): fd = PathBytes.withCPath(h) { pm_spawner_start($0, nil) }
        case (nil, let k?): fd = k.withCString { pm_spawner_start(nil, $0) }
        case (nil, nil): return
        }
        guard fd >= 0 else { throw SystemError(errno: -fd) }
        running.withLock { if $0 == nil { $0 = Running(socket: fd, helper: helper) } else { close(fd) } }
    }

    /// True when the spawner starts `executable` (the helper it was given).
    static func starts(_ executable: String) -> Bool {
        running.withLock { $0?.helper == executable }
    }

    static var socket: Int32? { running.withLock { $0?.socket } }

    /// The helper, through the spawner: its pid, stdin, stdout and the descriptor its wait
    /// status comes back on.
    static func helper() throws(SystemError) -> (pid: Int32, input: Int32, output: Int32, status: Int32) {
        guard let socket else { throw SystemError(errno: ENOSYS) }
        var input: Int32 = -1
        var output: Int32 = -1
        var status: Int32 = -1
        let pid = pm_spawner_helper(socket, &input, &output, &status)
        guard pid > 0 else { throw SystemError(errno: -pid) }
        return (pid, input, output, status)
    }

    /// The hook, through the spawner, with `variables` (PHOTOMETA_* only); the descriptor its
    /// wait status comes back on. Nil when no spawner runs.
    static func hook(_ variables: [String: String]) throws(SystemError) -> Int32? {
        guard let socket else { return nil }
        var cVars: [UnsafeMutablePointer<CChar>?] = variables.filter { $0.key.hasPrefix("PHOTOMETA_") }.map {
            PathBytes.withCPath("\($0.key)=\($0.value)") { strdup($0) }
        }
        cVars.append(nil)
        defer { for p in cVars { free(p) } }
        var status: Int32 = -1
        let pid = cVars.withUnsafeBufferPointer { pm_spawner_hook(socket, $0.baseAddress, &status) }
        guard pid > 0 else { throw SystemError(errno: -pid) }
        return status
    }

    /// The wait status read from `status` (closed), as `waitpid` gives it; nil when the spawner
    /// is gone.
    static func wait(_ status: Int32) -> Int32? {
        let s = pm_spawner_wait(status)
        return s < 0 ? nil : s
    }
}
