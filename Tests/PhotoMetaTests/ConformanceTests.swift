import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// Compares photometa with the exiftool 12.57 oracle over the third-party corpus in
/// `../shared/corpus` (`oracle/<path>.json` is `exiftool -j -n -G1 -a -u` output).
///
/// Every (file, field) comparison that differs must be listed, with its reason, in
/// `Tests/conformance-known-differences.tsv`; a listed difference that no longer differs fails
/// too, so the list stays true. Fields compared:
///
/// - `DateTimeOriginal`: ExifIFD (else IFD0) DateTimeOriginal, when it is a date (4 digits, not
///   "0000"), must be the capture date (`exif.DateTimeOriginal`) with the same wall clock; when
///   the oracle has no such date, photometa must not claim one.
/// - `OffsetTimeOriginal`: when the oracle has ExifIFD:OffsetTimeOriginal, the capture date's
///   offset, taken from `exif.OffsetTimeOriginal`.
/// - `Make`, `Model`: IFD0 Make / Model, trimmed.
/// - `Orientation`: IFD0 Orientation; a value outside 1...8 is invalid [EXIF 2.32 4.6.4 A] and
///   photometa reports nil for it.
/// - `ImageWidth`, `ImageHeight`: File:ImageWidth / File:ImageHeight (exiftool puts the
///   container's own size there for JPEG, HEIF, AVIF and some raws).
/// - `ContentIdentifier`: Apple:MediaGroupUUID (maker note 0x0011), the Live Photo identifier.
/// - `error`: photometa sets `error` only when the oracle has an `ExifTool:Error` too.
final class ConformanceTests: XCTestCase {
    struct Key: Hashable, Comparable, CustomStringConvertible {
        let path: String
        let field: String
        static func < (a: Key, b: Key) -> Bool { (a.path, a.field) < (b.path, b.field) }
        var description: String { "\(path)\t\(field)" }
    }

    static let knownDifferencesFile = TestPaths.root.appendingPathComponent("Tests/conformance-known-differences.tsv")

