import Foundation
import XCTest

/// Options mean one thing (issue 13, item 11): zone names in any case, `TZ` in every form glibc
/// reads (and a warning when it names no zone), strict durations.
final class OptionTests: XCTestCase {
    let photo = Photometa.fixture("no_offset.jpg")  // 2022-12-24T18:00:00, no offset

    func assumedUTC(_ r: CommandResult) -> String? {
        r.stdout.split(separator: "\n").first { $0.contains("utc:") }.map { String($0) }
    }

    func testZoneNamesInAnyCase() throws {
        for (tz, utc) in [
            ("utc", "2022-12-24T18:00:00Z"), ("asia/shanghai", "2022-12-24T10:00:00Z"), ("EUROPE/PARIS", "2022-12-24T17:00:00Z"),
        ] {
            let r = try Photometa.run(["inspect", "--tz", tz, photo])
            XCTAssertEqual(r.status, 0, "\(tz): \(r.stderr)")
            XCTAssertTrue(assumedUTC(r)?.contains(utc) == true, "\(tz): \(r.stdout)")
        }
    }

    func testTZInTheFormsGlibcReads() throws {
        let cases: [(String, String)] = [
            (":Asia/Tokyo", "2022-12-24T09:00:00Z"), ("/usr/share/zoneinfo/Asia/Tokyo", "2022-12-24T09:00:00Z"),
            ("CST-8", "2022-12-24T10:00:00Z"), ("<+0530>-5:30", "2022-12-24T12:30:00Z"), ("", "2022-12-24T18:00:00Z"),
            ("asia/tokyo", "2022-12-24T09:00:00Z"),
            // POSIX counts west: UTC-8 is 8 hours east, GMT+8 8 hours west (Foundation's own
            // reading of "UTC-8" is the other way round); a zone file of that form is the file's.
            ("UTC-8", "2022-12-24T10:00:00Z"), ("GMT+8", "2022-12-25T02:00:00Z"), ("UTC-05:30", "2022-12-24T12:30:00Z"),
            ("Etc/GMT-8", "2022-12-24T10:00:00Z"), ("EST5EDT", "2022-12-24T23:00:00Z"),
            // tzdata's copies of each zone, as glibc reads them.
            ("posix/Asia/Tokyo", "2022-12-24T09:00:00Z"), ("/usr/share/zoneinfo/right/Asia/Tokyo", "2022-12-24T09:00:00Z"),
        ]
        for (tz, utc) in cases {
            let r = try Photometa.run(["inspect", photo], environment: ["TZ": tz])
            XCTAssertEqual(r.status, 0, "TZ=\(tz): \(r.stderr)")
            XCTAssertTrue(assumedUTC(r)?.contains(utc) == true, "TZ=\(tz): \(r.stdout)")
            XCTAssertFalse(r.stderr.contains("warning"), "TZ=\(tz): \(r.stderr)")
        }
        let garbage = try Photometa.run(["inspect", photo], environment: ["TZ": "garbage"])
        XCTAssertEqual(garbage.status, 0)
        XCTAssertTrue(garbage.stderr.contains("TZ=garbage names no time zone; using UTC"), garbage.stderr)
        XCTAssertTrue(assumedUTC(garbage)?.contains("2022-12-24T18:00:00Z") == true, garbage.stdout)
        // --tz wins, and then TZ is not even looked at (no warning).
        let given = try Photometa.run(["inspect", "--tz", "UTC", photo], environment: ["TZ": "garbage"])
        XCTAssertFalse(given.stderr.contains("warning"), given.stderr)
    }

    /// A flag given a value (`--peek=false`) is a usage error in every command, where some took
    /// it for the flag set (`--videos=false` turned videos on).
    func testFlagsTakeNoValue() throws {
        let folder = Photometa.root.appendingPathComponent("Fixtures/library").path
        for args in [
            ["suggest", folder, "--peek=false"], ["suggest", folder, "--peek", "--explain=no"], ["status", "--json=yes"],
            ["watch", folder, "--videos=false"], ["serve", folder, "--no-index=1"], ["recent", folder, "--json=1"],
            ["inspect", "-r", folder, "--jsonl=yes"],
        ] {
            let r = try Photometa.run(args, environment: ["TZ": "UTC", "XDG_STATE_HOME": "/nonexistent"])
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("takes no value"), "\(args): \(r.stderr)")
        }
    }

    func testDurationsAreStrict() throws {
        let scratch = try TemporaryDirectory(prefix: "pm-opt")
        let state = scratch.path + "/state.sqlite3"
        let folder = Photometa.root.appendingPathComponent("Fixtures/library").path
        for bad in ["1m1m", "2M", "99999999999999999999s", "60", "s", "1s1h", "3651d", "-5s", "1.5"] {
            let r = try Photometa.run(["suggest", folder, "--within", bad, "--peek", "--no-index", "--state", state])
            XCTAssertEqual(r.status, 64, "--within \(bad): \(r.stderr)")
            XCTAssertTrue(
                r.stderr.contains(bad == "3651d" ? "is longer than the longest allowed" : "is not a duration"), r.stderr)
        }
        let waitZero = try Photometa.run(["suggest", folder, "--wait", "0", "--peek", "--no-index", "--state", state])
        XCTAssertTrue(waitZero.status == 0 || waitZero.status == 3, "--wait 0, the help's default: \(waitZero.stderr)")
        for good in ["90s", "2m", "1h30m", "1d12h", "500ms", "1.5s", "3650d"] {
            let r = try Photometa.run(["suggest", folder, "--within", good, "--peek", "--no-index", "--state", state])
            XCTAssertTrue(r.status == 0 || r.status == 3, "--within \(good): \(r.stderr)")
        }
    }
}
