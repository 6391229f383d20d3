/// Only what a chat app would offer: still images (photo, screenshot, Live Photo, GIF) by
/// default, videos only when asked; never an unreadable or unknown file, never the movie
/// half of a Live Photo (its still is offered instead), and never a camera's stand-in for a
/// clip (`CameraProxyName`: its `.THM` cover, its `.LRV` low-resolution copy), nor the raw
/// original of a shot whose developed picture lies beside it (`RawDevelopedPair`).
package struct MediaRule: SuggestionRule {
    package let id = RuleID.media
    package init() {}

    package func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        // A placeholder still being made is what its name promises (`PlaceholderFile`); left
        // empty for `stalledAfter`, it is an empty file.
        if !(c.isPlaceholder && CompletenessRule.mayStillChange(c, context)) {
            if c.format == .unknown { return "not an image or video" + (c.error.map { " (\($0.description))" } ?? "") }
            if let e = c.error { return "unreadable: \(e)" }
        }
        if let proxy = CameraProxyName.proxy(c.path) { return proxy.reason }
        if c.hasDevelopedPicture { return "raw original of a developed picture beside it (the picture is offered)" }
        switch c.kind {
        case .unknown: return "not an image or video"
        case .video:
            if c.isLivePhotoMovie { return "movie of the Live Photo \(c.livePhotoPair ?? "")" }
            return context.settings.includeVideos ? nil : "video (use --videos to include videos)"
        case .photo, .screenshot, .livePhoto, .gif: return nil
        }
    }
}
