// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "photometa",
    products: [
        .library(name: "PhotoMeta", targets: ["PhotoMeta"]),
        .executable(name: "photometa", targets: ["photometa"]),
    ],
    targets: [
        // libexif through pkg-config; Debian ships it as libexif-dev.
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        // SQLite for the suggestion memory and the index; Debian ships it as libsqlite3-dev.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // zlib, for compressed PNG text chunks (zTXt, compressed iTXt); Debian's zlib1g-dev.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // statx(2) is not exported by Swift's Glibc module; this tiny C target wraps it.
        .target(name: "CStatx"),
        .target(
            name: "PhotoMeta",
            dependencies: ["CExif", "CSQLite", "CStatx", "CZlib"]
        ),
        .executableTarget(
            name: "photometa",
            dependencies: ["PhotoMeta"]
        ),
        .testTarget(
            name: "PhotoMetaTests",
            dependencies: ["PhotoMeta"]
        ),
        .testTarget(
            name: "PhotoMetaCLITests",
            dependencies: ["photometa", "PhotoMeta"]
        ),
    ]
)
