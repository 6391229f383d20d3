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

    /// The rules' settings an offer is decided with (nil: no suggestions), no settle time.
    var offerSettings: SuggestionSettings? {
        guard var settings = watcher.options.suggestions else { return nil }
        settings.settleTime = .zero
        return settings
    }

    /// The rules over newly settled files with `suggest`'s memory (`Offering`): recorded if
    /// still news (racing askers offer a photo once), delivered, taken back if it reached no one
    /// (`offerDelivered`); an unusable memory is an error event. The tracker decided completeness.
    func offer(_ fresh: [SuggestionCandidate], at t: Double) {
        guard let settings = offerSettings, let box = watcher.offering else { return }
        let candidates = deferral.merged(fresh, at: t)
        guard !candidates.isEmpty else { return }
        // A date from file times that may still change waits for them to be still (`OfferDeferral`).
        if let until = OfferDeferral.waitUntil(
            candidates, settle: watcher.options.settleTime.seconds, within: settings.within.seconds, zone: settings.zone,
            now: t)
        {
            return deferral.hold(candidates, until: until)
        }
        let (offering, context): (Offering, SuggestionContext)
        do throws(StateFileError) {
            (offering, context) = try box.context(settings: settings, at: t)
        } catch {
            return deliver(.error("no suggestion: the memory could not be read (\(error))"))
        }
        let decision = SuggestionEngine().decide(candidates, context: context)
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
}
