internal import CSandbox
import Foundation
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// What a confined process may still do (docs/sandbox.md). Everything not named here is
/// refused once `Sandbox.confine` returns: reading, writing, creating and removing files
/// outside these paths (Landlock), and the system calls of the seccomp deny list.
package struct SandboxPolicy: Sendable {
    /// Files read, or folders read beneath.
    package var read: [String] = []
    /// Inputs: a file among them is read, a folder only listed (so a folder named as an input
    /// is refused as a folder, as before, and opens none of its files).
    package var inputs: [String] = []
    /// Folders written beneath (create, write, rename, remove; read too): outputs, caches, state.
    package var write: [String] = []
    /// Files that may be executed (only when `exec` is set).
    package var execute: [String] = []
    /// Folders where a unix socket's file may be created (`bind`).
    package var makeSocket: [String] = []
    /// socket(2) may create AF_UNIX sockets (no other family ever).
    package var unixSockets = false
    /// execve may run (Landlock then allows only `execute`).
    package var exec = false
    /// `RLIMIT_AS` in bytes (a decoder that asks for more gets ENOMEM); nil for none.
    package var addressSpaceBytes: UInt64?
    /// `RLIMIT_CPU` in seconds (SIGXCPU at this, SIGKILL 5 s later); nil for none.
    package var cpuSeconds: UInt64?

    package init() {}
}

