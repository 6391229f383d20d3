#if canImport(Glibc)
    import Glibc
#endif

/// Errors travel as a code plus a message: the code (`errorCode` in reports, the index's
/// `error` column) says which error it is and is what readers decode; the message is for
/// people and may change. Before, reports were decoded by parsing the message back.
extension FileReadError {
    /// The error's stable code (docs/json.md): `isDirectory`, `notRegularFile`, `empty`,
    /// `unsupportedFormat`, `truncated` (the first bytes lie about their length),
    /// `readBudgetExhausted`, `readError`, or the `errno` name of a failed system call
    /// (`ENOENT`, `EACCES`...; `errno-N` for one outside the table).
    package var code: String {
        switch self {
        case .system(let e): return e.name
        case .isDirectory: return "isDirectory"
        case .notRegularFile: return "notRegularFile"
        case .empty: return "empty"
        case .unsupportedFormat: return "unsupportedFormat"
        case .unreadable(.outOfBounds): return "truncated"
        case .unreadable(.budgetExhausted): return "readBudgetExhausted"
        case .unreadable(.io): return "readError"
        }
    }

    /// What the message says beyond the code: what a non-regular file is ("a FIFO"), the
    /// operating system's words for a read error; nil for the other codes.
    package var detail: String? {
        switch self {
        case .notRegularFile(let what): return what
        case .unreadable(.io(let message)): return message
        default: return nil
        }
    }

    /// The error of `code`; `detail` fills the two codes that carry one. Nil for an unknown
    /// code (a newer photometa's).
    package init?(code: String, detail: String?) {
        switch code {
        case "isDirectory": self = .isDirectory
        case "notRegularFile": self = .notRegularFile(what: detail ?? "")
        case "empty": self = .empty
        case "unsupportedFormat": self = .unsupportedFormat
        case "truncated": self = .unreadable(.outOfBounds)
        case "readBudgetExhausted": self = .unreadable(.budgetExhausted)
        case "readError": self = .unreadable(.io(detail ?? ""))
        default:
            guard let e = SystemError(name: code) else { return nil }
            self = .system(e)
        }
    }

    /// The error of `code` as a report writes it, `message` being the report's `error` text
    /// (the detail is the part of it the code's own wording does not fix).
    package init?(code: String, message: String) {
        let probe = FileReadError(code: code, detail: "\u{0}")
        var detail: String?
        if let frame = probe?.description, let hole = frame.range(of: "\u{0}") {
            let prefix = frame[..<hole.lowerBound]
            let suffix = frame[hole.upperBound...]
            if message.hasPrefix(prefix), message.hasSuffix(suffix), message.count >= prefix.count + suffix.count {
                detail = String(message.dropFirst(prefix.count).dropLast(suffix.count))
            }
        }
        self.init(code: code, detail: detail ?? message)
    }

    /// One text for the index: the code, and the detail after a tab when there is one.
    package var stored: String { detail.map { code + "\t" + $0 } ?? code }

    /// The error `stored` wrote.
    package init?(stored: String) {
        guard let tab = stored.firstIndex(of: "\t") else {
            self.init(code: stored, detail: nil)
            return
        }
        self.init(code: String(stored[..<tab]), detail: String(stored[stored.index(after: tab)...]))
    }
}

extension SystemError {
    /// The `errno` name (`ENOENT`), or `errno-N` for a code outside the table.
    package var name: String { SystemError.names.first { $0.0 == errno }?.1 ?? "errno-\(errno)" }

    /// The error `name` names.
    package init?(name: String) {
        if let entry = SystemError.names.first(where: { $0.1 == name }) {
            self.init(errno: entry.0)
        } else if name.hasPrefix("errno-"), let code = Int32(name.dropFirst(6)) {
            self.init(errno: code)
        } else {
            return nil
        }
    }

    private static let names: [(Int32, String)] = [
        (EPERM, "EPERM"), (EACCES, "EACCES"), (ENOENT, "ENOENT"), (ELOOP, "ELOOP"), (EISDIR, "EISDIR"),
        (ENOTDIR, "ENOTDIR"), (ENAMETOOLONG, "ENAMETOOLONG"), (EIO, "EIO"), (EMFILE, "EMFILE"), (ENFILE, "ENFILE"),
        (ENOMEM, "ENOMEM"), (ENOSPC, "ENOSPC"), (EROFS, "EROFS"), (EBUSY, "EBUSY"), (EAGAIN, "EAGAIN"),
        (EINTR, "EINTR"), (EINVAL, "EINVAL"), (EBADF, "EBADF"), (EEXIST, "EEXIST"), (ENXIO, "ENXIO"),
        (ENODEV, "ENODEV"), (EOVERFLOW, "EOVERFLOW"), (ESTALE, "ESTALE"), (ETIMEDOUT, "ETIMEDOUT"), (EXDEV, "EXDEV"),
        (EFBIG, "EFBIG"), (ENOTEMPTY, "ENOTEMPTY"), (ENOSYS, "ENOSYS"), (EOPNOTSUPP, "EOPNOTSUPP"),
    ]
}
