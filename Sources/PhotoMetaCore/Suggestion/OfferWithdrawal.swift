/// The standing offer stopped standing (docs/watch.md, the `withdrawn` event): a client that
/// shows it takes it down, or for `moved` shows it at its new path.
public struct OfferWithdrawal: Sendable, Equatable, Codable {
    /// Why the offer no longer stands.
    public enum Reason: String, Sendable, Codable, CaseIterable {
        /// Its file was deleted or moved out of the folders.
        case deleted
        /// `dismiss` (by any process) reached its capture instant, or `forget` cleared the memory.
        case dismissed
        /// Its capture is older than the `--within` window now.
        case expired
        /// A newer offer replaced it (made here or by another process sharing the memory).
        case superseded
        /// Its file was renamed within the folders: the offer stands at `to`.
        case moved
    }

    /// The offer's path, as reported when it was made (or last moved).
    public var path: String
    /// Why it stopped standing.
    public var reason: Reason
    /// For `moved`: the new path, where the offer now stands.
    public var to: String?

    /// A withdrawal of the offer at `path` (`to`: the new path of a `moved` one).
    public init(path: String, reason: Reason, to: String? = nil) {
        self.path = path
        self.reason = reason
        self.to = to
    }
}
