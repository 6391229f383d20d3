// The public product. A client writes `import PhotoMeta` and gets the values of the pure core
// (MediaAsset, CaptureDate, SuggestionDecision, ...) and the store's error type with it; every
// other symbol of the lower layers is `package` and stays out of reach.
@_exported import PhotoMetaCore
@_exported import PhotoMetaStore
