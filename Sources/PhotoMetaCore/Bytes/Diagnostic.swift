/// Something that went wrong or looked odd inside one file, recorded on the result instead of
/// thrown, so the rest of the file (and the scan) goes on.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The module that noticed: `jpeg`, `png`, `heif`, `exif`, `date`, ...
    public let domain: String
    /// What was found, for people.
    public let message: String

    /// A diagnostic of `domain`.
    public init(_ domain: String, _ message: String) {
        self.domain = domain
        self.message = message
    }

    /// `domain: message`, as reports write it.
    public var description: String { "\(domain): \(message)" }
}
