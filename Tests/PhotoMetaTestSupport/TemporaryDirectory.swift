import Foundation

/// A folder of the test's own under the system's temporary folder, removed (with what it
/// holds) when the test lets go of it: the one temporary-folder idiom of every test target.
package final class TemporaryDirectory {
    package let url: URL
    package var path: String { url.path }

    /// `prefix` names the folder (seen in `ls /tmp` when a test is stopped half-way).
    package init(prefix: String = "photometa-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to `name` (folders created as needed); returns the file's path.
    @discardableResult
    package func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// Copies the file at `source` in, as `name` (default: its own name); returns the copy's path.
    @discardableResult
    package func copy(_ source: String, as name: String? = nil) throws -> String {
        let target = path + "/" + (name ?? URL(fileURLWithPath: source).lastPathComponent)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }
}
