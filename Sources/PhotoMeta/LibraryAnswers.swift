import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// The live library's answers: the decision of `suggest` and the listing of `recent` over the
/// folders it holds, exactly as a scan of those folders would give them (docs/service.md).
extension LiveLibrary {
    /// The decision of `suggest` over the folders of `request` (served, with the service's own
    /// excludes), paths as the client wrote them; nil when the library cannot answer exactly.
    package func decide(_ request: ServiceRequest, exclude: [String]) -> (SuggestionDecision, [SuggestReport.Skipped])? {
        guard let context = request.context, served.serves(request, exclude: exclude) else { return nil }
        // A check of what it returns: the offer (and the file pending) must still be the file
        // decided on. inotify cannot see a change made through a hard link from outside the
        // tree, or to the target of a link; such a file's folder is listed again, and the
        // decision made again (a few times at most).
        var answer = decideOnce(request, context)
        for _ in 0..<3 {
            let stale = [answer.offered, answer.pending].compactMap { $0 }.filter { !isCurrent($0) }
            guard !stale.isEmpty else { break }
            for c in stale { changed(PathKey.parent(c.path)) }
            refresh(entering: watchEntering)
            answer = decideOnce(request, context)
        }
        return (answer.decision, answer.skipped)
    }

    /// The file at `c.path` (canonical) is still the one `c` was read from: a regular file of
    /// its size and modification time (links followed, as the walker follows them).
    private func isCurrent(_ c: SuggestionCandidate) -> Bool {
        guard let f = try? FileFacts.of(c.path), f.type == .regular else { return false }
        return f.size == c.size && f.key.modifiedSeconds == c.modified
    }

    /// One decision over the library as it is; the offer and the pending file are also given
    /// with their canonical paths (for `isCurrent`).
    private func decideOnce(_ request: ServiceRequest, _ context: SuggestionContext) -> (
        decision: SuggestionDecision, skipped: [SuggestReport.Skipped], offered: SuggestionCandidate?,
        pending: SuggestionCandidate?
    ) {
        var canonical: [String: SuggestionCandidate] = [:]
        var builder = SuggestionEngine.DecisionBuilder(context: context, explain: request.explain)
        var skippedEntries: [SuggestReport.Skipped] = []
        // One served root, no explanations (what a chat client asks): only the folders whose
        // span may reach the window are visited, newest first; the rest are counted.
        if request.folders.count == 1, let f = request.folders.first, !request.explain, served.isRoot(f.path),
            !roots.contains(where: {
                PathKey($0) != PathKey(f.path) && (PathKey($0).isWithin(f.path) || PathKey(f.path).isWithin($0))
            })
        {
            return decideRoot(f, context)
        }
        // A folder is the first asked folder's that holds it, once (a scan walks it once).
        var used = Set<PathKey>()
        for f in request.folders {
            let prefix = f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
            // The set is needed only when asked folders may overlap.
            for key in held.inOrder() where key.isWithin(f.path) && (request.folders.count == 1 || used.insert(key).inserted) {
                let out = linksOut(of: f.path, in: key)
                // Most of a library is far outside the window: counted, not decided.
                if !request.explain, out.isEmpty, held.certainlyRejected(key, context) {
                    builder.addCertainlyRejected(held.count(in: key))
                    continue
                }
                let list = out.isEmpty ? held.candidates(in: key) : held.candidates(in: key).filter { out[$0.path] == nil }
                if !request.explain, held.certainlyRejected(key, context) {
                    builder.addCertainlyRejected(list.count)
                    continue
                }
                for link in request.explain ? out.keys.sorted() : [] {
                    let reason = TreeWalker.SkipReason.linkOutOfFolder.description
                    skippedEntries.append(SuggestReport.Skipped(path: prefix + link.dropFirst(f.path.count), reason: reason))
                }
                fold(list, asked: f, prefix: prefix, context, explain: request.explain, into: &builder, canonical: &canonical)
                // Skipped entries are reported with explanations only.
                for s in request.explain ? skipped[key] ?? [] : [] {
                    skippedEntries.append(SuggestReport.Skipped(path: prefix + s.path.dropFirst(f.path.count), reason: s.reason))
                }
            }
        }
        let decision = builder.decision
        return (
            decision, skippedEntries, decision.suggestion.flatMap { canonical[$0.path] },
            decision.pending.flatMap { canonical[$0.path] }
        )
    }

