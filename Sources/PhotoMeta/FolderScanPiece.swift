import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

extension FolderScan {
    /// A part of a folder's work: its index rows (the first piece) and the files to parse at
    /// `range` of its `toParse`.
    struct Piece {
        let prepared: Prepared
        let range: Range<Int>
        let number: Int  // among its folder's pieces
        let isLast: Bool
        var job: ParseJob?

        /// A folder's pieces: one when nothing is new or it was passed over.
        static func pieces(of p: Prepared) -> [Piece] {
            let n = p.toParse.count
            let count = max(1, (n + FolderScan.pieceLength - 1) / FolderScan.pieceLength)
            return (0..<count).map { i in
                let range = (i * FolderScan.pieceLength)..<min(n, (i + 1) * FolderScan.pieceLength)
                return Piece(prepared: p, range: range.isEmpty ? 0..<0 : range, number: i, isLast: i == count - 1)
            }
        }

        /// The piece's parse, started (nil when it has nothing to parse).
        func startParse() -> ParseJob? {
            range.isEmpty ? nil : ParseJob(prepared.folder, prepared.toParse[range])
        }
    }

    /// A folder matched with its index rows, before its new files are parsed. A class: its
    /// pieces share it, and the first hands its index rows on without a copy.
    final class Prepared {
        let (folder, keys, digest, stored): (TreeWalker.Folder, SidecarKeys, FolderDigest, AssetIndex.FolderSummary?)
        init(folder: TreeWalker.Folder, keys: SidecarKeys, digest: FolderDigest, stored: AssetIndex.FolderSummary?) {
            (self.folder, self.keys, self.digest, self.stored) = (folder, keys, digest, stored)
        }
        /// The positions in `folder.files` of the files considered (temporary names left out).
        var considered: [Int] = []
        /// Set when the folder is passed over (see `run`): its number of candidates.
        var passedOver: Int?
        /// Candidates from the index, with their positions.
        var found: [SuggestionCandidate] = []
        var foundPositions: [Int] = []
        /// Positions of the files to parse (new or changed), those a Live Photo movie's name
        /// first (`moviesToParse` of them): the pairing knows the folder's movies early.
        var toParse: [Int] = []
        var moviesToParse = 0
        /// Positions of the files considered whose names a movie may have.
        var movieNames: [Int] = []
        /// The shots (`RawDevelopedPair` keys) of the folder's developed pictures, made only for
        /// a folder that holds raws: a phone's folder of JPEGs pays one look at each name's
        /// extension. Asked once, when the folder's first piece is handed on.
        var developedShots: Set<String> {
            let files = folder.files
            guard considered.contains(where: { RawDevelopedPair.isRawName(files[$0].path) }) else { return [] }
            return Set(considered.compactMap { RawDevelopedPair.developedKey(files[$0].path) })
        }
        /// Paths of index rows whose files are gone.
        var gone: [String] = []
    }
}