/// A process confining itself: `PR_SET_NO_NEW_PRIVS`, resource limits, Landlock (what may be
/// read, written and executed) and a seccomp deny list, each through the C target `CSandbox`.
/// Call it after every library is loaded (Landlock leaves open files and mapped libraries
/// alone, but a library loaded later could not be read) and before the first untrusted input
/// is read, on the main thread before any other thread starts: Landlock restricts the calling
/// thread and the threads it starts afterwards (the seccomp filter is synchronised to every
/// thread).
package enum Sandbox {
    /// Confines this process by `policy`, as far as the kernel allows, and says what is in force:
    /// a confinement the kernel lacks gets a note and the others still apply.
    package static func confine(_ policy: SandboxPolicy, environment: [String: String]) -> Confinement {
        var c = Confinement()
        let pretendMissing = Self.pretendMissing(environment)
        limit(policy, &c)
        let nnp = pm_no_new_privs()
        if nnp == 0 { c.noNewPrivileges = true } else { c.notes.append("no_new_privs: \(SystemError(errno: -nnp))") }
        landlock(policy, pretendMissing.contains("landlock"), &c)
        if pretendMissing.contains("seccomp") {
            c.notes.append("seccomp is not available (pretended by PHOTOMETA_SANDBOX_PRETEND_MISSING)")
        } else if !c.noNewPrivileges {
            c.notes.append("seccomp needs no_new_privs; not installed")
        } else {
            let rc = pm_seccomp_deny(policy.unixSockets ? 1 : 0, policy.exec ? 1 : 0)
            if rc == 0 {
                c.seccomp = true
            } else {
                let why = rc == -ENOSYS ? "no filter for this architecture" : "\(SystemError(errno: -rc))"
                c.notes.append("seccomp is not available (\(why)): system calls are not filtered")
            }
        }
        return c
    }

    /// Test builds only: `PHOTOMETA_SANDBOX_PRETEND_MISSING=landlock,seccomp` acts as on a
    /// kernel without them, so the note a user would see is tested.
    static func pretendMissing(_ environment: [String: String]) -> Set<String> {
        #if DEBUG
            return Set((environment["PHOTOMETA_SANDBOX_PRETEND_MISSING"] ?? "").split(separator: ",").map(String.init))
        #else
            return []
        #endif
    }

    static func limit(_ policy: SandboxPolicy, _ c: inout Confinement) {
        if let bytes = policy.addressSpaceBytes {
            let rc = pm_set_limit(0, bytes, bytes)
            if rc == 0 {
                c.addressSpaceBytes = pm_get_limit(0)
            } else {
                c.notes.append("address space limit: \(SystemError(errno: -rc))")
            }
        }
        if let seconds = policy.cpuSeconds {
            let rc = pm_set_limit(1, seconds, seconds + 5)
            if rc == 0 { c.cpuSeconds = pm_get_limit(1) } else { c.notes.append("CPU limit: \(SystemError(errno: -rc))") }
        }
    }

    static func landlock(_ policy: SandboxPolicy, _ pretend: Bool, _ c: inout Confinement) {
        let abi = pretend ? -ENOSYS : pm_landlock_abi()
        guard abi > 0 else {
            let why = abi == -EOPNOTSUPP ? "disabled at boot" : "the kernel has none"
            c.notes.append("Landlock is not available (\(why)): files are open with the user's full rights")
            return
        }
        guard c.noNewPrivileges else {
            c.notes.append("Landlock needs no_new_privs; not enforced")
            return
        }
        let threads = pm_thread_count()
        if threads > 1 {
            c.notes.append("Landlock: \(threads - 1) threads started before it stay unrestricted")
        }
        let ruleset = pm_landlock_ruleset(abi)
        guard ruleset >= 0 else {
            c.notes.append("Landlock ruleset: \(SystemError(errno: -ruleset))")
            return
        }
        var rules: [(String, Int32)] = []
        // Reading everything (photometa itself) needs no list of the system's files.
        let system = policy.read.contains("/") ? [] : systemPaths()
        for path in system + policy.read { rules.append((path, PM_ALLOW_READ)) }
        for path in policy.inputs {
            let isFolder = (try? FileFacts.of(path))?.type == .directory
            rules.append((path, isFolder ? PM_ALLOW_LIST : PM_ALLOW_READ))
        }
        for path in policy.write { rules.append((path, PM_ALLOW_READ | PM_ALLOW_WRITE)) }
        for path in policy.exec ? policy.execute : [] { rules.append((path, PM_ALLOW_READ | PM_ALLOW_EXECUTE)) }
        for path in policy.makeSocket { rules.append((path, PM_ALLOW_MAKE_SOCKET)) }
        for (path, access) in rules {
            // A path that cannot be reached gets no rule: what it names stays refused. A path
            // over PATH_MAX is reached folder by folder.
            _ = try? LongPath.at(path) { dir, name in
                PathBytes.withCPath(name) { pm_landlock_allow(ruleset, abi, dir, $0, access) }
            }
        }
        let rc = pm_landlock_restrict(ruleset)
        if rc == 0 { c.landlockABI = Int(abi) } else { c.notes.append("Landlock: \(SystemError(errno: -rc))") }
    }

    /// What every confined process reads: the folders of the shared libraries it mapped (a
    /// library may load a sibling later: GLib's gconv modules, FFmpeg's), the system's data
    /// under /usr, the dynamic linker's cache, the local time zone, /dev/null and /dev/urandom,
    /// and its own /proc and CPU facts (the processor count). Not /etc (passwords, keys), not
    /// the home folder.
    static func systemPaths() -> [String] {
        var paths = [
            "/usr", "/etc/ld.so.cache", "/etc/localtime", "/dev/null", "/dev/urandom", "/proc/self",
            "/sys/devices/system/cpu", "/sys/fs/cgroup",
        ]
        var seen = Set(paths)
        for folder in mappedLibraryFolders() where seen.insert(folder).inserted { paths.append(folder) }
        return paths
    }

    /// The folders of the shared libraries in /proc/self/maps.
    static func mappedLibraryFolders() -> [String] {
        guard let fd = try? SystemCalls.open("/proc/self/maps", O_RDONLY | O_CLOEXEC) else { return [] }
        defer { SystemCalls.close(fd) }
        let maps = FileDescriptorInput.readAll(fd)
        var folders: [String] = []
        for line in maps.split(separator: 0x0A) {
            guard let slash = line.firstIndex(of: 0x2F) else { continue }
            let path = PathBytes.decode(line[slash...])
            guard path.contains(".so"), let end = path.lastIndex(of: "/"), end > path.startIndex else { continue }
            folders.append(String(path[..<end]))
        }
        return folders
    }
}
