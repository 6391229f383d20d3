import PhotoMetaCore

extension OfferThumbnail {
    /// The offer's picture as the reports print it (`OfferReport.thumbnail`): made, or why not.
    func outcome(_ path: String) -> ThumbnailOutcome {
        let (made, error) = make(path)
        return ThumbnailOutcome(made: made?.report, error: error)
    }
}

extension ThumbnailerProcess.Made {
    /// The helper's answer in the reports' shape.
    var report: ThumbnailReport {
        ThumbnailReport(path: path, width: width, height: height, source: source, format: format)
    }
}
