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
    /// The end of stdout and of stderr was read (their handlers are removed).
    private var ended = (out: false, err: false)

    /// Its stdin (`send`).
    private let input = Pipe()
    /// Its stdout and stderr, read by handlers that must be removed before the pipes close.
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
        // A handler is a dispatch source on the pipe's descriptor: it is removed at the end of
        // the output (and at the latest when this object goes), never left registered on a
        // descriptor that closes. Left behind, it watched a closed descriptor whose number the
        // next test's pipe reused, and libdispatch's event loop crashed on it (SIGSEGV in
        // `_dispatch_event_loop_drain`, now and then in a full `swift test`).
        for (pipe, isErr) in [(output, false), (errors, true)] {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] h in
                let d = h.availableData
                if d.isEmpty {
                    h.readabilityHandler = nil
                    self?.ended(err: isErr)
                }
                self?.append(d, err: isErr)
            }
        }
        process.terminationHandler = { [weak self] _ in self?.append(Data(), err: false) }
        try process.run()
    }

    deinit {
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
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

    /// Waits for the exit, then for the end of both pipes: a child of photometa (the
    /// spawner of a confined watch, a hook) may hold them a moment longer, and a handler still
    /// registered when this object goes would be removed just before its descriptor closes,
    /// which libdispatch does not always take (the crash `init` describes, seen again when a
    /// test started a confined watch with a hook right after another).
    package func finish(timeout: Double = 10) -> Int32? {
        wait(timeout: timeout) { !process.isRunning }
        if process.isRunning {
            process.terminate()
            return nil
        }
        wait(timeout: timeout) { signal.read { ended.out && ended.err } }
        return process.terminationStatus
    }
}