    /// `path<TAB>field<TAB>reason` lines; `#` starts a comment line.
    static func loadKnownDifferences() throws -> [Key: String] {
        let text = try String(contentsOf: knownDifferencesFile, encoding: .utf8)
        var known: [Key: String] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 3, !columns[0].isEmpty, !columns[1].isEmpty,
                !columns[2].trimmingCharacters(in: .whitespaces).isEmpty
            else {
                XCTFail("conformance-known-differences.tsv line \(number + 1): want path<TAB>field<TAB>reason: \(line)")
                continue
            }
            let key = Key(path: columns[0], field: columns[1])
            if known[key] != nil { XCTFail("conformance-known-differences.tsv line \(number + 1): duplicate \(key)") }
            known[key] = columns[2]
        }
        return known
    }

    /// The `path` column of `MANIFEST.tsv`.
    static func manifestPaths(_ corpus: URL) throws -> [String] {
        let text = try String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        guard let header = lines.first, let column = header.firstIndex(of: "path") else {
            XCTFail("MANIFEST.tsv has no 'path' column")
            return []
        }
        lines.removeFirst()
        return lines.compactMap { $0.count > column ? String($0[column]) : nil }
    }

    /// A JSON scalar as text: strings as written, numbers in their shortest form.
    static func text(_ value: Any?) -> String? {
        switch value {
        case let s as String: return s
        case let i as Int: return String(i)
        case let d as Double: return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    static func integer(_ value: Any?) -> Int? {
        switch value {
        case let i as Int: return i
        case let d as Double: return d == d.rounded() && abs(d) < 1e15 ? Int(d) : nil
        case let s as String: return Int(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// "2008:05:30 15:56:01" → "2008-05-30T15:56:01" (at most 19 characters).
    static func isoLocal(_ exif: String) -> String {
        var chars = Array(exif.prefix(19))
        for i in chars.indices where i < 10 && chars[i] == ":" { chars[i] = "-" }
        if chars.count > 10, chars[10] == " " { chars[10] = "T" }
        return String(chars)
    }

    static func isDate(_ value: Any?) -> String? {
        guard let s = value as? String, s.count >= 4, s.prefix(4).allSatisfy(\.isASCIIDigit), !s.hasPrefix("0000") else {
            return nil
        }
        return s
    }

    func testCorpusAgreesWithExiftoolOracle() throws {
        guard let corpus = TestPaths.corpus else {
            throw XCTSkip("../shared/corpus not found: conformance tests skipped")
        }
        let known = try Self.loadKnownDifferences()
        let paths = try Self.manifestPaths(corpus)
        XCTAssertFalse(paths.isEmpty, "MANIFEST.tsv lists no files")

        var differences: [Key: String] = [:]
        var comparisons = 0
        var files = 0
        // The issue's second measure: of the files whose oracle states when they were taken
        // (an EXIF DateTimeOriginal, else a QuickTime CreateDate), those where photometa's capture
        // instant is the same (printed, not asserted: each miss is a field difference above or
        // a movie date listed nowhere else).
        var dated = 0
        var instantsAgree = 0

        for path in paths {
            let oracleURL = corpus.appendingPathComponent("oracle/\(path).json")
            guard let data = try? Data(contentsOf: oracleURL) else { continue }
            guard let array = try JSONSerialization.jsonObject(with: data) as? [Any],
                let oracle = array.first as? [String: Any]
            else {
                XCTFail("\(oracleURL.path): not a one-element JSON array of objects")
                continue
            }
            files += 1
            let asset = FileInspector.inspect(path: corpus.appendingPathComponent(path).path)

            func compare(_ field: String, expected: String?, actual: String?) {
                comparisons += 1
                if expected != actual {
                    differences[Key(path: path, field: field)] =
                        "exiftool \(expected.map { "\"\($0)\"" } ?? "nil"), photometa \(actual.map { "\"\($0)\"" } ?? "nil")"
                }
            }

            // A file exiftool reads must not be an error for photometa. When it is, the field
            // comparisons below would only repeat that one difference.
            if oracle["ExifTool:Error"] == nil {
                compare("error", expected: nil, actual: asset.error?.description)
                if asset.error != nil { continue }
            }

            let rendered = asset.captured?.rendered(in: utcZone)
            let dto = Self.isDate(oracle["ExifIFD:DateTimeOriginal"]) ?? Self.isDate(oracle["IFD0:DateTimeOriginal"])
            if let dto {
                let actual =
                    asset.captured?.source == .exifDateTimeOriginal
                    ? rendered.map { String($0.local.prefix(19)) }
                    : "from \(asset.captured?.source.rawValue ?? "nothing")"
                compare("DateTimeOriginal", expected: Self.isoLocal(dto), actual: actual)
                if let offset = Self.text(oracle["ExifIFD:OffsetTimeOriginal"]) {
                    let actualOffset = rendered.map { "\($0.offset ?? "nil") from \($0.offsetSource?.rawValue ?? "nil")" }
                    compare(
                        "OffsetTimeOriginal",
                        expected: "\(offset.trimmingCharacters(in: .whitespaces)) from exif.OffsetTimeOriginal",
                        actual: actualOffset)
                }
            } else {
                // No date in the oracle: photometa must not claim an EXIF DateTimeOriginal.
                compare(
                    "DateTimeOriginal", expected: nil,
                    actual: asset.captured?.source == .exifDateTimeOriginal ? rendered?.local : nil)
            }

            if let dto {
                dated += 1
                let sameWall =
                    asset.captured?.source == .exifDateTimeOriginal
                    && rendered.map { String($0.local.prefix(19)) } == Self.isoLocal(dto)
                let offset = Self.text(oracle["ExifIFD:OffsetTimeOriginal"])?.trimmingCharacters(in: .whitespaces)
                if sameWall, offset == nil || rendered?.offset == offset { instantsAgree += 1 }
            } else if let keys = Self.text(oracle["Keys:CreationDate"]), keys.count >= 25, Self.isDate(keys) != nil {
                // Apple's creation date is the capture's start, with its offset; mvhd is when
                // the file was written. photometa prefers the former, so compare with it.
                dated += 1
                let wall = Self.isoLocal(String(keys.prefix(19)))
                if rendered.map({ String($0.local.prefix(19)) }) == wall, rendered?.offset == String(keys.suffix(6)) {
                    instantsAgree += 1
                }
            } else if let created = Self.isDate(oracle["QuickTime:CreateDate"]) {
                // exiftool -n prints QuickTime dates as stored: UTC [QTFF "Movie header atom"].
                dated += 1
                if rendered?.utc.map({ String($0.prefix(19)) }) == Self.isoLocal(created) { instantsAgree += 1 }
            }

            for (field, tag, actual) in [("Make", "IFD0:Make", asset.make), ("Model", "IFD0:Model", asset.model)] {
                if let value = Self.text(oracle[tag]) {
                    let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
                    compare(
                        field, expected: trimmed.isEmpty ? nil : trimmed,
                        actual: actual?.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }

            if let orientation = oracle["IFD0:Orientation"] {
                let value = Self.integer(orientation)
                let expected = value.flatMap { (1...8).contains($0) ? $0 : nil }
                compare("Orientation", expected: expected.map(String.init), actual: asset.orientation.map(String.init))
            }

            // Apple maker note 0x0011 (exiftool's MediaGroupUUID): the Live Photo content
            // identifier of a still.
            if let id = Self.text(oracle["Apple:MediaGroupUUID"]) {
                compare("ContentIdentifier", expected: id, actual: asset.contentIdentifier)
            }

            // exiftool's Composite position (EXIF GPS, else a movie's or XMP's): to 5 decimals
            // (about a metre), as photometa rounds to 7 and exiftool -n prints more.
            let position: (Any?, Any?) = (oracle["Composite:GPSLatitude"], oracle["Composite:GPSLongitude"])
            let expectedGPS: String? = {
                guard let la = position.0 as? Double ?? (position.0 as? Int).map(Double.init),
                    let lo = position.1 as? Double ?? (position.1 as? Int).map(Double.init)
                else { return nil }
                return String(format: "%.5f,%.5f", la, lo)
            }()
            compare(
                "GPS", expected: expectedGPS, actual: asset.gps.map { String(format: "%.5f,%.5f", $0.latitude, $0.longitude) })

            if let w = Self.integer(oracle["File:ImageWidth"]), let h = Self.integer(oracle["File:ImageHeight"]) {
                compare("ImageWidth", expected: String(w), actual: asset.width.map(String.init))
                compare("ImageHeight", expected: String(h), actual: asset.height.map(String.init))
            }
        }

        var knownHits = 0
        for key in differences.keys.sorted() {
            if known[key] != nil {
                knownHits += 1
            } else {
                XCTFail("\(key.path) \(key.field): \(differences[key]!) (not in conformance-known-differences.tsv)")
            }
        }
        for key in known.keys.sorted() where differences[key] == nil {
            XCTFail("stale known difference: \(key) no longer differs; remove it from conformance-known-differences.tsv")
        }
        let passing = comparisons - differences.count
        print(
            "conformance: \(passing)/\(comparisons) comparisons pass, \(knownHits) known differences, "
                + "\(differences.count - knownHits) unexpected, over \(files) files; capture instant agrees on "
                + "\(instantsAgree)/\(dated) dated files")
        XCTAssertGreaterThan(files, 0, "no corpus file has an oracle")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
