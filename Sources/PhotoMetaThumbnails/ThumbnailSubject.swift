import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem
import PhotoMetaThumbnailCache

extension Thumbnailer {
    /// What is known about the file before anything is decoded.
    struct Subject {
        var path: String
        var canonical: String
        var facts: FileFacts
        var asset: MediaAsset
        /// The size as shown (orientation, `irot` applied); nil when the file does not say.
        var shown: (width: Int, height: Int)?
        var isHEIF: Bool
        var isVideo: Bool
        var key: ThumbnailCache.Key?
    }

    func subject(_ path: String) throws(ThumbnailError) -> Subject {
        let facts: FileFacts
        let canonical: String
        do throws(SystemError) {
            facts = try FileFacts.of(path)
            canonical = try FileSystem.canonicalPath(path)
        } catch {
            throw .unreadable(error.description)
        }
        guard facts.type == .regular else {
            throw facts.type == .directory ? .unreadable("is a directory") : .notARegularFile
        }
        // No sidecars: a picture needs no date, and the confined helper may not open them.
        let asset = FileInspector.inspect(path: canonical, pairLivePhotos: false, facts: facts, sidecars: false)
        if let e = asset.error { throw e == .unsupportedFormat ? .unsupported(e.description) : .unreadable(e.description) }
        let isHEIF = [.heic, .heif, .avif].contains(asset.format)
        var shown: (Int, Int)?
        // A movie's track size is before its rotation matrix (portrait phone videos are stored
        // landscape), so its shown size is left unknown and taken from the frame itself.
        if asset.kind != .video, let w = asset.width, let h = asset.height, w > 0, h > 0 {
            let quarterTurn = isHEIF ? asset.rotation == 90 || asset.rotation == 270 : (5...8).contains(asset.orientation ?? 1)
            shown = quarterTurn ? (h, w) : (w, h)
        }
        return Subject(
            path: path, canonical: canonical, facts: facts, asset: asset, shown: shown, isHEIF: isHEIF,
            // A movie's container with sound only (kind unknown) goes to the frame grabber too,
            // which says there is no video frame.
            isVideo: asset.kind == .video || asset.format.isVideo,
            key: cache.flatMap { _ in ThumbnailCache.key(path: path, facts: facts) })
    }
}
