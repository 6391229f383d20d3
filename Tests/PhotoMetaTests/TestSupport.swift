import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// Locations found from this file, never from the working directory.
enum TestPaths {
    /// The package root.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Fixtures")
    static let library = fixtures.appendingPathComponent("library")
    /// The Live Photo rule's cases (Fixtures/README.md).
    static let pairing = fixtures.appendingPathComponent("pairing")
    /// `../shared/corpus` beside the checkout, when it exists.
    static let corpus: URL? = {
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    static func fixture(_ name: String) -> String { library.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: library.appendingPathComponent(name)))
    }
}

/// A temporary directory removed at the end of the test.
final class TemporaryDirectory {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("photometa-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file.path
    }
}

extension MediaAsset {
    /// Inspects in-memory bytes, as the pure core does.
    static func from(_ bytes: [UInt8], path: String = "test.bin") -> MediaAsset {
        Inspector.inspect(MemoryByteSource(bytes), path: path)
    }
}

let utcZone = TimeZone(identifier: "UTC")!

/// Builds scenario folders whose file names (capture dates) and file times the test chooses.
struct ScenarioFolder {
    let dir: TemporaryDirectory
    var path: String { dir.path }

    init() throws { dir = try TemporaryDirectory() }

    /// Copies fixture `from` to `name` and sets its modification time `modifiedAgo` seconds
    /// before the real clock (a file written "just now" is held back by the completeness rule).
    @discardableResult
    func add(_ name: String, from fixture: String, modifiedAgo: Double = 3600) throws -> String {
        let path = try dir.write(name, try TestPaths.bytes(fixture))
        try setModified(path, ago: modifiedAgo)
        return path
    }

    func setModified(_ path: String, ago: Double) throws {
        let date = Date(timeIntervalSinceNow: -ago)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }
}
