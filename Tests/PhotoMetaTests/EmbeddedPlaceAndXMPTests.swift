import XCTest

@testable import PhotoMetaCore

/// Where movies and TIFFs keep what their usual places do not: a 3GPP `loci` box (ffmpeg's
/// remux of an Android clip), ffmpeg's `location` key, and XMP in a TIFF's tag 700, an MP4's
/// `uuid` box and a QuickTime movie's `udta/XMP_` (docs/dates.md, "Where rule 4 finds XMP").
final class EmbeddedPlaceAndXMPTests: XCTestCase {
    func asset(_ name: String) throws -> MediaAsset {
        MediaAsset.from(try TestPaths.bytes("../formats/\(name)"), path: name)
    }

    func testTheLociBoxGivesTheMoviesPlace() throws {
        let a = try asset("loci.3gp")
        XCTAssertEqual(a.kind, .video)
        // A 16.16 step is 1/65536 of a degree: the value written comes back within one.
        XCTAssertEqual(try XCTUnwrap(a.gps?.latitude), 35.6586, accuracy: 2e-5)
        XCTAssertEqual(try XCTUnwrap(a.gps?.longitude), 139.7454, accuracy: 2e-5)
        XCTAssertEqual(a.diagnostics, [])
    }

    /// [3GPP TS 26.244] name (UTF-8, or UTF-16 after FE FF), role, longitude, latitude.
    func testLociFields() throws {
        func body(name: [UInt8], lon: Double, lat: Double) -> [UInt8] {
            func fixed(_ v: Double) -> [UInt8] {
                let n = UInt32(bitPattern: Int32((v * 65536).rounded()))
                return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: n >> UInt32($0)) }
            }
            return [0, 0, 0, 0, 0x55, 0xC4] + name + [0] + fixed(lon) + fixed(lat) + fixed(0) + Array("earth".utf8) + [0, 0]
        }
        let utf8 = try XCTUnwrap(LocationInformation(body(name: Array("Tōkyō".utf8) + [0], lon: -0.1278, lat: 51.5074)))
        XCTAssertEqual(utf8.latitude, 51.5074, accuracy: 2e-5)
        XCTAssertEqual(utf8.longitude, -0.1278, accuracy: 2e-5)
        let utf16 = try XCTUnwrap(
            LocationInformation(body(name: [0xFE, 0xFF, 0, 0x41, 0, 0x42, 0, 0], lon: 151.2153, lat: -33.8568)))
        XCTAssertEqual(utf16.latitude, -33.8568, accuracy: 2e-5)
        XCTAssertEqual(utf16.longitude, 151.2153, accuracy: 2e-5)
        XCTAssertNil(LocationInformation(body(name: [0], lon: 10, lat: 95)), "latitude out of range")
        XCTAssertNil(LocationInformation(body(name: [0], lon: 0, lat: 0)), "no fix, written as zeros")
        XCTAssertNil(LocationInformation(Array(body(name: [0], lon: 10, lat: 20).prefix(12))), "cut before the latitude")
        XCTAssertNil(LocationInformation([0, 0, 0, 0, 0x55, 0xC4] + Array("no end".utf8)), "a name without its NUL")
        XCTAssertNil(LocationInformation([]))
    }

    /// A file's own XMP position comes after EXIF's and a movie's, before a sidecar's.
    func testThePositionInAFilesOwnXMP() throws {
        let a = try asset("xmp_place.jpg")
        XCTAssertEqual(try XCTUnwrap(a.gps?.latitude), 35.6586, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(a.gps?.longitude), 139.7454, accuracy: 1e-9)
        XCTAssertEqual(FieldPrecedence.location.firstIndex(of: .xmp), FieldPrecedence.location.firstIndex(of: .sidecar)! - 1)
    }

    /// [IPTC Photo Metadata 2019.1] A place the picture shows (`Iptc4xmpExt:LocationShown`)
    /// carries its own exif:GPSLatitude: never taken for where the picture was taken, whatever
    /// the prefix; a position outside it (or in `LocationCreated`) is.
    func testAPlaceShownIsNotWhereThePictureWasTaken() {
        func packet(_ body: String) -> [UInt8] {
            Array(
                """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"
                 xmlns:ext="http://iptc.org/std/Iptc4xmpExt/2008-02-29/">\(body)</rdf:Description></rdf:RDF></x:xmpmeta>
                """.utf8)
        }
        let shown = """
            <ext:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource">
            <exif:GPSLatitude>48,8.82N</exif:GPSLatitude><exif:GPSLongitude>17,5.88E</exif:GPSLongitude>
            </rdf:li></rdf:Bag></ext:LocationShown>
            """
        XCTAssertNil(XMPReader.read([packet(shown)]).location, "only a place shown")
        let taken = XMPReader.read([
            packet(shown + "<exif:GPSLatitude>35,39.516N</exif:GPSLatitude><exif:GPSLongitude>139,44.724E</exif:GPSLongitude>")
        ])
        XCTAssertEqual(try XCTUnwrap(taken.location?.latitude), 35.6586, accuracy: 1e-9)
        let created = XMPReader.read([packet(shown.replacingOccurrences(of: "LocationShown", with: "LocationCreated"))])
        XCTAssertEqual(try XCTUnwrap(created.location?.latitude), 48.147, accuracy: 1e-9)
    }

    func testXMPInATIFF() throws {
        let a = try asset("xmp.tif")
        XCTAssertEqual(a.captured?.source, .xmpDateTimeOriginal)
        XCTAssertEqual(a.captured?.rendered(in: utcZone).utc, "2019-09-09T00:09:09Z")
        XCTAssertEqual(a.make, "Plustek")
        XCTAssertEqual(a.model, "OpticFilm 8200i")
        XCTAssertEqual(a.width, 4)
    }

    func testXMPInAnMP4AndAQuickTimeMovie() throws {
        let mp4 = try asset("xmp.mp4")
        XCTAssertEqual(mp4.captured?.source, .xmpCreateDate)
        XCTAssertEqual(mp4.captured?.rendered(in: utcZone).utc, "2021-04-05T05:07:08Z")
        let mov = try asset("xmp.mov")
        XCTAssertEqual(mov.captured?.source, .xmpDateCreated)
        XCTAssertEqual(mov.captured?.rendered(in: utcZone).utc, "2020-02-03T09:05:06Z")
    }

    /// A fragmented MP4 says 0 in `mvhd` (not known yet when written) and its length in
    /// `mvex/mehd`; 0 is never reported as the length (a 0 s clip would pass for a Live
    /// Photo's short movie).
    func testAFragmentedMovieTakesItsLengthFromMehd() throws {
        XCTAssertEqual(try asset("fragmented.mp4").durationSeconds, 4.5)
        var bytes = try TestPaths.bytes("../formats/fragmented.mp4")
        let mehd = Array("mehd".utf8)
        let at = try XCTUnwrap((0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == mehd })
        bytes[at] = UInt8(ascii: "x")  // no longer a mehd: nothing says how long it is
        XCTAssertNil(MediaAsset.from(bytes, path: "fragmented.mp4").durationSeconds)
    }

    /// Android's muxer stamps `mvhd` when the recording stops: the clip's start is that less
    /// its duration, which agrees with the camera's name (`VID_20240101_130000`, local time in
    /// +01:00). Without Android's marks (the key, the handler names) the time is the start.
    func testAnAndroidMovieHeaderIsTheEndOfTheRecording() throws {
        let a = try asset("VID_20240101_130000.mp4")
        XCTAssertEqual(a.captured?.source, .quickTimeMovieHeader)
        XCTAssertEqual(a.captured?.rendered(in: utcZone).utc, "2024-01-01T12:00:00Z", "12:01:30 less 90 s")
        XCTAssertEqual(a.durationSeconds, 90)
        XCTAssertTrue(a.diagnostics.contains { $0.message.contains("written when an Android recording stops") })
        var bytes = try TestPaths.bytes("../formats/VID_20240101_130000.mp4")
        for mark in ["com.android.version", "VideoHandle", "SoundHandle"] {
            let m = Array(mark.utf8)
            let at = try XCTUnwrap((0...(bytes.count - m.count)).first { Array(bytes[$0..<$0 + m.count]) == m })
            bytes[at] = UInt8(ascii: "x")
        }
        let other = MediaAsset.from(bytes, path: "VID_20240101_130000.mp4")
        XCTAssertEqual(other.captured?.rendered(in: utcZone).utc, "2024-01-01T12:01:30Z", "another writer: the start")
        // One mark is enough: the handler names of an Android before the key (6.0).
        XCTAssertTrue(MovieWriter.isAndroidHandler([UInt8](repeating: 0, count: 24) + Array("SoundHandle\0".utf8)))
        XCTAssertFalse(MovieWriter.isAndroidHandler([UInt8](repeating: 0, count: 24) + Array("SoundHandler\0".utf8)))
        XCTAssertFalse(MovieWriter.isAndroidHandler([UInt8](repeating: 0, count: 24) + Array("SoundHandle".utf8)))
    }

    /// Sound only in a movie's container (a voice memo, an `.m4a` song): no video, so never
    /// listed by `recent --kind video` nor offered with `--videos`.
    func testAMovieContainerWithSoundOnlyIsNoVideo() throws {
        let a = try asset("voice.m4a")
        XCTAssertEqual(a.format, .mp4)
        XCTAssertEqual(a.kind, .unknown)
        XCTAssertEqual(a.durationSeconds, 2)
        XCTAssertEqual(try asset("VID_20240101_130000.mp4").kind, .video, "sound and video: a video")
    }
}
