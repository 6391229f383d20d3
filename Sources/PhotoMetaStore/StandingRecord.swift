/// What the memory keeps of the offer standing: its file, its capture instant, and the file's
/// identity (`SuggestionMemory.standingOffer`, `StandingOffer`).
extension SuggestionMemory {
    /// A file's identity (`stat`'s device and inode): the same file after a rename.
    package struct FileIdentity: Sendable, Equatable {
        package var device: Int64
        package var inode: Int64
        /// Its size and modification time then (nil before schema 5): a rename keeps both; a new
        /// file given a deleted one's inode number has its own.
        package var size: Int64?
        package var mtimeNanoseconds: Int64?
        package init(device: Int64, inode: Int64, size: Int64? = nil, mtimeNanoseconds: Int64? = nil) {
            self.device = device
            self.inode = inode
            self.size = size
            self.mtimeNanoseconds = mtimeNanoseconds
        }
    }

    /// The standing offer as recorded: its file's canonical path then, its capture instant,
    /// and the file's identity (nil for offers recorded before schema 4).
    package struct StandingRecord: Sendable, Equatable {
        package var file: String
        package var instant: Double
        package var identity: FileIdentity?
        package init(file: String, instant: Double, identity: FileIdentity? = nil) {
            self.file = file
            self.instant = instant
            self.identity = identity
        }
    }
}
