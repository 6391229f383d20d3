import Foundation
import XCTest

@testable import PhotoMetaCore

/// The writer builds bytes by hand (digits, escapes, separators): each must come out as the
/// `String` forms it replaced did, and as JSON a parser reads back.
final class JSONWriterTests: XCTestCase {
    func testIntegersAreWrittenAsSwiftWritesThem() {
        var values = [0, 1, -1, 9, 10, -10, 99, 100, 4080, 1_000_000, Int.max, Int.min, Int.min + 1]
        var x = 1
        for _ in 0..<18 {
            x *= 10
            values += [x - 1, x, x + 1, -(x - 1), -x]
        }
        for v in values {
            var w = JSONWriter()
            w.int(v)
            XCTAssertEqual(w.output, String(v))
        }
    }

    func testDoubles() {
        let cases: [(Double?, String)] = [
            (1.0, "1"), (-3.0, "-3"), (0.5, "0.5"), (40.7325694, "40.7325694"), (1e20, "1e+20"),
            (.nan, "null"), (.infinity, "null"), (nil, "null"),
        ]
        for (v, text) in cases {
            var w = JSONWriter()
            w.double(v)
            XCTAssertEqual(w.output, text, "\(String(describing: v))")
        }
    }

    func testStructureAndEscapesReadBack() throws {
        var w = JSONWriter()
        let nasty = "a\"b\\c\nd\re\tf\u{01}g\u{7F}h\u{85}i\u{202E}j\u{FEFF}k é 写"
        w.beginObject()
        w.field("s", nasty)
        w.field("n", nil as String?)
        w.field("i", -42)
        w.field("b", true)
        w.key("list")
        w.beginArray()
        w.string("x")
        w.int(1)
        w.null()
        w.beginObject()
        w.endObject()
        w.endArray()
        w.field("last", false)
        w.endObject()
        // Nothing that could drive a terminal is left raw in the text.
        XCTAssertFalse(w.bytes.contains { $0 < 0x20 || $0 == 0x7F })
        XCTAssertTrue(w.output.contains(#"\u202e"#))
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        XCTAssertEqual(parsed["s"] as? String, nasty)
        XCTAssertTrue(parsed["n"] is NSNull)
        XCTAssertEqual(parsed["i"] as? Int, -42)
        XCTAssertEqual(parsed["b"] as? Bool, true)
        XCTAssertEqual((parsed["list"] as? [Any])?.count, 4)
        XCTAssertEqual(parsed["last"] as? Bool, false)
        XCTAssertEqual(w.output, String(decoding: w.bytes, as: UTF8.self))
    }

    /// The writer is a value, as the array it wrote into was: a copy goes on apart, and rows
    /// far larger than the first block grow it.
    func testCopiesAreIndependentAndRowsGrow() throws {
        var a = JSONWriter()
        a.beginObject()
        a.field("k", "v")
        var b = a
        a.field("a", 1)
        a.endObject()
        b.field("b", 2)
        b.endObject()
        XCTAssertEqual(a.output, #"{"k":"v","a":1}"#)
        XCTAssertEqual(b.output, #"{"k":"v","b":2}"#)
        var big = JSONWriter()
        big.beginArray()
        for i in 0..<5_000 { big.string("item \(i) " + String(repeating: "x", count: i % 50)) }
        big.endArray()
        let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(big.bytes)) as? [String])
        XCTAssertEqual(items.count, 5_000)
        XCTAssertEqual(items[4_999], "item 4999 " + String(repeating: "x", count: 4_999 % 50))
    }

    /// Commas by depth: every level keeps its own, deep nesting included, and a stray close
    /// never traps.
    func testCommasAtEveryDepth() throws {
        var w = JSONWriter()
        for _ in 0..<40 {
            w.beginArray()
            w.int(1)
        }
        for _ in 0..<40 {
            w.int(2)
            w.endArray()
        }
        let text = w.output
        XCTAssertEqual(text, "[1" + String(repeating: ",[1", count: 39) + String(repeating: ",2]", count: 40))
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(w.bytes)))
        var stray = JSONWriter()
        stray.endObject()
        stray.endArray()
        stray.int(1)
        XCTAssertEqual(stray.output, "}]1")
    }
}
