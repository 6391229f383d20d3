/// A sidecar file the edge found and read (bounded by `Limits.sidecarBytesMax`), handed to the
/// pure core with the picture's bytes. `Inspector` turns it into dates and GPS.
package struct SidecarFile: Sendable, Equatable {
    package var kind: SidecarNames.Kind
    /// The sidecar's path, as reported (`captured.sidecar`).
    package var path: String
    package var bytes: [UInt8]

    package init(kind: SidecarNames.Kind, path: String, bytes: [UInt8]) {
        self.kind = kind
        self.path = path
        self.bytes = bytes
    }
}

/// What the sidecars of one picture state: date clues (their source is `sidecar.xmp` or
/// `sidecar.takeout`, their `origin` the sidecar's path), a position, and why a sidecar gave
/// nothing.
package struct SidecarEvidence: Sendable, Equatable {
    package var clues: [DateClue] = []
    package var location: MediaAsset.GPS?
    package var diagnostics: [Diagnostic] = []

    package init() {}

    /// Reads every sidecar, in the order found (the edge keeps `SidecarNames.candidates`'
    /// order): the first usable date of each kind wins in `CaptureDateResolver`, the first
    /// position here.
    package static func read(_ files: [SidecarFile], pictureName: String) -> SidecarEvidence {
        var e = SidecarEvidence()
        for f in files {
            let found: SidecarEvidence
            switch f.kind {
            case .xmp: found = XMPSidecar.read(f)
            case .takeout: found = TakeoutSidecar.read(f, pictureName: pictureName)
            }
            e.clues += found.clues
            e.location = e.location ?? found.location
            e.diagnostics += found.diagnostics
        }
        return e
    }
}
