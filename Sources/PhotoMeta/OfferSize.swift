import PhotoMetaCore

/// The offered picture's size for the offer's report (`width`, `height`, as `inspect` reports
/// them). The index and the live library keep no sizes (at a million files they would cost
/// tens of MiB for one offer at a time), so the one offered file is inspected when it is shown.
package enum OfferSize {
    /// The stored pixel size of `path`, or nils when it cannot be read.
    package static func of(_ path: String) -> (width: Int?, height: Int?) {
        let a = FileInspector.inspect(path: path, pairLivePhotos: false, sidecars: false)
        return (a.width, a.height)
    }
}
