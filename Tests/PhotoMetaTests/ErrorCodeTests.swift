import Foundation
import XCTest

@testable import PhotoMetaCore

/// Errors travel as a code plus a message and are read back by their code: every case, through
/// the report's JSON, `FileReadError`'s own `Codable` and the index's stored text.
final class ErrorCodeTests: XCTestCase {
    static let all: [FileReadError] = [
        .system(.noSuchFile), .system(.permissionDenied), .system(SystemError(errno: ENAMETOOLONG)),
        .system(SystemError(errno: 4095)), .isDirectory, .notRegularFile(what: "a FIFO"),
        .notRegularFile(what: "a name (with parentheses)"), .empty, .unsupportedFormat, .unreadable(.outOfBounds),
        .unreadable(.budgetExhausted), .unreadable(.io("input/output error")),
    ]

    func testEveryErrorRoundTripsByItsCode() throws {
        var codes = Set<String>()
        for e in Self.all {
            codes.insert(e.code)
            XCTAssertEqual(FileReadError(code: e.code, message: e.description), e, e.code)
            XCTAssertEqual(FileReadError(stored: e.stored), e, e.stored)
            XCTAssertEqual(try JSONDecoder().decode(FileReadError.self, from: JSONEncoder().encode(e)), e)
            var asset = MediaAsset(path: "x", format: .unknown)
            asset.error = e
            let row = AssetReport(zone: TimeZone(identifier: "UTC") ?? .current).json(asset)
            XCTAssertEqual(try JSONDecoder().decode(MediaAsset.self, from: Data(row.utf8)).error, e, row)
        }
        XCTAssertEqual(codes.count, Self.all.count - 1, "the two FIFOs-and-such share a code: the detail is not part of it")
        XCTAssertEqual(FileReadError.system(.noSuchFile).code, "ENOENT")
        XCTAssertEqual(SystemError(errno: 4095).name, "errno-4095")
    }

    /// The message is for people and may change: the code alone decides the case.
    func testTheMessageDoesNotDecide() throws {
        XCTAssertEqual(FileReadError(code: "ENOENT", message: "some other wording"), .system(.noSuchFile))
        XCTAssertEqual(FileReadError(code: "empty", message: "not a supported image or video format"), .empty)
        XCTAssertNil(FileReadError(code: "not-a-code", message: "empty file"))
        let row = #"{"path":"x","format":"unknown","kind":"unknown","error":"empty file","errorCode":"bogus"}"#
        XCTAssertThrowsError(try JSONDecoder().decode(MediaAsset.self, from: Data(row.utf8)))
    }
}
