internal import CSandbox
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// The proof that a confinement holds (docs/sandbox.md): once confined, a process that test
/// builds ask to (`PHOTOMETA_SANDBOX_PROBE`, read only under `#if DEBUG` by the callers) tries
/// what a hostile file would make a decoder try, and reports each errno (0 when it worked).
package enum SandboxProbe {
    /// One attempt and its errno (0: it was allowed).
    package struct Attempt: Sendable, Equatable {
        package var name: String
        package var errno: Int32
    }

    /// Opens `secret` for reading, creates a file beside it, creates an AF_INET and an AF_UNIX
    /// socket, and spawns /bin/true.
    package static func run(secret: String) -> [Attempt] {
        let folder = secret.lastIndex(of: "/").map { String(secret[..<$0]) } ?? "."
        return [
            Attempt(name: "open", errno: PathBytes.withCPath(secret) { pm_probe_open($0, 0) }),
            Attempt(name: "create", errno: PathBytes.withCPath(folder + "/probe-created") { pm_probe_open($0, 1) }),
            Attempt(name: "inet", errno: pm_probe_socket(AF_INET)),
            Attempt(name: "unix", errno: pm_probe_socket(AF_UNIX)),
            Attempt(name: "exec", errno: pm_probe_exec("/bin/true")),
        ]
    }

    /// The probe's line: `probe <TAB> open=13 <TAB> create=13 <TAB> inet=1 ...` (TabFields).
    package static func line(_ attempts: [Attempt]) -> String {
        TabFields.line(["probe"] + attempts.map { "\($0.name)=\($0.errno)" })
    }

    /// Blocks until the reader of `fd` (a pipe's write end) has gone: the test that reads this
    /// process's /proc/PID/status closes its end when it is done, so the process is known to be
    /// alive and confined while it looks, without a sleep.
    package static func waitForReaderToLeave(_ fd: Int32) {
        var p = pollfd(fd: fd, events: 0, revents: 0)
        while true {
            let r = poll(&p, 1, -1)
            if r > 0 || (r < 0 && errno != EINTR) { return }
        }
    }

    /// Spins on the CPU until the CPU limit ends the process (the decoding bomb of the tests).
    package static func spin() -> Never {
        var x: UInt64 = 1
        while true { x = x &* 6_364_136_223_846_793_005 &+ 1 }
    }
}
