/// Every cap photometa applies to one file, in one place (documented in docs/robustness.md).
package enum Limits {
    /// Total bytes any container reader may fetch from one file.
    package static let readBudgetPerFile = 4 << 20
    /// Largest EXIF payload handed to libexif: libexif caps its input, "Exif\0\0" header
    /// included, at 0xfffe bytes, so longer payloads are cut to this (not skipped).
    package static let exifPayloadMax = 0xFFFE - 6
    /// Largest XMP packet read: bigger PNG/WebP chunks are skipped, HEIF items and GIF
    /// extensions cut, each with a diagnostic.
    package static let xmpPayloadMax = 1 << 20
    /// Total bytes of text one file may make photometa hold: XMP packets kept plus text
    /// inflated from PNG chunks, all chunks together. The read budget counts compressed bytes,
    /// so without this a 1.2 KB chunk that inflates to 1 MiB, repeated, would cost 1 GB.
    package static let expandedTextMax = 4 << 20
    /// Largest sidecar read (an XMP sidecar or a Takeout JSON); a bigger one is skipped with a
    /// diagnostic. darktable's sidecars with a long history run to tens of KiB, Takeout's JSON
    /// to a few.
    package static let sidecarBytesMax = 1 << 20
    /// Most XMP packets kept from one file (real files have one, sometimes an extended one).
    package static let xmpPacketsMax = 16
    /// Most segments / chunks / blocks visited in one file, and boxes listed inside one parent.
    /// (ISO BMFF boxes are only descended along fixed paths such as moov/trak/mdia, so nesting
    /// depth is bounded by the code, not by the file.)
    package static let structureCountMax = 20_000
    /// Largest single small box read whole (mvhd, tkhd, keys, ilst, iinf, iloc, ipco...).
    package static let boxPayloadMax = 1 << 20
    /// GIF blocks are read up to this many bytes before frame counting stops (lower bound kept).
    package static let gifScanMax = 2 << 20
}
