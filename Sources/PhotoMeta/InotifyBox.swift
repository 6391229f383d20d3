import PhotoMetaSystem

/// The inotify source, used only from the watching thread (hence `@unchecked`).
final class InotifyBox: @unchecked Sendable {
    let value: InotifySource
    init(_ value: InotifySource) { self.value = value }
}

extension TreeWalker {
    /// This walker, watching each sub-folder as it enters it, before listing it (a failure is
    /// kept in `failure`, and no more folders are watched).
    func watching(_ box: InotifyBox, failure: WatchFailure) -> TreeWalker {
        var w = self
        w.entering = { _, relative in
            guard !relative.isEmpty, failure.reason == nil else { return }
            do throws(InotifySource.Failure) {
                try box.value.watch(relative)
            } catch {
                failure.set("\(error)")
            }
        }
        return w
    }
}
