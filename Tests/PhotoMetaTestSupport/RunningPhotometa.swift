import Foundation

/// A running `photometa` (watch, serve: a command that lasts), the long-lived side of the one
/// binary runner. Waits are woken by its output and by its exit (a condition variable), and
/// bounded by a deadline.
package final class RunningPhotometa: @unchecked Sendable {
    package let process = Process()
    /// Guards `out` and `err`; signalled on output and on exit.
    private let signal = ChangeSignal()
    private var out = Data()
    private var err = Data()
    /// The end of stdout and of stderr was read.
    private var ended = (out: false, err: false)

    /// Its stdin (`send`).
    private let input = Pipe()
    /// Its stdout and stderr, each read to its end by a thread of its own.
    private let output = Pipe()
    private let errors = Pipe()

    /// `executable`: another program than photometa (an example client that drives it).
    package init(_ arguments: [String], environment: [String: String] = [:], executable: URL = Photometa.binary) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: Photometa.workingFolder)
        process.standardOutput = output
        process.standardError = errors
        // Blocking reads on threads, not readability handlers: a handler is a libdispatch
        // source on the descriptor, and one removed just before its descriptor closed (a
        // watch's spawner or hook still held the pipe when the test let go) made libdispatch's
        // event loop crash later, on a descriptor number another test's pipe had reused
        // (SIGSEGV in `_dispatch_event_loop_drain`, now and then in a full `swift test`, once
        // in CI's). A thread holds its handle, so the descriptor closes only after its end was
        // read.
        for (pipe, isErr) in [(output, false), (errors, true)] {
            let handle = pipe.fileHandleForReading
            Thread { [weak self] in
                withExtendedLifetime(handle) {
                    let fd = handle.fileDescriptor
                    var buffer = [UInt8](repeating: 0, count: 64 << 10)
                    while true {
                        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                        if n < 0, errno == EINTR { continue }
                        guard n > 0 else { break }
                        self?.append(Data(buffer[0..<n]), err: isErr)
                    }
                    self?.ended(err: isErr)
                }
            }.start()
        }
        process.terminationHandler = { [weak self] _ in self?.append(Data(), err: false) }
        try process.run()
    }

    /// Writes `line` and a newline to its stdin.
    package func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    private func ended(err isErr: Bool) {
        signal.change { if isErr { ended.err = true } else { ended.out = true } }
    }

    private func append(_ d: Data, err isErr: Bool) {
        signal.change { if isErr { err.append(d) } else { out.append(d) } }
    }

    package var stdout: String { signal.read { String(decoding: out, as: UTF8.self) } }
    package var stderr: String { signal.read { String(decoding: err, as: UTF8.self) } }

    /// Waits until `predicate` holds, looking again whenever the process writes or exits;
    /// false when `timeout` passes first.
    @discardableResult
    package func wait(timeout: Double = 10, _ predicate: () -> Bool) -> Bool {
        signal.wait(timeout: timeout, predicate)
    }

    /// Waits for the exit, then (bounded) for the end of both pipes: a child of photometa (the
    /// spawner of a confined watch, a hook) may hold them a moment longer, and what it writes
    /// then is still the test's to see.
    package func finish(timeout: Double = 10) -> Int32? {
        wait(timeout: timeout) { !process.isRunning }
        if process.isRunning {
            process.terminate()
            return nil
        }
        wait(timeout: timeout) { signal.read { ended.out && ended.err } }
        return process.terminationStatus
    }

    /// The names of the process's threads that are libdispatch's (its pool names its threads
    /// after its queues, `com.apple.root.default-qos`, cut to the kernel's 15 bytes): a
    /// long-running photometa starts none, so it wakes no thread while idle (docs/performance.md,
    /// "An idle service wakes no thread").
    package var dispatchThreads: [String] {
        let tasks = "/proc/\(process.processIdentifier)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return ids.compactMap { id in
            (try? String(contentsOfFile: tasks + "/" + id + "/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }.filter { $0.contains("qos") || $0.contains("dispatch") || $0.hasPrefix("com.apple") }
    }
}
