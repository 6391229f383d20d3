/// The schemes as `FileNameDateParser` tries them: indexed by the first scalar a name must
/// start with, the title-first schemes apart, and the smaller tables of the screenshot
/// pre-check.
extension FileNameDateParser {
    /// Patterns with their index by the first character a name must start with (digits for those
    /// that start with the date), so a name is tried against a handful of its ~170 patterns.
    struct Table: Sendable {
        let patterns: [Pattern]
        let byFirstScalar: [UInt32: [Int]]
        /// The `afterTitle` schemes, tried at each space when none matches from the start.
        let afterTitle: [Int]

        init(_ patterns: [Pattern]) {
            self.patterns = patterns
            var index: [UInt32: [Int]] = [:]
            for (i, p) in patterns.enumerated() where !p.afterTitle {
                for first in FileNameDateParser.firstScalars(p.tokens) { index[first, default: []].append(i) }
            }
            byFirstScalar = index
            afterTitle = patterns.indices.filter { patterns[$0].afterTitle }
        }

        /// Some scheme may match `name`: one that starts with its first scalar, or one that
        /// follows a title and a space.
        func mayMatch(_ name: Substring) -> Bool {
            guard let first = name.unicodeScalars.first?.value else { return false }
            return byFirstScalar[first] != nil || (!afterTitle.isEmpty && name.utf8.dropFirst().contains(0x20))
        }
    }

    static let table = Table(patterns)

    static func firstScalars(_ tokens: [Token]) -> [UInt32] {
        switch tokens.first {
        case .literal(let l): return l.unicodeScalars.first.map { [$0.value] } ?? []
        case .oneOf(let options): return options.compactMap { $0.unicodeScalars.first?.value }
        case .none, .optional, .optionalMeridiem, .leadingMeridiem, .zulu: return []
        default: return Array(0x30...0x39)
        }
    }

    /// A cheap pre-check for screenshot evidence: does a screenshot scheme give this name a
    /// date? Only then can `parse` name a screenshot scheme: the scheme it names is one that
    /// matched with a plausible date, and schemes that disagree give no date at all. Trying the
    /// few screenshot schemes first spares every camera name that starts with a digit
    /// (`20240315_093012.jpg`) a pass over the ~100 schemes that start with a date.
    ///
    /// An ASCII name (nearly every camera's) is tried against the screenshot schemes an ASCII
    /// name can match (`asciiScreenshotTable`): a scheme that requires a non-ASCII word cannot,
    /// and dropping schemes that find nothing changes no answer. That table is built without
    /// GNOME's translated names, so a run over camera files never builds those.
    static func mayBeScreenshot(_ name: Substring) -> Bool {
        let table = Text.isASCII(name) ? asciiScreenshotTable : screenshotTable
        guard table.mayMatch(name) else { return false }
        return interpret(String(name), in: table).date != nil
    }

    static let screenshotTable = Table(patterns.filter(\.screenshot))

    /// The screenshot schemes an ASCII name can match, in `patterns`' order: GNOME's ASCII
    /// translations (`GnomeShellNames.asciiPatterns`; canonical composition leaves ASCII as it
    /// is) after the hand-written schemes that require no non-ASCII word.
    static let asciiScreenshotTable = Table(
        (handWritten + GnomeShellNames.asciiPatterns).filter { $0.screenshot && mayMatchASCII($0.tokens) })

    /// False when every name the tokens match holds a non-ASCII scalar: a required literal
    /// (or every choice of one) that is not ASCII.
    static func mayMatchASCII(_ tokens: [Token]) -> Bool {
        for t in tokens {
            switch t {
            case .literal(let l) where !Text.isASCII(l): return false
            case .oneOf(let options) where !options.contains(where: { Text.isASCII($0) }): return false
            case .leadingMeridiem(required: true): return false
            default: continue
            }
        }
        return true
    }
}
