// swift-tools-version:6.0
// A separate package that uses photometa the way a client would: through the public product
// `PhotoMeta` (and `PhotoMetaThumbnails`) alone, by path. `make client` builds and runs it (CI does too), so the examples in
// README.md and docs/api.md are compiled against the public API, not the package's internals.
import PackageDescription

let package = Package(
    name: "Client",
    dependencies: [.package(name: "photometa", path: "../..")],
    targets: [
        .executableTarget(
            name: "Client",
            dependencies: [
                .product(name: "PhotoMeta", package: "photometa"),
                .product(name: "PhotoMetaThumbnails", package: "photometa"),
            ])
    ]
)
