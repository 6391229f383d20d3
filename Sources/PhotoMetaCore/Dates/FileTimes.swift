/// A file's times, as the file system reports them: instants.
public struct FileTimes: Sendable, Equatable {
    /// Birth time (statx STATX_BTIME), nil where the file system does not record it.
    public var birth: LocalDateTime?
    /// Modification time (statx STATX_MTIME).
    public var modification: LocalDateTime

    /// File times as instants (their UTC wall clocks).
    public init(birth: LocalDateTime?, modification: LocalDateTime) {
        self.birth = birth
        self.modification = modification
    }
}
