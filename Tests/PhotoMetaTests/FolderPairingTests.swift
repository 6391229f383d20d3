import XCTest

@testable import PhotoMetaCore

/// `FolderPairing` hands a folder's candidates on as they arrive in parts, holding back only
/// what may be half of a Live Photo: whatever the parts and their order, the candidates handed
/// on are every candidate once, paired exactly as the rule pairs the whole folder.
final class FolderPairingTests: XCTestCase {
    private typealias Positioned = (position: Int, candidate: SuggestionCandidate)

    /// Feeds `folder` to a pairing in the parts `cuts` makes, `lastMovies` from the part that
    /// holds the last movie name on (as `FolderScan` orders the files it parses); returns what
    /// came back, each part's ready list, and the final list.
    private func feed(_ folder: [Positioned], cuts: [Int], holdsAll: Bool = false)
        -> (all: [SuggestionCandidate], ready: [[SuggestionCandidate]], last: [SuggestionCandidate])
    {
        let movieNames = folder.map(\.candidate.path).filter(LivePhotoPairing.isMovieName)
        let lastMovie = folder.lastIndex { LivePhotoPairing.isMovieName($0.candidate.path) } ?? -1
        var pairing = FolderPairing(movieNames: movieNames, holdsAll: holdsAll)
        var ready: [[SuggestionCandidate]] = []
        var start = 0
        for end in cuts + [folder.count] where end >= start {
            let part = folder[start..<end]
            ready.append(pairing.take(part.map(\.candidate), positions: part.map(\.position), lastMovies: end > lastMovie))
            start = end
        }
        let last = pairing.finish()
        return (ready.flatMap { $0 } + last, ready, last)
    }

