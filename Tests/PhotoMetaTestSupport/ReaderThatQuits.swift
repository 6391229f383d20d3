import Foundation

/// photometa with its stdout read by a reader that takes the first line and goes away, as
/// `| head -1` does: what the commands must notice and end on (README, exit status 74's row).
package enum ReaderThatQuits {
    /// Starts `photometa ARGUMENTS` (stdin `input` when given, then `started`, e.g. to close
    /// the test's own copy of it), reads stdout to the end of its first line, closes it, and
    /// waits at most `bound` seconds for the process to end: a bound against a hang, not a
    /// measure of speed. Returns the first line and whether it ended; one still running is
    /// stopped.
    package static func run(
        _ arguments: [String], environment: [String: String]? = nil, input: FileHandle? = nil,
        started: () throws -> Void = {}, bound: Double = 60
    ) throws -> (firstLine: String, ended: Bool) {
        let process = Process()
        process.executableURL = Photometa.binary
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let input { process.standardInput = input }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        try started()
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        try output.fileHandleForReading.close()  // the reader goes away
        let result = ended.wait(timeout: .now() + bound)
        if process.isRunning { process.terminate() }
        return (String(decoding: first, as: UTF8.self), result == .success)
    }
}
