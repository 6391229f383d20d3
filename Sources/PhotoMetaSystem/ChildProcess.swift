internal import CSpawn
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// A helper process started with `posix_spawn` (the C shim `Sources/CSpawn`, as `Hook` is), its
/// stdin and stdout on pipes, its stderr on photometa's, and no other descriptor of photometa's
/// inherited (`closefrom(3)`): the one way photometa starts a program it talks to
/// (`photometa-thumbnailer`).
///
/// A value of descriptors and a pid, so the input can be written on one thread while the output
/// is read on another (a long request must not wait for the answers it causes). Each end is
/// closed once: the input by `finishInput`, the output by `wait`.
package struct ChildProcess: Sendable {
    /// How the child ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It called exit with this status.
        case exited(Int32)
        /// A signal ended it (SIGKILL, SIGSEGV...).
        case signalled(Int32)

        package var description: String {
            switch self {
            case .exited(let status): return "exited with status \(status)"
            case .signalled(let signal): return "was killed by signal \(signal)" + Self.meaning(signal)
            }
        }

        /// What the signals photometa's helper meets mean: the limits of its confinement
        /// (docs/sandbox.md) and a crash.
        static func meaning(_ signal: Int32) -> String {
            switch signal {
            case SIGXCPU: return " (SIGXCPU: the CPU time limit)"
            case SIGKILL: return " (SIGKILL)"
            case SIGABRT: return " (SIGABRT: an abort, such as memory beyond the address space limit)"
            case SIGSEGV, SIGBUS: return " (a crash)"
            case SIGSYS: return " (SIGSYS: a system call through another architecture's table, which the seccomp filter kills)"
            default: return ""
            }
        }
    }

    package let pid: Int32
    /// The write end of the child's stdin.
    let input: Int32
    /// The read end of the child's stdout.
    let output: Int32
    /// Where the wait status comes from when the spawner started the child (docs/sandbox.md),
    /// else -1 (this process waits for it).
    let status: Int32

    /// Starts `executable` (a path, not searched in PATH) with `arguments` (without the program
    /// name) and photometa's environment (for the thumbnail helper, `helper`, with its glibc
    /// tunables: `pm_helper_environment`). Throws the errno of the failed pipe or spawn
    /// (`ENOENT`: no such program).
    package init(executable: String, arguments: [String] = [], helper: Bool = false) throws(SystemError) {
        // A confined photometa cannot execute programs: the spawner it started before starts
        // the helper (Spawner.swift).
        if arguments.isEmpty, Spawner.starts(executable) {
            (pid, input, output, status) = try Spawner.helper()
            return
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { PathBytes.withCPath($0) { strdup($0) } }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        var toChild: Int32 = -1
        var fromChild: Int32 = -1
        // nil: photometa's own environment.
        let env = helper ? pm_helper_environment() : nil
        defer { free(env) }
        let pid = argv.withUnsafeBufferPointer { args in
            PathBytes.withCPath(executable) { pm_spawn_piped($0, args.baseAddress, env, &toChild, &fromChild) }
        }
        guard pid > 0 else { throw SystemError(errno: -pid) }
        self.pid = pid
        input = toChild
        output = fromChild
        status = -1
    }

    /// Writes all of `bytes` to the child's stdin, then closes it (the child sees the end of its
    /// input). Returns the error that stopped the write (EPIPE: the child is gone), else nil.
    @discardableResult
    package func finishInput(_ bytes: [UInt8]) -> SystemError? {
        let failure = FileDescriptorOutput.writeAll(input, bytes)
        close(input)
        return failure
    }

    /// The next bytes the child wrote to its stdout (at most `limit`); empty at the end of its
    /// output (or when it cannot be read any more).
    package func readOutput(limit: Int = 65_536) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: limit) { raw, count in
            var n: Int
            repeat { n = Glibc.read(output, raw.baseAddress, limit) } while n < 0 && errno == EINTR
            count = max(0, n)
        }
    }

    /// Whether the child wrote something, or closed its output, within `milliseconds`.
    package func outputReady(within milliseconds: Int32) -> Bool {
        !Readiness.wait([output], timeoutMilliseconds: milliseconds).isEmpty
    }

    /// Gives up on a child that stopped answering: kills it (SIGKILL) and closes its output.
    /// One the spawner started is killed by the spawner when this process hangs up on it
    /// (`status` closed): a confined photometa may not signal it itself.
    package func abandon() {
        close(output)
        if status >= 0 {
            close(status)
            return
        }
        _ = kill(pid, SIGKILL)
        var s: Int32 = 0
        while waitpid(pid, &s, 0) < 0, errno == EINTR {}
    }

    /// Closes the output and waits for the child to end.
    package func wait() -> Termination {
        close(output)
        var status: Int32 = 0
        if self.status >= 0 {
            guard let s = Spawner.wait(self.status) else { return .exited(-1) }
            status = s
        } else {
            while waitpid(pid, &status, 0) < 0 {
                if errno != EINTR { return .exited(-1) }
            }
        }
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }
}
