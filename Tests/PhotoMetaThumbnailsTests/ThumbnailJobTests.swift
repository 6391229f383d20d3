import PhotoMetaCore
import PhotoMetaThumbnailCache
import XCTest

/// The one typed request through the helper protocol (photometa -> photometa-thumbnailer and
/// back): what photometa encodes is what the helper decodes, field by field.
final class ThumbnailJobTests: XCTestCase {
    /// Encodes as photometa does, splits the bytes as the helper does.
    func roundTrip(_ job: ThumbnailJob) -> ThumbnailJob? {
        let bytes = Array((job.line + "\n" + TabFields.line(["/a/b.jpg", ""]) + "\n").utf8)
        let lines = TabFields.lines(bytes)
        XCTAssertEqual(lines.count, 2, "the options line is one line, whatever the folder's name")
        return lines.first.flatMap { ThumbnailJob(line: $0) }
    }

    func testEveryFieldRoundTrips() {
        XCTAssertEqual(roundTrip(ThumbnailJob()), ThumbnailJob())
        let request = ThumbnailRequest(
            width: 20, height: 10, mode: .crop, format: .webp, quality: 55, delivery: .fast, maxPixels: 12_345)
        for out in [nil, "/tmp/thumbs", "/tmp/a\tb\nc\\d=e", ""] {
            for cache in [true, false] {
                let job = ThumbnailJob(request: request, out: out, cache: cache)
                XCTAssertEqual(roundTrip(job), job, "\(String(describing: out)) \(cache)")
            }
        }
        for mode in ThumbnailRequest.Mode.allCases {
            for format in ThumbnailFormat.allCases {
                let job = ThumbnailJob(request: ThumbnailRequest(mode: mode, format: format, delivery: .opportunistic))
                XCTAssertEqual(roundTrip(job), job)
            }
        }
    }

    func testDefaultsAreTheRequestsOwn() {
        // A key left out keeps ThumbnailRequest's default: one home for the defaults.
        let job = ThumbnailJob(line: Array("options\twidth=64".utf8)[...])
        XCTAssertEqual(job?.request, ThumbnailRequest(width: 64))
        XCTAssertEqual(job?.cache, true)
        XCTAssertNil(job?.out)
        XCTAssertEqual(ThumbnailJob(line: Array("options".utf8)[...]), ThumbnailJob())
    }

    func testMalformedOptionsAreRefused() {
        for text in [
            "", "{\"width\": 256}", "width=256", "options\twidth=big", "options\tmode=stretch", "options\tformat=gif",
            "options\tdelivery=soon", "options\tcache=yes", "options\tcolour=red", "options\twidth",
        ] {
            XCTAssertNil(ThumbnailJob(line: Array(text.utf8)[...]), text)
        }
    }

    func testRepliesRoundTrip() {
        let replies: [ThumbnailReply] = [
            .made(index: 0, .init(path: "/c/x\ty.png", width: 256, height: 192, source: "decoded", format: "png")),
            .made(index: 7, .init(path: nil, width: 1, height: 1, source: "cache", format: "jpeg")),
            .failed(index: 3, reason: "not a picture\n(really)"),
        ]
        for reply in replies {
            let lines = TabFields.lines(Array((reply.line + "\n").utf8))
            XCTAssertEqual(lines.count, 1)
            XCTAssertEqual(lines.first.flatMap { ThumbnailReply(line: $0) }, reply)
        }
        XCTAssertNil(ThumbnailReply(line: Array("x\tok\t".utf8)[...]))
        XCTAssertNil(ThumbnailReply(line: Array("1\tmaybe\tz".utf8)[...]))
        XCTAssertNil(ThumbnailReply(line: Array("1\tok\t/p\tw\t1\tdecoded\tpng".utf8)[...]))
    }
}
