import Foundation

/// Where the tests' files are, found from this file (`#filePath`), never from the working
/// directory: the one fixture locator of every test target.
package enum TestPaths {
    /// The package root.
    package static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    package static let fixtures = root.appendingPathComponent("Fixtures")
    /// The sample library (Fixtures/README.md).
    package static let library = fixtures.appendingPathComponent("library")
    /// The Live Photo rule's cases (Fixtures/README.md).
    package static let pairing = fixtures.appendingPathComponent("pairing")
    /// Pictures with real pixels, for thumbnails (Fixtures/make_thumbnail_fixtures.py).
    package static let thumbnails = fixtures.appendingPathComponent("thumbnails")
    /// `../shared/corpus` beside the checkout, when it exists.
    package static let corpus: URL? = {
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// A file of the sample library.
    package static func fixture(_ name: String) -> String { library.appendingPathComponent(name).path }

    /// The bytes of a file of the sample library (`name` may climb: "../formats/x.avi").
    package static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: library.appendingPathComponent(name)))
    }
}
