import PhotoMetaCore

/// The name SQLite opens a state file by when it is read as immutable (`StateFile.open`, on a
/// read-only file system). No C here: text only.
extension SQLiteDatabase {
    /// `file:PATH?immutable=1`, every byte of PATH but unreserved ones and `/` percent-encoded
    /// ([RFC 3986 2.1]: a `?`, `#` or `%` in a name must not end or change the path). An
    /// absolute path gets an empty authority (`file:///…`): one that starts with `//` would
    /// otherwise be read as a host, which SQLite refuses.
    static func immutableURI(_ path: String) -> String {
        var uri = path.hasPrefix("/") ? "file://" : "file:"
        for b in PathBytes.encode(path) {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(hex[Int(b >> 4)])
                uri.unicodeScalars.append(hex[Int(b & 0xF)])
            }
        }
        return uri + "?immutable=1"
    }
}
