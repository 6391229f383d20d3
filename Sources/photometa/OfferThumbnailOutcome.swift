import PhotoMetaCore

extension OfferThumbnail {
    /// The offer's picture as the reports print it (`OfferReport.thumbnail`): made, or why not.
    func outcome(_ path: String) -> ThumbnailOutcome {
        let (made, error) = make(path)
        return ThumbnailOutcome(made: made, error: error)
    }
}
