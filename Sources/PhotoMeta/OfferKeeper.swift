import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem
import Synchronization

/// The offer standing in a watch, and when it stops standing (the `withdrawn` event, docs/watch.md).
/// Shared by the watchers of one `DirectoryWatcher.Options` (one per folder), which tell it what
/// they saw: it says once, whichever watcher saw it first. What it reads from the memory and the
/// clock comes in as values (`now`), so a test moves time instead of waiting.
///
/// The offer stands until its file is deleted or moved out (`deleted`), renamed inside the
/// folders (`moved`: it follows, and the memory with it, so `suggest --standing` finds it at
/// its new path), the memory moved past it (`dismissed`, by any process), a newer offer was
/// recorded (`superseded`, by any process) or its capture left the `--within` window
/// (`expired`, at that moment: the watcher wakes for it, `nextTick`).
package final class OfferKeeper: Sendable {
    /// The offer as shown: its path as reported, its file's canonical path, its capture instant.
    package struct Standing: Sendable, Equatable {
        package var path: String
        package var file: String
        package var instant: Double
    }

    private struct State {
        var standing: Standing?
        /// The memory's standing offer was looked for at the start.
        var loaded = false
        var lastMemoryCheck = -Double.infinity
        /// The watchers' folders, as each announced itself, and what their `--exclude` leaves out.
        var roots: [FolderScan.Root] = []
        var exclude: [PathGlob] = []
    }
    private let state = Mutex(State())
    /// How often the memory is read for another process's dismissal or offer (seconds).
    package static let memoryInterval = 0.25

    package init() {}

    /// The offer standing now, if any.
    package var standing: Standing? { state.withLock { $0.standing } }

    /// At a watcher's start: the memory's standing offer when its file lies in this watcher's
    /// folder (`root`: canonical, and as shown) outside what `exclude` leaves out, and it still
    /// stands (`StandingOffer.find`); reported once among the watchers.
    package func announce(
        _ root: FolderScan.Root, exclude: [PathGlob], offering: Offering, settings: SuggestionSettings, now: Double
    ) -> WatchEvent? {
        state.withLock { s -> WatchEvent? in
            if !s.roots.contains(where: { PathKey($0.path) == PathKey(root.path) }) { s.roots.append(root) }
            s.exclude = exclude
            guard !s.loaded || s.standing == nil else { return nil }
            s.loaded = true
            guard let offer = try? offering.standing(),
                let found = StandingOffer.find(offer, roots: [root], exclude: exclude, settings: settings, now: now)
            else { return nil }
            // Renamed while no watch ran: the memory follows it now.
            if found.file != offer.file { try? offering.follow(from: offer.file, to: found.file, now: now) }
            s.standing = Standing(path: found.candidate.path, file: found.file, instant: offer.instant)
            return .standing(found.candidate, ageSeconds: now - offer.instant)
        }
    }

    /// A new offer was recorded (`file`: its canonical path): the one before is superseded.
    package func offered(_ s: SuggestionCandidate, file: String?, instant: Double) -> WatchEvent? {
        state.withLock { st -> WatchEvent? in
            let before = st.standing
            st.loaded = true
            st.standing = Standing(path: s.path, file: file ?? s.path, instant: instant)
            guard let before, before.path != s.path else { return nil }
            return .withdrawn(OfferWithdrawal(path: before.path, reason: .superseded))
        }
    }

    /// A batch of changes: the offer's file went (`deleted`) or was renamed (`moved`; the
    /// memory follows). `canonical` turns a reported path into the file's canonical path.
    /// Each watcher sees its own folder only: a move from one folder of the watch to another
    /// is a removal in one and an insertion in the other, so a removal with several folders
    /// looks for the file by its identity in all of them (`StandingOffer.find`, as `suggest
    /// --standing` does) before it calls the offer deleted.
    package func changed(
        _ c: ChangeSet, offering: Offering, settings: SuggestionSettings?, canonical: (String) -> String, now: Double
    ) -> WatchEvent? {
        state.withLock { st -> WatchEvent? in
            guard let s = st.standing else { return nil }
            // Renamed over a name that was there (a sync tool's atomic replace): not a move but
            // a change of that name, found by the offer's identity among the batch's files.
            let record = c.removed.contains(s.path) || c.changed.contains { $0.path == s.path } ? try? offering.standing() : nil
            let identity = record?.file == s.file ? record?.identity : nil
            let replacing = identity.flatMap { id in
                c.changed.first { $0.path != s.path && OfferKeeper.isFile($0.path, id) }.map {
                    ChangeSet.Move(from: s.path, to: $0)
                }
            }
            if let m = c.moved.first(where: { $0.from == s.path }) ?? replacing {
                let to = canonical(m.to.path)
                try? offering.follow(from: s.file, to: to, now: now)
                st.standing = Standing(path: m.to.path, file: to, instant: s.instant)
                return .withdrawn(OfferWithdrawal(path: s.path, reason: .moved, to: m.to.path))
            }
            // Its name taken by another file, of another capture (one renamed over it; an editor's
            // save of the same photo keeps the instant): the offer went.
            if let id = identity, let there = c.changed.first(where: { $0.path == s.path }), !OfferKeeper.isFile(s.path, id),
                let zone = settings?.zone,
                there.asset.captured.map({ abs($0.epochSeconds(assuming: zone) - s.instant) < 0.001 }) != true
            {
                st.standing = nil
                return .withdrawn(OfferWithdrawal(path: s.path, reason: .deleted))
            }
            guard c.removed.contains(s.path) else { return nil }
            // Renamed and given another modification time in one batch (not paired as a
            // rename): the same file, by device, inode and size. (Its instant may have moved by a
            // fraction of a second: a name's date takes its sub-second from the file times.)
            if let record, record.file == s.file, let id = record.identity,
                let to = c.inserted.first(where: { f in
                    (try? FileFacts.of(f.path)).map { facts in
                        facts.device == id.device && facts.inode == id.inode && (id.size.map { $0 == facts.size } ?? true)
                    } == true
                })
            {
                let file = canonical(to.path)
                try? offering.follow(from: s.file, to: file, now: now)
                st.standing = Standing(path: to.path, file: file, instant: s.instant)
                return .withdrawn(OfferWithdrawal(path: s.path, reason: .moved, to: to.path))
            }
            // One folder: a removal from it is a removal from the watch (no walk to look).
            return OfferKeeper.wentAway(s, &st, search: st.roots.count > 1, offering: offering, settings: settings, now: now)
        }
    }

    /// A watcher's folder (canonical) is gone (deleted, moved away, unmounted) while the others
    /// are still watched: an offer standing in it went with it, moved if another folder of the
    /// watch now holds its file (by identity), else deleted.
    package func folderGone(_ folder: String, offering: Offering?, settings: SuggestionSettings?, now: Double) -> WatchEvent? {
        state.withLock { st -> WatchEvent? in
            st.roots.removeAll { PathKey($0.path) == PathKey(folder) }
            guard let s = st.standing, PathKey(s.file).isWithin(folder) else { return nil }
            guard let offering else {
                st.standing = nil
                return .withdrawn(OfferWithdrawal(path: s.path, reason: .deleted))
            }
            return OfferKeeper.wentAway(s, &st, search: !st.roots.isEmpty, offering: offering, settings: settings, now: now)
        }
    }

    /// The offer's file is no longer where it stood: found by its identity in the folders of
    /// the watch (a move between two of them, each watcher seeing only its half), `moved`, the
    /// memory following; else `deleted`.
    private static func wentAway(
        _ s: Standing, _ st: inout State, search: Bool, offering: Offering, settings: SuggestionSettings?, now: Double
    ) -> WatchEvent {
        if search, let settings, let offer = try? offering.standing(), offer.file == s.file,
            let found = StandingOffer.find(offer, roots: st.roots, exclude: st.exclude, settings: settings, now: now),
            found.file != s.file
        {
            try? offering.follow(from: s.file, to: found.file, now: now)
            st.standing = Standing(path: found.candidate.path, file: found.file, instant: s.instant)
            return .withdrawn(OfferWithdrawal(path: s.path, reason: .moved, to: found.candidate.path))
        }
        st.standing = nil
        return .withdrawn(OfferWithdrawal(path: s.path, reason: .deleted))
    }

    /// The file at `path` is the one with `identity`: its device and inode, and its size and
    /// modification time when recorded (a file system gives a deleted file's inode number to
    /// the next file made, and a rename keeps all four).
    private static func isFile(_ path: String, _ identity: SuggestionMemory.FileIdentity) -> Bool {
        guard let key = (try? FileFacts.of(path))?.key else { return false }
        return key.device == identity.device && key.inode == identity.inode && (identity.size ?? key.size) == key.size
            && (identity.mtimeNanoseconds ?? key.mtimeNanoseconds) == key.mtimeNanoseconds
    }

    /// When `tick` may next have something to say: the standing offer's capture leaving the
    /// `within` window, or the next read of the memory; nil with no offer standing (a watch
    /// that waits with no timeout then wakes for nothing).
    package func nextTick(within: Double) -> Double? {
        state.withLock { st -> Double? in
            guard let s = st.standing else { return nil }
            return min(s.instant + within, st.lastMemoryCheck + OfferKeeper.memoryInterval)
        }
    }

    /// Time passed: the window closed (`expired`), or, read from the memory at most every
    /// `memoryInterval`, another process dismissed (`dismissed`) or offered something newer
    /// (`superseded`).
    package func tick(offering: Offering, within: Double, now: Double) -> WatchEvent? {
        state.withLock { st -> WatchEvent? in
            guard let s = st.standing else { return nil }
            if now - s.instant > within {
                st.standing = nil
                return .withdrawn(OfferWithdrawal(path: s.path, reason: .expired))
            }
            guard now - st.lastMemoryCheck >= OfferKeeper.memoryInterval else { return nil }
            st.lastMemoryCheck = now
            let found: (file: String?, instant: Double?, remembered: Double)?
            do throws(StateFileError) {
                found = try offering.record()
            } catch {
                return nil  // a memory that cannot be read now says nothing: the next look decides
            }
            // No row: `forget` cleared the profile's memory.
            guard let record = found else {
                st.standing = nil
                return .withdrawn(OfferWithdrawal(path: s.path, reason: .dismissed))
            }
            if let instant = record.instant, record.file != s.file || instant != s.instant {
                st.standing = nil
                return .withdrawn(OfferWithdrawal(path: s.path, reason: .superseded))
            }
            guard record.remembered > s.instant else { return nil }
            st.standing = nil
            return .withdrawn(OfferWithdrawal(path: s.path, reason: .dismissed))
        }
    }
}