    /// `decideOnce` for one served root (no links out of itself) without explanations: only
    /// folders recency may let through are visited, newest first; the rest are counted.
    private func decideRoot(_ f: ServiceRequest.Folder, _ context: SuggestionContext) -> (
        decision: SuggestionDecision, skipped: [SuggestReport.Skipped], offered: SuggestionCandidate?,
        pending: SuggestionCandidate?
    ) {
        let prefix = f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
        var canonical: [String: SuggestionCandidate] = [:]
        var builder = SuggestionEngine.DecisionBuilder(context: context, explain: false)
        let oldest = context.now - context.settings.within.seconds - CaptureDate.widestZoneOffset - 1
        var visited = 0
        for (latest, key) in held.datedNewestFirst() {
            guard latest >= oldest else { break }
            guard key.isWithin(f.path), !held.certainlyRejected(key, context) else { continue }
            let list = held.candidates(in: key)
            visited += list.count
            fold(list, asked: f, prefix: prefix, context, explain: false, into: &builder, canonical: &canonical)
        }
        builder.addCertainlyRejected(held.count(inRoot: f.path) - visited)
        let decision = builder.decision
        return (
            decision, [], decision.suggestion.flatMap { canonical[$0.path] }, decision.pending.flatMap { canonical[$0.path] }
        )
    }

    /// Folds `list` (canonical paths, in the asked `f`) into `builder`, paths as `prefix` writes
    /// them; without explanations, what recency certainly turns down is only counted.
    private func fold(
        _ list: [SuggestionCandidate], asked f: ServiceRequest.Folder, prefix: String, _ context: SuggestionContext,
        explain: Bool,
        into builder: inout SuggestionEngine.DecisionBuilder, canonical: inout [String: SuggestionCandidate]
    ) {
        for c in list {
            if !explain, RecencyRule.certainlyRejects(c, in: context) {
                builder.addCertainlyRejected(1)
                continue
            }
            var shown = c
            if prefix != f.path {
                shown.path = prefix + c.path.dropFirst(f.path.count)
                shown.livePhotoPair = c.livePhotoPair.map { prefix + $0.dropFirst(f.path.count) }
            }
            canonical[shown.path] = c
            builder.add(shown)
        }
    }

    /// The newest `request.limit` of `request.kinds` in the request's folders, as `recent` lists
    /// them by a scan; nil when the library cannot answer exactly. Folders are taken newest
    /// span first, until the rest cannot reach the listing, whatever their zone.
    package func recent(_ request: ServiceRequest, exclude: [String]) -> [SuggestionCandidate]? {
        guard let zone = TimeZone(identifier: request.zone), served.serves(request, exclude: exclude) else { return nil }
        let kinds = Set(request.kinds.compactMap(MediaKind.init(rawValue:)))
        var selection = RecentSelection(limit: request.limit, kinds: kinds, zone: zone)
        var used = Set<PathKey>()
        for f in request.folders {
            let prefix = f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
            // Folders without a dated file list nothing; the others newest first.
            for (latest, folder) in held.datedNewestFirst() where folder.isWithin(f.path) && used.insert(folder).inserted {
                if let cutoff = selection.cutoff, latest + CaptureDate.widestZoneOffset + 1 < cutoff { break }
                let out = linksOut(of: f.path, in: folder)
                for c in held.candidates(in: folder) where out[c.path] == nil {
                    var shown = c
                    if prefix != f.path {
                        shown.path = prefix + c.path.dropFirst(f.path.count)
                        shown.livePhotoPair = c.livePhotoPair.map { prefix + $0.dropFirst(f.path.count) }
                    }
                    selection.add(shown)
                }
            }
        }
        return selection.selected
    }

    /// For an answer about `asked` (canonical): the links of `folder` a walk of `asked` would
    /// not follow. None for a root.
    private func linksOut(of asked: String, in folder: PathKey) -> [String: String] {
        served.isRoot(asked) ? [:] : links.leaving(asked, in: folder)
    }
}
