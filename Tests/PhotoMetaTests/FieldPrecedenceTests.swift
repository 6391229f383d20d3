import XCTest

@testable import PhotoMetaCore

/// The precedence table for fields other than the date: each field from each source, in order.
final class FieldPrecedenceTests: XCTestCase {
    func decided(_ evidence: [EvidenceSource: FieldEvidence], format: MediaFormat = .mov) -> MediaAsset {
        var asset = MediaAsset(path: "x", format: format)
        FieldPrecedence.decide(evidence, into: &asset)
        return asset
    }

    /// Make and model: EXIF, then Apple's QuickTime keys, then XMP, then `udta` ©mak/©mod; each
    /// source wins once every source before it is removed. AVCHD's MDPM states a make last.
    func testMakeAndModelFromEachSourceInOrder() {
        var evidence: [EvidenceSource: FieldEvidence] = [:]
        for source in EvidenceSource.allCases {
            evidence[source] = FieldEvidence(make: "make \(source)", model: "model \(source)")
        }
        for source in [EvidenceSource.exif, .quickTimeKeys, .xmp, .quickTimeUserData] {
            let asset = decided(evidence)
            XCTAssertEqual(asset.make, "make \(source)")
            XCTAssertEqual(asset.model, "model \(source)")
            evidence[source] = nil
        }
        XCTAssertEqual(decided(evidence).make, "make h264UserData")
        XCTAssertEqual(decided(evidence).model, "model h264UserData")
        evidence[.h264UserData] = nil
        let none = decided(evidence)
        XCTAssertNil(none.make, "the item list, movie header and AVI header never state a make")
        XCTAssertNil(none.model)
    }

    /// A field stated by no earlier source falls through to the next: the model from XMP while
    /// EXIF gives the make.
    func testEachFieldIsDecidedApart() {
        let asset = decided([.exif: FieldEvidence(make: "Canon"), .xmp: FieldEvidence(model: "EOS R5")])
        XCTAssertEqual(asset.make, "Canon")
        XCTAssertEqual(asset.model, "EOS R5")
    }

    func testLocationFromEXIFThenEachMovieAtomThenXMPThenASidecar() {
        var evidence: [EvidenceSource: FieldEvidence] = [:]
        let order: [EvidenceSource] = [.exif, .quickTimeKeys, .quickTimeUserData, .quickTimeItemList, .xmp, .sidecar]
        for (i, source) in order.enumerated() {
            evidence[source] = FieldEvidence(location: MediaAsset.GPS(latitude: Double(i), longitude: 0))
        }
        evidence[.matroskaInfo] = FieldEvidence(location: MediaAsset.GPS(latitude: 99, longitude: 0))
        for (i, source) in order.enumerated() {
            XCTAssertEqual(decided(evidence).gps?.latitude, Double(i), "\(source)")
            evidence[source] = nil
        }
        XCTAssertNil(decided(evidence).gps, "a source the list does not name is never used")
    }

    func testSoftwareAndContentIdentifierFromEXIFThenQuickTimeKeys() {
        var evidence: [EvidenceSource: FieldEvidence] = [
            .exif: FieldEvidence(software: "17.4", contentIdentifier: "A"),
            .quickTimeKeys: FieldEvidence(software: "17.5", contentIdentifier: "B"),
            .quickTimeUserData: FieldEvidence(software: "udta", contentIdentifier: "C"),
        ]
        XCTAssertEqual(decided(evidence).software, "17.4")
        XCTAssertEqual(decided(evidence).contentIdentifier, "A")
        evidence[.exif] = nil
        XCTAssertEqual(decided(evidence).software, "17.5")
        XCTAssertEqual(decided(evidence).contentIdentifier, "B")
        evidence[.quickTimeKeys] = nil
        XCTAssertNil(decided(evidence).software, "udta is not a source of software")
        XCTAssertNil(decided(evidence).contentIdentifier)
    }

    /// Duration: the movie header, then AVI's main header, and only for movies (a CR3 is a
    /// still in a movie container).
    func testDurationOnlyForMovies() {
        let evidence: [EvidenceSource: FieldEvidence] = [
            .quickTimeMovieHeader: FieldEvidence(durationSeconds: 3), .riffMainHeader: FieldEvidence(durationSeconds: 4),
        ]
        XCTAssertEqual(decided(evidence).durationSeconds, 3)
        XCTAssertEqual(decided([.riffMainHeader: FieldEvidence(durationSeconds: 4)], format: .avi).durationSeconds, 4)
        XCTAssertNil(decided(evidence, format: .cr3).durationSeconds)
    }

    /// Orientation from EXIF then XMP; the size from EXIF only when the container gave none,
    /// and then both dimensions or neither.
    func testOrientationAndSize() {
        var exif = FieldEvidence(orientation: 6)
        exif.width = 4000
        exif.height = 3000
        let evidence: [EvidenceSource: FieldEvidence] = [.exif: exif, .xmp: FieldEvidence(orientation: 8)]
        let asset = decided(evidence, format: .jpeg)
        XCTAssertEqual(asset.orientation, 6)
        XCTAssertEqual(asset.width, 4000)
        XCTAssertEqual(asset.height, 3000)
        XCTAssertEqual(decided([.xmp: FieldEvidence(orientation: 8)]).orientation, 8)
        var container = MediaAsset(path: "x", format: .jpeg)
        container.width = 640
        container.height = 480
        FieldPrecedence.decide(evidence, into: &container)
        XCTAssertEqual(container.width, 640, "the container's own size comes first")
        exif.height = nil
        XCTAssertNil(decided([.exif: exif], format: .jpeg).width, "a width without a height is not a size")
    }

    /// The reader hands every movie atom over with its place, and the pipeline decides: a
    /// movie whose only make is in `udta` reports it.
    func testInspectorUsesTheTableForMovies() throws {
        var atoms = QuickTimeReader.Atoms()
        atoms.keys["udta.mak"] = "Sony"
        atoms.keys["ilst.?xyz"] = "+48.8583+002.2945/"
        var found = ContainerFindings(format: .mp4)
        QuickTimeReader.hand(atoms, into: &found)
        var asset = MediaAsset(path: "x.mp4", format: .mp4)
        FieldPrecedence.decide(found.evidence, into: &asset)
        XCTAssertEqual(asset.make, "Sony")
        XCTAssertEqual(try XCTUnwrap(asset.gps?.latitude), 48.8583, accuracy: 1e-9)
    }
}
