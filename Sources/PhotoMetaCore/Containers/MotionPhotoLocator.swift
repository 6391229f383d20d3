/// Finds the video a Motion Photo carries inside its still [Motion Photo format 1.0; Samsung's
/// trailer, `SamsungTrailer`]: Google's container directory (the items appended after the
/// primary image, each `Item:Length` bytes and `Item:Padding` after it, so an item starts the
/// sum of its own and the later items' lengths and paddings before the end of the file; in a
/// HEIC the video sits in a top-level `mpvd` box, which ends the file the same way), the older
/// `GCamera:MicroVideoOffset` (the video's length, back from the end), and Samsung's
/// `MotionPhoto_Data` block. The video must start as an ISO BMFF movie does; one whose place
/// lies (outside the file, over the still, not a movie) is a diagnostic, and the file stays a
/// photo. An Ultra HDR JPEG, whose directory lists a gain map and no video, is no Motion Photo.
package enum MotionPhotoLocator {
    /// The most bytes read from the video to find its `mvhd` (the movie header is small, and
    /// phones write `moov` first or right after a short `mdat`).
    static let movieReadMax = 1 << 20

    /// Sets `out.motionPhoto` and its evidence when the file is a Motion Photo.
    package static func locate(_ reader: BoundedReader, into out: inout ContainerFindings) {
        let (trailer, problem) = SamsungTrailer.read(reader)
        if let problem { out.note("motionphoto", problem) }
        if let video = trailer?.motionVideo(reader) {
            if accept(reader, video, "the Samsung trailer's MotionPhoto_Data", into: &out) {
                out.motionPhotoEvidence = .motionPhotoSamsung
                return
            }
        }
        guard let xmp = MotionPhotoXMP.read(out.xmp) else { return }
        switch google(xmp, size: reader.size) {
        case .none:
            return
        case .failure(let why):
            out.note("motionphoto", why + "; read as a still")
        case .success(let video):
            if accept(reader, video, "the XMP's Motion Photo video", into: &out) { out.motionPhotoEvidence = .motionPhotoGoogle }
        }
    }

    /// Keeps the video when it starts as a movie, with its duration when its `mvhd` is found.
    static func accept(
        _ reader: BoundedReader, _ video: (offset: Int64, length: Int64), _ what: String, into out: inout ContainerFindings
    ) -> Bool {
        guard video.offset > 0, video.length >= 8, video.offset <= reader.size - video.length,
            let head = try? reader.read(at: video.offset, count: Int(min(Int64(FormatDetector.headerLength), video.length))),
            FormatDetector.detectISOBMFF(head).isVideo
        else {
            out.note(
                "motionphoto",
                "\(what) at offset \(video.offset) (\(video.length) bytes) is not a movie in the file; read as a still")
            return false
        }
        let window = WindowByteSource(reader.source, offset: video.offset, length: video.length)
        let movie = QuickTimeReader.read(BoundedReader(window, budget: min(movieReadMax, reader.remaining)), format: .mp4)
        out.motionPhoto = MotionPhoto(
            offset: video.offset, length: video.length, durationSeconds: movie.evidence[.quickTimeMovieHeader]?.durationSeconds)
        return true
    }

    enum Found {
        case none
        case failure(String)
        case success((offset: Int64, length: Int64))
    }

    /// The video Google's XMP places, by the container directory, else by `MicroVideoOffset`.
    static func google(_ x: MotionPhotoXMP, size: Int64) -> Found {
        if x.motionPhoto == 1 {
            guard let i = x.items.firstIndex(where: { $0.semantic == "MotionPhoto" }) else {
                return .failure("Camera:MotionPhoto is 1 but the container directory lists no MotionPhoto item")
            }
            guard let length = x.items[i].length, length > 0, let tail = tailLength(x.items[i...], size: size) else {
                return .failure("the MotionPhoto item's Item:Length and Item:Padding do not fit the file")
            }
            return .success((size - tail, length))
        }
        if x.microVideo == 1 {
            guard let n = x.microVideoOffset, n > 0, n < size else {
                return .failure("GCamera:MicroVideoOffset does not fit the file")
            }
            return .success((size - n, n))
        }
        return .none
    }

    /// The bytes `items` take at the end of the file (lengths and paddings), nil when any is
    /// negative or they do not fit in `size`.
    static func tailLength(_ items: ArraySlice<MotionPhotoXMP.Item>, size: Int64) -> Int64? {
        var total: Int64 = 0
        for item in items {
            let length = item.length ?? 0
            let padding = item.padding ?? 0
            guard length >= 0, padding >= 0, length < size, padding < size else { return nil }
            total += length + padding
            guard total < size else { return nil }
        }
        return total
    }

    /// The bytes Google's XMP says follow the primary image (the container directory's later
    /// items, lengths and paddings; or the MicroVideo's length), whatever the file's size: what
    /// a complete file has after its end of image. Nil when it says none.
    package static func announcedTail(xmp: [[UInt8]]) -> Int64? {
        guard let x = MotionPhotoXMP.read(xmp) else { return nil }
        var total: Int64 = 0
        for item in x.items.dropFirst() {
            let length = item.length ?? 0
            let padding = item.padding ?? 0
            guard length >= 0, padding >= 0, length < Int64.max / 4, padding < Int64.max / 4 else { return nil }
            total += length + padding
            guard total < Int64.max / 4 else { return nil }
        }
        let announced = max(total, x.microVideoOffset.map { max(0, $0) } ?? 0)
        return announced > 0 ? announced : nil
    }

    /// An appended item begins at `offset`, as far as the file goes: a movie (an ISO BMFF box
    /// whose type is `ftyp`, after its 4-byte size) or a JPEG (a gain map: SOI then a marker).
    package static func startsAppendedItem(_ reader: BoundedReader, at offset: Int64) -> Bool {
        guard let head = try? reader.readAvailable(at: offset, count: 8), !head.isEmpty else { return false }
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        if head.prefix(3).elementsEqual(jpeg.prefix(min(3, head.count))) { return true }
        return head.count <= 4 || head[4...].elementsEqual("ftyp".utf8.prefix(head.count - 4))
    }

    /// Where data appended after a JPEG's primary image may begin, for the end-of-image check:
    /// the Samsung trailer's first block, the first item after Google's primary (the primary's
    /// padding before it), the MicroVideo. Offsets inside the file, most likely first.
    package static func appendedStarts(_ reader: BoundedReader, xmp: [[UInt8]]) -> [Int64] {
        let size = reader.size
        var starts: [Int64] = []
        if let trailer = SamsungTrailer.read(reader).trailer { starts.append(trailer.start) }
        if let directory = SamsungTrailer.directoryStart(reader) { starts.append(directory) }
        if let x = MotionPhotoXMP.read(xmp) {
            if x.items.count > 1, let tail = tailLength(x.items.dropFirst(), size: size) {
                starts.append(size - tail - max(0, min(x.items[0].padding ?? 0, size - tail)))
            }
            if let n = x.microVideoOffset, n > 0, n < size { starts.append(size - n) }
        }
        return starts.filter { $0 > 0 && $0 < size }
    }
}
