import Foundation
// The test-support target (fixture locator, temporary folders, the binary runner, a clock the
// test moves) is every file's here.
@_exported import PhotoMetaTestSupport
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

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