    func testPartsPairAsTheWholeFolderDoes() {
        var rng = SplitMix(seed: 24)
        let names = ["IMG_1", "IMG_2", "IMG_3", "a", "b.c", "x", "é", "e\u{301}"]
        let extensions = ["HEIC", "heic", "JPG", "jpeg", "MOV", "mov", "Mov", "png", "mp4", ""]
        for round in 0..<400 {
            var byPath: [String: SuggestionCandidate] = [:]
            for _ in 0..<Int.random(in: 0...16, using: &rng) {
                let ext = extensions.randomElement(using: &rng) ?? ""
                let path = "d/" + (names.randomElement(using: &rng) ?? "x") + (ext.isEmpty ? "" : "." + ext)
                let isMovie = ["MOV", "mov", "Mov", "mp4"].contains(ext)
                var c = Scenario.candidate(
                    path, age: 1, kind: isMovie ? .video : [.photo, .screenshot, .gif].randomElement(using: &rng) ?? .photo,
                    format: isMovie ? .mov : .jpeg, error: Int.random(in: 0..<10, using: &rng) == 0 ? .empty : nil)
                c.captured = LivePhotoPairingTests.at(Int64.random(in: 0...8, using: &rng))
                c.contentIdentifier = [nil, nil, "A", "B"].randomElement(using: &rng) ?? nil
                if isMovie { c.durationSeconds = [2, 3, 9].randomElement(using: &rng) }
                byPath[path] = c
            }
            let list = byPath.values.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
            var expected = list
            LivePhotoPairing.apply(&expected)
            // Movie names first (as `FolderScan` parses them), the rest in a random order.
            let positioned = list.enumerated().map { Positioned($0, $1) }
            let movies = positioned.filter { LivePhotoPairing.isMovieName($0.candidate.path) }.shuffled(using: &rng)
            let folder = movies + positioned.filter { !LivePhotoPairing.isMovieName($0.candidate.path) }.shuffled(using: &rng)
            let cuts = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int.random(in: 0...folder.count, using: &rng) }
            for holdsAll in [false, true] {
                let got = feed(folder, cuts: cuts.sorted(), holdsAll: holdsAll)
                let handed = got.all.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
                XCTAssertEqual(handed.map(\.path), expected.map(\.path), "round \(round): every candidate once")
                XCTAssertEqual(handed.map(\.livePhotoPair), expected.map(\.livePhotoPair), "round \(round) \(list.map(\.path))")
                XCTAssertEqual(handed.map(\.livePhotoEvidence), expected.map(\.livePhotoEvidence), "round \(round)")
                XCTAssertEqual(handed.map(\.kind), expected.map(\.kind), "round \(round)")
                if holdsAll {
                    XCTAssertEqual(got.last.map(\.path), expected.map(\.path), "whole, in the folder's order")
                }
                // Nothing paired is handed on before the end; nothing is held without a movie name.
                for part in got.ready { XCTAssertTrue(part.allSatisfy { $0.livePhotoPair == nil }) }
                if movies.isEmpty && !holdsAll { XCTAssertEqual(got.last.count, 0, "round \(round)") }
            }
        }
    }

    /// The in-place reorder of a folder held whole: any permutation comes out in position order.
    func testReorderPutsItemsInTheirPositionsInPlace() {
        var rng = SplitMix(seed: 7)
        for n in [0, 1, 2, 3, 10, 257] {
            let positions = (0..<n).map { $0 * 3 }.shuffled(using: &rng)
            var items = positions.map { "item \($0)" }
            FolderPairing.reorder(&items, by: positions)
            XCTAssertEqual(items, positions.sorted().map { "item \($0)" }, "n \(n)")
        }
    }

    /// A phone's camera folder without a `.mov`: each part is handed back whole at once, and the
    /// folder's count and span are its candidates'.
    func testAFolderWithoutAMovieNameHoldsNothing() {
        let list = (0..<600).map { i -> Positioned in
            var c = Scenario.candidate("DCIM/Camera/IMG_\(i).jpg", age: Double(i))
            c.contentIdentifier = "ID\(i)"  // an identifier alone pairs with no movie
            return (i, c)
        }
        var pairing = FolderPairing(movieNames: [], holdsAll: false)
        for start in stride(from: 0, to: 600, by: 256) {
            let part = Array(list[start..<min(600, start + 256)])
            let ready = pairing.take(part.map(\.candidate), positions: part.map(\.position), lastMovies: true)
            XCTAssertEqual(ready.count, part.count)
        }
        XCTAssertEqual(pairing.finish().count, 0)
        XCTAssertEqual(pairing.count, 600)
        XCTAssertEqual(pairing.span, RecencyRule.span(of: list.map(\.candidate)))
    }

    /// Until the folder's movies are parsed, a still is held on the listing's word (its base
    /// name is a `.mov` name's, or it carries an identifier); once they are, only the stills a
    /// movie reaches stay held.
    func testStillsHeldOnTheListingsWordGoOnceTheMoviesAreKnown() {
        var still = Scenario.candidate("d/IMG_1.HEIC", age: 1)
        still.contentIdentifier = "A"
        var other = Scenario.candidate("d/IMG_2.HEIC", age: 1)
        other.contentIdentifier = "B"
        let plain = Scenario.candidate("d/IMG_3.HEIC", age: 1)
        var movie = Scenario.candidate("d/clip.MOV", age: 1, kind: .video, format: .mov)
        movie.contentIdentifier = "A"
        movie.durationSeconds = 3
        var pairing = FolderPairing(movieNames: ["d/clip.MOV"], holdsAll: false)
        XCTAssertEqual(
            pairing.take([still, other, plain], positions: [0, 1, 2], lastMovies: false).map(\.path), ["d/IMG_3.HEIC"])
        XCTAssertEqual(pairing.take([movie], positions: [3], lastMovies: true).map(\.path), ["d/IMG_2.HEIC"])
        let last = pairing.finish()
        XCTAssertEqual(last.map(\.path), ["d/IMG_1.HEIC", "d/clip.MOV"])
        XCTAssertEqual(last.first?.livePhotoPair, "d/clip.MOV")
        XCTAssertEqual(last.first?.kind, .livePhoto)
    }
}
