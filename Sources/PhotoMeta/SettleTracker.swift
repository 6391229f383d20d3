import PhotoMetaCore
import PhotoMetaSystem

/// The watcher's bookkeeping as a value: which files of the tree were reported, which are seen
/// but not yet complete, and what a look at the tree changed. It reads no clock and no file:
/// the tree's keys, the inotify events and `now` come in as values, so its rules are tested by
/// moving time in a test, not by waiting for it.
///
/// A file is complete once it was closed (or moved in) after its last write, or once it was
/// unchanged between two looks and its modification time is `settleTime` old; never while it is
/// empty (a browser creates the file empty and renames its download over it later).
package struct SettleTracker: Sendable {
    /// What a look decided.
    package struct Settled: Sendable, Equatable {
        /// Complete files to report (relative paths), in path order; `inserted` false: changed.
        package var ready: [(path: String, inserted: Bool)] = []
        /// Reported files that are gone (relative paths), in path order.
        package var removed: [String] = []
        /// Reported files renamed within the tree (relative paths): one that went and one that
        /// came in the same look, with the same identity and content (device, inode, size,
        /// mtime): what `rename(2)` leaves. Neither half is in `removed` or `ready`.
        package var moved: [(from: String, to: String)] = []

        /// The same, cut in parts of at most `size` files to inspect (ready files, then
        /// renames; removals in the first part); an empty batch is one empty part.
        package func chunked(_ size: Int) -> [Settled] {
            guard ready.count + moved.count > size, size > 0 else { return [self] }
            var parts: [Settled] = []
            var start = 0
            while start < ready.count {
                var part = Settled()
                part.ready = Array(ready[start..<min(start + size, ready.count)])
                parts.append(part)
                start += size
            }
            start = 0
            while start < moved.count {
                var part = Settled()
                part.moved = Array(moved[start..<min(start + size, moved.count)])
                parts.append(part)
                start += size
            }
            parts[0].removed = removed
            return parts
        }

        /// The files that came, went or were renamed (both names of a rename).
        package var arrivedOrGone: [String] {
            ready.filter(\.inserted).map(\.path) + removed + moved.flatMap { [$0.from, $0.to] }
        }

        /// Adds `files`, whose reports changed though their own files did not, as changed,
        /// unless already listed.
        package mutating func addChanged(_ files: [String]) {
            guard !files.isEmpty else { return }
            var listed = Set(ready.map(\.path)).union(removed).union(moved.map(\.to))
            for f in files where listed.insert(f).inserted { ready.append((f, false)) }
        }

        package static func == (a: Settled, b: Settled) -> Bool {
            a.removed == b.removed && a.ready.map(\.path) == b.ready.map(\.path)
                && a.ready.map(\.inserted) == b.ready.map(\.inserted) && a.moved.map(\.from) == b.moved.map(\.from)
                && a.moved.map(\.to) == b.moved.map(\.to)
        }
    }

    /// A file unchanged for this long (seconds) counts as complete even without a close event.
    package let settleTime: Double
    /// What was reported (or there at the start): relative path → its key's `contentDigest`,
    /// all this needs of a reported file (8 bytes, not a key's 40: the whole tree lives here,
    /// beside the snapshot's keys). Sharded: a burst grows it by tens of thousands of entries
    /// (`ShardedDictionary`).
    private var reported: ShardedDictionary<String, UInt64>
    /// Seen but not yet complete: relative path → key at the last look. Sharded: a folder of
    /// 50,000 files moved in waits here for the settle time.
    private(set) var pending = ShardedDictionary<String, FileKey>()
    /// Files inspected and found not to be media: never reported, nor their removal.
    private var notMedia: Set<String> = []
    /// Sequence number of the last write / close-after-write (or move in) event per file.
    /// Events are ordered by this counter, not the clock: a close and the next write can
    /// arrive in one batch.
    private var modifiedAt: [String: Int] = [:]
    private var closedAt: [String: Int] = [:]
    private var sequence = 0

    /// `initial`: the tree at the start (the "before" state, never reported).
    package init(initial: [String: FileKey], settleTime: Double) {
        reported = ShardedDictionary()
        for (path, key) in initial { reported[path] = key.contentDigest }
        self.settleTime = settleTime
    }

    /// An inotify event on a file: `written` for a write or a creation, `closed` for a close
    /// after writing or a move in.
    package mutating func note(_ path: String, written: Bool, closed: Bool) {
        sequence += 1
        if written { modifiedAt[path] = sequence }
        if closed { closedAt[path] = sequence }
    }

    /// When the files still pending should be looked at again, after a look at `now`. Not for
    /// empty ones alone: an empty file settles only once written, and a write is an event (or,
    /// polling, seen at the next poll); looked at twice a second, an empty `notes.txt` kept a
    /// watch awake for as long as it lay there.
    package func nextCheck(after now: Double) -> Double? {
        pending.values.contains { $0.size > 0 } ? now + settleTime / 2 : nil
    }

    /// Every file of the tree as of the last look: reported (or there at the start) or pending.
    package var knownPaths: Set<String> {
        var all = Set<String>(minimumCapacity: reported.count + pending.count)
        all.formUnion(reported.keys)
        all.formUnion(pending.keys)
        return all
    }

    /// The names kept something for: bounded by the tree plus what is in flight, never by the
    /// names that ever came and went.
    package var trackedNames: Int {
        Set(modifiedAt.keys).union(closedAt.keys).union(pending.keys).union(notMedia).count
    }

    /// Decides, for the `touched` paths and those pending, what was inserted, removed or changed
    /// in `current` (the tree now); complete files move into the reported state.
    package mutating func settle(_ touched: Set<String>, current: [String: FileKey], now: Double) -> Settled {
        var settled = Settled()
        let paths = touched.union(pending.keys).sorted()
        // The reported media files that went in this look, by identity: a file that came with
        // the same identity was renamed, and is complete as it was (even when polling).
        var gone: [UInt64: String] = [:]
        for path in paths where current[path] == nil && !notMedia.contains(path) {
            if let b = reported[path] { gone[b] = path }
        }
        for path in paths {
            let before = reported[path]
            switch (before, current[path]) {
            case (.some, nil):
                reported.removeValue(forKey: path)
                if notMedia.remove(path) == nil { settled.removed.append(path) }
                pending.removeValue(forKey: path)
            case (nil, nil):
                // Came and went before it settled: never reported, nothing kept for it.
                pending.removeValue(forKey: path)
            case (let b?, let key?) where b == key.contentDigest:
                reported[path] = b  // ctime alone (chmod, a new link): not a change
                pending.removeValue(forKey: path)
            case (let b, let key?):
                if isComplete(path, key, now: now) || (b == nil && gone[key.contentDigest] != nil) {
                    settled.ready.append((path, b == nil))
                    reported[path] = key.contentDigest
                    pending.removeValue(forKey: path)
                    modifiedAt.removeValue(forKey: path)
                    closedAt.removeValue(forKey: path)
                } else {
                    pending[path] = key
                }
            }
        }
        pairRenames(&settled, gone: gone, current: current)
        // Events of names that are gone are dropped: memory follows the tree.
        modifiedAt = modifiedAt.filter { current[$0.key] != nil }
        closedAt = closedAt.filter { current[$0.key] != nil }
        return settled
    }

    /// Turns a removal and an insertion of the same file (same identity and content) into one
    /// rename: a photo renamed or moved between watched folders is not news, and an offer
    /// follows it (`OfferKeeper`).
    private func pairRenames(_ settled: inout Settled, gone: [UInt64: String], current: [String: FileKey]) {
        guard !gone.isEmpty else { return }
        var pairedFrom: Set<String> = []
        var ready: [(path: String, inserted: Bool)] = []
        for r in settled.ready {
            if r.inserted, let key = current[r.path], let from = gone[key.contentDigest], !pairedFrom.contains(from) {
                pairedFrom.insert(from)
                settled.moved.append((from, r.path))
            } else {
                ready.append(r)
            }
        }
        settled.ready = ready
        settled.removed.removeAll { pairedFrom.contains($0) }
    }

    /// The file was reported (or there at the start) and is media as far as known.
    package func isReported(_ path: String) -> Bool { reported[path] != nil && !notMedia.contains(path) }

    /// Records what inspection found for a file `settle` made ready: one that is not media is
    /// never news, nor is its removal.
    package mutating func inspected(_ path: String, isMedia: Bool) {
        if isMedia { notMedia.remove(path) } else { notMedia.insert(path) }
    }

    /// Closed (or moved in) after its last write, or unchanged since the last look and older
    /// than the settle time; never while empty.
    func isComplete(_ path: String, _ key: FileKey, now: Double) -> Bool {
        guard key.size > 0 else { return false }
        if let closed = closedAt[path], closed >= (modifiedAt[path] ?? 0) { return true }
        let age = now - key.modifiedSeconds
        return pending[path].map { $0.sameContent(as: key) } == true && age >= settleTime
    }
}

extension FileKey {
    /// What says "the same file, the same content" (`sameContent`), across a rename too (which
    /// changes ctime): size, mtime, inode and device hashed into one number. Two different
    /// files agree with odds of about 2^-64 a comparison; the watcher keeps this of every
    /// reported file instead of its key.
    var contentDigest: UInt64 {
        var h = Hasher()
        h.combine(size)
        h.combine(mtimeNanoseconds)
        h.combine(inode)
        h.combine(device)
        return UInt64(bitPattern: Int64(h.finalize()))
    }

    /// The same content as far as a person can tell: size, mtime and identity. A `chmod` or a
    /// new link changes only ctime, and is not a change worth reporting.
    func sameContent(as other: FileKey) -> Bool {
        size == other.size && mtimeNanoseconds == other.mtimeNanoseconds && inode == other.inode && device == other.device
    }
}
