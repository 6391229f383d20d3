/// A date a container or a metadata packet states, with its source, as typed as the reader
/// can make it: text with the form it is written in (the date stage parses it), or an
/// instant the reader already converted. `CaptureDateResolver` decides among them by source.
package struct DateClue: Sendable, Equatable {
    /// How a date text is written, so the date stage knows which parser applies.
    package enum TextForm: Sendable, Equatable {
        /// ISO 8601 / XMP dates (`2024-05-01T10:20:30+02:00`) [XMP Part 1 10.5.8].
        case iso8601
        /// ISO 8601 naming an instant, UTC when it names no zone (XMP `exif:GPSTimeStamp`).
        case utcISO8601
        /// IPTC IIM: DateCreated `CCYYMMDD`, then a space and TimeCreated `HHMMSS±HHMM` when
        /// there is one [IIM 4.1, 2:55 and 2:60].
        case iptc
        /// AVI `IDIT` / `ICRD` text: C's asctime form (`Mon Jan 01 10:20:30 2024`), else EXIF's or
        /// ISO 8601's.
        case riff
        /// Free-form text (PNG `Creation Time`): ISO 8601, else RFC 1123 [PNG 1.2 4.2.3.3], else
        /// GLib's `%c` in the C, English, Chinese, Japanese and Korean locales (GNOME Shell's
        /// screenshots).
        case freeform

        func parse(_ text: String) -> Result<DateTextParser.Stamp, DateTextParser.Rejection> {
            switch self {
            case .iso8601, .utcISO8601: return DateTextParser.iso8601(text)
            case .iptc: return DateTextParser.iptc(text)
            case .riff: return DateTextParser.riff(text)
            case .freeform: return DateTextParser.freeform(text)
            }
        }
    }

    package enum Value: Sendable, Equatable {
        /// Text as written.
        case text(String, TextForm)
        /// An instant (a UTC wall clock). `caveat`, when set, becomes a date diagnostic if this
        /// clue is the one used (how the reader had to read it).
        case instant(utc: LocalDateTime, caveat: String?)
        /// Present but not a usable date; `reason` becomes a date diagnostic when the table
        /// reaches this clue.
        case unusable(reason: String)
    }

    package var source: DateSource
    package var value: Value
    /// The sidecar file that stated it (`captured.sidecar`); nil for the file's own dates.
    package var origin: String?

    package init(_ source: DateSource, _ value: Value, origin: String? = nil) {
        self.source = source
        self.value = value
        self.origin = origin
    }
}
