import PhotoMetaCore
import PhotoMetaSystem

/// The offer of a `WatchLoop`'s look: `suggest`'s rules and memory over the files that settled.
extension WatchLoop {
    /// The standing offer's life as time passes (`OfferKeeper.tick`).
    func tickOffer(at t: Double) {
        guard let settings = watcher.options.suggestions, let offering = watcher.offering?.value else { return }
        if let e = keeper.tick(offering: offering, within: settings.within.seconds, now: t) { deliver(e) }
    }

    /// The folder is gone: an offer standing in it goes too (`OfferKeeper.folderGone`), then
    /// the watcher says so and ends.
    func goneFolder() {
        if watcher.options.suggestions != nil,
            let e = keeper.folderGone(
                watcher.folder, offering: watcher.offering?.value, settings: offerSettings, now: watcher.options.clock.now())
        {
            deliver(e)
        }
        deliver(.folderGone)
    }

    /// Whether a file renamed within the folder is a candidate at its new name: when the name
    /// (or a sidecar it now has, or its content) dates it, as a scan dates it. Dated by its
    /// file times, it lost a date or never had one, and is no news: a photo named for 2019 and
    /// renamed `grandma.jpg` is not a photo of now (docs/watch.md, "Renames").
    static func judgesRename(_ asset: MediaAsset) -> Bool {
        asset.captured.map { !$0.source.isFileTime } ?? false
    }

    /// The rules' settings an offer is decided with (nil: no suggestions), no settle time.
    var offerSettings: SuggestionSettings? {
        guard var settings = watcher.options.suggestions else { return nil }
        settings.settleTime = .zero
        return settings
    }

    /// The rules over newly settled files with `suggest`'s memory (`Offering`): recorded if
    /// still news (racing askers offer a photo once), delivered, taken back if it reached no one
    /// (`offerDelivered`); an unusable memory is an error event. The tracker decided completeness.
    /// Put off while a file dated by its file times may still have them set, or while a newer
    /// file is being written or was cut short (`OfferDeferral`); decided again when due.
    func offer(_ fresh: [SuggestionCandidate], at t: Double) {
        guard let settings = offerSettings, let box = watcher.offering else { return }
        let again = inspectAgain(deferral.takeDue(at: t)).filter { !setAside($0, at: t) }
        var candidates = fresh + again + deferral.takeHeld()
        guard !candidates.isEmpty else { return }
        markRawPairs(&candidates)
        let (offering, context): (Offering, SuggestionContext)
        do throws(StateFileError) {
            (offering, context) = try box.context(settings: settings, at: t)
        } catch {
            return deliver(.error("no suggestion: the memory could not be read (\(error))"))
        }
        if deferral.waitsForFiles { return deferral.hold(candidates, context: context) }
        let decision = SuggestionEngine().decide(candidates, context: context)
        if decision.suggestion == nil, let p = decision.pending, let c = candidates.first(where: { $0.path == p.path }) {
            // A file cut short holds the older ones back until it is called damaged, else
            // until it will have settled: decided again then (or when it changes).
            let stalled = c.modified + settings.stalledAfter.seconds + 0.001
            let at = c.truncated || c.isPlaceholder ? stalled : t + Double(p.retryAfterMilliseconds) / 1000
            return deferral.hold(candidates, context: context, retryAt: at)
        }
        guard let s = decision.suggestion, let instant = decision.instant else { return }
        do throws(StateFileError) {
            _ = try offering.offer(decision, now: t) {
                if let e = keeper.offered(s, file: watcher.canonical(s.path), instant: instant) { deliver(e) }
                deliver(.suggestion(s, ageSeconds: t - instant))
                return offerDelivered()
            }
        } catch {
            return deliver(.error("no suggestion for \(s.path): the offer could not be recorded (\(error))"))
        }
    }

    /// Sets `c` aside when it is a file dated by file times that may still have them set
    /// (`OfferDeferral.unsettledUntil`): inspected again when they have been still. Done before
    /// a batch's candidates are folded (`SuggestionShortlist`), so an older photo of the batch
    /// is not dropped for it.
    func setAside(_ c: SuggestionCandidate, at t: Double) -> Bool {
        guard let settings = offerSettings,
            let until = OfferDeferral.unsettledUntil(
                c, settle: watcher.options.settleTime.seconds, within: settings.within.seconds, zone: settings.zone, now: t)
        else { return false }
        deferral.waitFor(c.path, until: until)
        return true
    }

    /// Files put off (`OfferDeferral`) inspected again as they are now; gone ones are dropped.
    private func inspectAgain(_ paths: [String]) -> [SuggestionCandidate] {
        let pairing = PairingFolders()
        return paths.compactMap { p in
            let asset = FileInspector.inspect(path: p, pairLivePhotos: true, pairing: pairing)
            guard !asset.isNotMedia, asset.error != .system(.noSuchFile), let facts = try? FileFacts.of(p) else { return nil }
            return SuggestionCandidate(asset, modified: facts.key.modifiedSeconds)
        }
    }

    /// Marks each raw whose developed picture is beside it now (`RawDevelopedPair`), from the
    /// snapshot's names of its folder, as a scan's listing would: fresh, put off and held
    /// candidates alike (a picture may have landed, or gone, since a raw was inspected).
    func markRawPairs(_ candidates: inout [SuggestionCandidate]) {
        var shots: [String: Set<String>] = [:]
        for i in candidates.indices {
            guard let rel = relative(candidates[i].path), let key = RawDevelopedPair.rawKey(rel) else {
                candidates[i].hasDevelopedPicture = false
                continue
            }
            let folder = FolderSnapshot.parent(of: rel)
            if shots[folder] == nil {
                shots[folder] = Set((current.byFolder[folder] ?? []).compactMap { RawDevelopedPair.developedKey($0) })
            }
            candidates[i].hasDevelopedPicture = shots[folder]?.contains(key) ?? false
        }
    }

    /// `path` (as `path(_:)` made it) below the watched folder; nil for another path.
    func relative(_ path: String) -> String? {
        // By bytes: a name may begin with a combining mark, which a `Character` joins to the slash.
        let prefix = watcher.displayFolder + "/"
        guard path.utf8.starts(with: prefix.utf8) else { return nil }
        return String(decoding: path.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }
}
