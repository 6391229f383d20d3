/// What a movie's writer means by its `mvhd` creation time [ISO 14496-12 8.2.2.3]. The standard
/// says "the creation time of the presentation"; most writers (Apple's, cameras', ffmpeg's
/// `creation_time`) put the start of the recording there. Android's muxer does not: Stagefright's
/// `MPEG4Writer`, under every Android camera app and `MediaMuxer`, writes the movie header when
/// the recording stops (`writeMoovBox` from `stop()`), and its `writeMvhdBox` stamps it with
/// `time(NULL)` at that moment: the end of the recording. Read as the start, a 90 s clip taken
/// 150 s ago is "60 s old", offered as recent, and dated after its own `VID_...` name.
package enum MovieWriter {
    /// `MPEG4Writer`'s handler names, each a C string [ISO 14496-12 8.4.3]: "VideoHandle" and
    /// "SoundHandle" (ffmpeg writes "VideoHandler", Apple "Core Media Video"). With the
    /// `com.android.version` key (Android 6 and later), what tells an Android-written movie.
    static let androidHandlerNames: [[UInt8]] = [Array("VideoHandle".utf8), Array("SoundHandle".utf8)]

    /// `hdlr`'s body (`b`, from its version) names its handler as `MPEG4Writer` does: the name,
    /// after 24 bytes, is one of `androidHandlerNames` followed by its NUL.
    static func isAndroidHandler(_ b: [UInt8]) -> Bool {
        let start = 24
        for name in androidHandlerNames where b.count > start + name.count && b[start + name.count] == 0 {
            if b[start..<start + name.count].elementsEqual(name) { return true }
        }
        return false
    }

    /// The start of a recording whose `mvhd` time (`stop`) was written when it stopped: that
    /// moment less the movie's duration, in whole seconds (the header has whole seconds only,
    /// so the start is known to the second at best). Without a duration, `stop` as it is.
    static func start(of stop: DateClue.Value, lasting duration: Double?) -> DateClue.Value {
        guard case .instant(let end, _) = stop, let d = duration, d.isFinite, d >= 0.5, d < 1e9,
            let start = LocalDateTime(secondsAsIfUTC: end.secondsAsIfUTC - Int64(d.rounded()))
        else { return stop }
        return .instant(
            utc: start,
            caveat: "quicktime.mvhd is written when an Android recording stops; its start is that less the duration")
    }
}
