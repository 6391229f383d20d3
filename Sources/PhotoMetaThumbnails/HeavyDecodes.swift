import PhotoMetaCore

/// Which decodes take from the process-wide pixel budget (`PixelBudget`), and how much.
extension Thumbnailer {
    /// Full-size decodes of large pictures share a budget, process-wide, counted in pixels
    /// times bytes a sample: HEIF (libheif decodes the whole image: about 8 bytes a pixel above
    /// the helper's 69 MiB for an 8-bit 12 MP HEIC, 14 for a 12-bit one), PNG, TIFF and GIF
    /// have no shrink-on-load, so as many at once as there are cores would multiply the peak
    /// memory by the number of cores. Two 8-bit 12 MP HEICs may run together (24 M), a
    /// 10- or 12-bit one or a larger picture runs alone: measured with the malloc settings of
    /// pm_vips_init, 200-240 MiB for two 8-bit ones at once, 242-252 MiB for a 12-bit one
    /// alone (docs/performance.md). JPEG and WebP shrink while decoding and never wait here.
    static let heavyDecodes = PixelBudget(limit: 24_000_000)

    /// A picture of more than this, in a format decoded at full size, takes from the budget.
    static let heavyPixels = 8_000_000

    /// What a decode takes from the budget (pixels times bytes a sample), or nil when it is not
    /// a heavy one.
    func heavyPixels(_ s: Subject) -> Int? {
        guard [.heic, .heif, .avif, .png, .tiff, .gif].contains(s.asset.format), let w = s.asset.width,
            let h = s.asset.height
        else { return nil }
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        if overflow { return Int.max }
        guard pixels > Self.heavyPixels else { return nil }
        // The header only (a few KiB read): 10- and 12-bit HEIFs decode to 16-bit samples.
        let sampleBytes = (try? VipsCodec.header(path: s.canonical))?.sampleBytes ?? 2
        let (weighted, over) = pixels.multipliedReportingOverflow(by: min(sampleBytes, 8))
        return over ? Int.max : weighted
    }
}
