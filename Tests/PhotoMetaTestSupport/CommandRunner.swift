import Foundation
import XCTest

/// The one binary runner of the test targets: runs the built `photometa` binary and captures
/// what it prints, like swift-argument-parser's test helper: stdout, stderr and the exit
/// status, with a timeout so a hang fails the test.
package struct CommandResult {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

package enum Photometa {
    package static let root = TestPaths.root

    /// The directory holding the built products (the test bundle sits beside the binary).
    package static var binary: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("photometa"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("photometa"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photometa"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    package static func fixture(_ name: String) -> String { TestPaths.fixture(name) }

    /// Where the binary runs when the test names no folder: a temporary folder of the test
    /// process's own (created once, left for the system's cleaner).
    package static let workingFolder: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("photometa-cwd-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @discardableResult
    package static func run(
        _ arguments: [String], environment: [String: String] = ["TZ": "UTC"], stdout: FileHandle? = nil, stdin: Data? = nil,
        cwd: String? = nil, executable: String? = nil,
        timeout: TimeInterval = 60,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> CommandResult {
        let p = Process()
        p.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? binary
        p.arguments = arguments
        // Never the checkout: a command that writes where it runs writes into a folder of the
        // tests' own, not beside the sources.
        p.currentDirectoryURL = URL(fileURLWithPath: cwd ?? Photometa.workingFolder)
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe()
        let err = Pipe()
        // A given handle (e.g. /dev/full) replaces the pipe; the pipe then stays empty.
        p.standardOutput = stdout ?? out
        p.standardError = err
        let input = Pipe()
        p.standardInput = stdin == nil ? FileHandle.nullDevice : input
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try p.run()
        if stdout != nil { try? out.fileHandleForWriting.close() }
        if let stdin {
            let writer = input.fileHandleForWriting
            DispatchQueue.global().async {
                try? writer.write(contentsOf: stdin)
                try? writer.close()
            }
        }
        // Drain both pipes concurrently so a large output cannot block the child.
        let group = DispatchGroup()
        let box = OutputBox()
        group.enter()
        DispatchQueue.global().async {
            box.setOut(out.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            box.setErr(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        // The termination handler wakes the wait; the timeout bounds it.
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            XCTFail("photometa \(arguments) did not finish within \(timeout) s", file: file, line: line)
        }
        p.waitUntilExit()
        group.wait()
        return CommandResult(
            status: p.terminationStatus, stdout: String(decoding: box.out, as: UTF8.self),
            stderr: String(decoding: box.err, as: UTF8.self))
    }
}

extension Photometa {
    /// Runs several commands at once (a thread each, so all are started before any is waited
    /// for, whatever the number of cores), and returns their results in the order given.
    package static func runTogether(
        _ argumentLists: [[String]], environment: [String: String] = ["TZ": "UTC"], timeout: TimeInterval = 60
    ) -> [Result<CommandResult, any Error>] {
        let results = ResultsBox(count: argumentLists.count)
        let group = DispatchGroup()
        for (i, arguments) in argumentLists.enumerated() {
            group.enter()
            Thread {
                results.set(i, Result { try run(arguments, environment: environment, timeout: timeout) })
                group.leave()
            }.start()
        }
        group.wait()
        return results.values
    }
}

/// Another program the tests run (make, man, systemd-analyze...): its exit status and what it
/// printed (stdout and stderr together).
package enum Program {
    package static func run(_ exe: String, _ args: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.currentDirectoryURL = URL(fileURLWithPath: Photometa.workingFolder)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

private final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Result<CommandResult, any Error>]
    init(count: Int) { storage = Array(repeating: .failure(CancellationError()), count: count) }
    func set(_ i: Int, _ r: Result<CommandResult, any Error>) {
        lock.lock()
        storage[i] = r
        lock.unlock()
    }
    var values: [Result<CommandResult, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

private final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var out = Data()
    private(set) var err = Data()
    func setOut(_ d: Data) {
        lock.lock()
        out = d
        lock.unlock()
    }
    func setErr(_ d: Data) {
        lock.lock()
        err = d
        lock.unlock()
    }
}
