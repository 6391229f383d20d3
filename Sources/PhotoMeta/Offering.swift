import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// The offer path that `suggest` and `watch` share: read what the profile was offered or
/// dismissed, decide with the rules at an instant, then offer: read the memory again under its
/// write lock, hand the offer on, record it, in one step (`offer`). One memory per profile,
/// across folders (docs/suggest.md). An offer is recorded, then handed on; one that could
/// not be handed on (stdout failed) is taken back: a client that saw it finds the memory
/// updated, and one nobody saw is made again.
package struct Offering {
    /// The profile whose memory this is.
    package let profile: String
    private let memory: SuggestionMemory

    /// Whether the memory's file is still the one its path leads to (not deleted or replaced).
    package var isStillAtItsPath: Bool { memory.isStillAtItsPath }

    /// Opens the memory at `statePath`; `readOnly` creates and writes nothing (`--peek`).
    package init(statePath: String, profile: String, readOnly: Bool = false) throws(StateFileError) {
        memory = try SuggestionMemory(path: statePath, readOnly: readOnly)
        self.profile = profile
    }

    /// What the rules need at `now` (`realNow`: the real clock, for completeness): the
    /// settings, the remembered instant and the standing offer's file, read from the memory now.
    package func context(settings: SuggestionSettings, now: Double, realNow: Double) throws(StateFileError)
        -> SuggestionContext
    {
        var context = SuggestionContext(
            now: now, realNow: realNow, remembered: try memory.remembered(profile: profile), settings: settings)
        let standing = try memory.standingOffer(profile: profile)
        if let id = standing?.identity, let size = id.size, let mtime = id.mtimeNanoseconds {
            context.offeredFile = SuggestionContext.OfferedFile(size: size, mtimeNanoseconds: mtime)
        }
        if let standing, RawDevelopedPair.rawKey(standing.file) != nil {
            context.offeredRaw = SuggestionContext.OfferedRaw(
                name: FolderSnapshot.lastComponent(standing.file), instant: standing.instant)
        }
        return context
    }

    /// Offers the decision's suggestion once among every process sharing the memory: under
    /// the memory's write lock the remembered instant is read again; if the offer is still
    /// news it is recorded, then handed on (`deliver`: `suggest` prints there, `watch`
    /// delivers its event), and taken back when `deliver` says it reached no one. Returns the decision as it stands (the
    /// suggestion turned down by the memory when another asker was first) and whether it was
    /// recorded. Racing askers get the offer exactly once.
    package func offer(_ decision: SuggestionDecision, now: Double, deliver: () -> Bool) throws(StateFileError)
        -> (decision: SuggestionDecision, recorded: Bool)
    {
        guard let s = decision.suggestion, let instant = decision.instant else { return (decision, false) }
        // The file by its canonical path, so the standing offer is found whatever folder name
        // the next asker uses.
        let file = try? FileSystem.canonicalPath(s.path)
        // And its identity, so a rename is followed even when no watch saw it (`StandingOffer`).
        let identity = Offering.identity(of: s.path)
        // The picture of a raw offered takes the raw's place (`MemoryRule.developsOfferedRaw`):
        // written over it if the raw is still the offer when the lock is held.
        let standing = try memory.standingOffer(profile: profile)
        let replacing = standing.flatMap { r in
            RawDevelopedPair.rawKey(r.file).flatMap { $0 == RawDevelopedPair.developedKey(s.path) ? r.file : nil }
        }
        switch try memory.offerOnce(
            profile: profile, instant: instant, offered: s.path, file: file, identity: identity, replacing: replacing, now: now,
            deliver: deliver)
        {
        case .recorded: return (decision, true)
        case .notDelivered: return (decision, false)
        case .alreadySeen(let remembered): return (decision.seenMeanwhile(remembered: remembered), false)
        }
    }

    /// The profile's standing offer (`SuggestionMemory.standingOffer`): its file's canonical
    /// path, capture instant and identity.
    package func standing() throws(StateFileError) -> SuggestionMemory.StandingRecord? {
        try memory.standingOffer(profile: profile)
    }

    /// The profile's row as it is (`SuggestionMemory.offerRecord`).
    package func record() throws(StateFileError) -> (file: String?, instant: Double?, remembered: Double)? {
        try memory.offerRecord(profile: profile)
    }

    /// The standing offer follows its file's rename (`SuggestionMemory.follow`), with the
    /// file's identity as it is now (a rename that also set its time is still found by it).
    package func follow(from file: String, to: String, now: Double) throws(StateFileError) {
        try memory.follow(profile: profile, from: file, to: to, now: now, identity: Offering.identity(of: to))
    }

    /// The file's identity for the memory: device, inode, size, modification time.
    static func identity(of path: String) -> SuggestionMemory.FileIdentity? {
        (try? FileFacts.of(path)).map {
            SuggestionMemory.FileIdentity(
                device: $0.key.device, inode: $0.key.inode, size: $0.key.size, mtimeNanoseconds: $0.key.mtimeNanoseconds)
        }
    }
}
