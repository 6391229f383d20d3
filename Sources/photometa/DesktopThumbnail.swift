import PhotoMetaCore
import PhotoMetaSystem

/// `photometa thumbnail --output FILE --size N INPUT`: photometa as the desktop's thumbnailer
/// (share/thumbnailers/photometa.thumbnailer, docs/thumbnails.md "The desktop's thumbnailer").
///
/// The contract file managers hold their thumbnailers to (gnome-desktop's
/// `gnome-desktop-thumbnail-script.c`, Xfce tumbler's desktop-thumbnailer plugin): they run the
/// entry's `Exec` with `%i` (a path) or `%u` (a URI), `%o` and `%s`, and read one PNG at `%o`,
/// at most `%s` pixels on its longer side, when the exit status is 0. So: one input, a PNG
/// fitted into the box (never enlarged), made without the shared cache (the file manager keeps
/// its own entry, with its own `Thumb::URI`), and, on failure, a non-zero status with nothing
/// written at FILE. The helper writes a temporary name in FILE's folder and renames it
/// (`PrivateFiles.replaceAtomically`, which removes the temporary when the write fails); its
/// Landlock rule lets it write that folder alone (`HelperConfinement.policy`, the `--out`
/// folder of the job).
struct DesktopThumbnail {
    /// Where the helper writes: FILE's folder (absolute, the rule Landlock holds to) and name.
    var folder: String
    var name: String

    /// Checks the rest of the command line against `--output` and turns a `file://` INPUT into
    /// its path (`%u`). Everything else of the contract is fixed: fit, PNG, the exact box.
    static func check(_ command: inout ThumbnailCommand, explicitFormat: Bool) throws(UsageError) {
        guard command.files.count == 1 else {
            throw UsageError("--output FILE makes one thumbnail: give exactly one INPUT (got \(command.files.count))")
        }
        let conflicts: [(Bool, String)] = [
            (command.out != nil, "--out"), (command.request.mode != .fit, "--\(command.request.mode.rawValue)"),
            (explicitFormat && command.request.format != .png, "--format"), (command.request.delivery == .fast, "--fast"),
        ]
        if let (_, name) = conflicts.first(where: { $0.0 }) {
            throw UsageError("\(name) does not go with --output FILE, which writes one PNG fitted into --size")
        }
        command.files[0] = try localPath(command.files[0])
        command.useCache = false
    }

    /// INPUT as a path: a path as it is; a `file://` URI (`%u`) decoded as GLib's
    /// `g_filename_from_uri` does [RFC 8089 2, RFC 3986 2.1]: host empty or `localhost`,
    /// percent-escapes decoded to bytes (any bytes: a name need not be UTF-8), an escaped `/`
    /// or NUL refused. Another scheme (`smb://`, `sftp://`...) is refused: photometa reads
    /// local files only, and the file manager passes those as paths.
    static func localPath(_ argument: String) throws(UsageError) -> String {
        guard let colon = argument.firstIndex(of: ":"), argument[colon...].hasPrefix("://") else { return argument }
        // A scheme is a letter, then letters, digits, "+", "-", "." [RFC 3986 3.1].
        let scheme = argument[..<colon]
        func letter(_ u: Unicode.Scalar) -> Bool { ("a"..."z").contains(u) || ("A"..."Z").contains(u) }
        guard let first = scheme.unicodeScalars.first, letter(first),
            scheme.unicodeScalars.allSatisfy({ letter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return argument }
        guard scheme.lowercased() == "file" else {
            throw UsageError(
                "'\(argument)' is a \(scheme): URI; photometa reads local files only (a path, or a file:// URI)"
            )
        }
        let rest = argument[argument.index(colon, offsetBy: 3)...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let host = rest[..<slash]
        guard host.isEmpty || host.lowercased() == "localhost", slash < rest.endIndex else {
            throw UsageError(
                "'\(argument)' names a file on host '\(host)'; photometa reads local files only")
        }
        guard let bytes = percentDecoded(PathBytes.encode(String(rest[slash...]))) else {
            throw UsageError(
                "'\(argument)' is not a file URI photometa can read (a bad %-escape, or an escaped '/' or NUL)"
            )
        }
        return PathBytes.decode(bytes)
    }

    /// `%XX` escapes decoded; nil for a malformed escape or one that makes `/` or NUL.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8]? {
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "%") else {
                out.append(bytes[i])
                i += 1
                continue
            }
            guard i + 2 < bytes.count, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) else { return nil }
            let byte = high << 4 | low
            guard byte != 0, byte != UInt8(ascii: "/") else { return nil }
            out.append(byte)
            i += 3
        }
        return out
    }

    /// FILE's folder and name, or why FILE cannot be written: its folder is missing, it is a
    /// folder, a device, a FIFO or a socket, or it is INPUT itself (the rename would replace
    /// the picture by its thumbnail).
    static func target(_ output: String, input: String) -> Result<DesktopThumbnail, UsageError> {
        let slash = output.lastIndex(of: "/")
        let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
        var folder = slash.map { $0 == output.startIndex ? "/" : String(output[..<$0]) } ?? "."
        if !folder.hasPrefix("/") {
            let here = FileSystem.currentFolder() ?? "."
            folder = folder == "." ? here : here + "/" + folder
        }
        guard !name.isEmpty, name != ".", name != ".." else {
            return .failure(UsageError("--output \(output) names a folder, not a file"))
        }
        guard (try? FileFacts.of(folder))?.type == .directory else {
            return .failure(UsageError("--output \(output): its folder does not exist"))
        }
        if let existing = try? FileFacts.of(output) {
            if existing.type == .directory {
                return .failure(UsageError("--output \(output) is a folder, not a file"))
            }
            // The picture replaces FILE by a rename: a device (`--output /dev/null`, run as
            // root), a FIFO or a socket would be replaced by a regular file, not written to.
            if case .other(let what) = existing.type {
                return .failure(UsageError("--output \(output) is \(what), not a regular file"))
            }
            if let picture = try? FileFacts.of(input), picture.inode == existing.inode, picture.device == existing.device {
                return .failure(UsageError("--output \(output) is the input itself"))
            }
        }
        return .success(DesktopThumbnail(folder: folder, name: name))
    }
}
