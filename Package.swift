// swift-tools-version:6.0
import PackageDescription

// Layers, each depending only on the ones below it (docs/architecture.md):
//
//   photometa (CLI: parse and print; runs photometa-thumbnailer for thumbnails)
//   photometa-thumbnailer (the helper process that links the image libraries)
//     PhotoMetaThumbnails (the second product: thumbnails, libvips and libffmpegthumbnailer)
//     PhotoMeta (the public product: inspector, runner, suggester, watcher)
//       PhotoMetaStore (SQLite: state file, suggestion memory, asset index)
//         PhotoMetaSystem (every libc call: statx, open/pread, readdir, realpath, poll, inotify, write)
//           PhotoMetaCore (pure: bytes -> containers -> EXIF/XMP -> dates -> kinds -> rules -> reports)
//
// C modules are imported with `internal import` so they never reach a client; the layers share
// what the client must not see through `package` access.
let package = Package(
    name: "photometa",
    products: [
        .library(name: "PhotoMeta", targets: ["PhotoMeta"]),
        // Thumbnails in a product of their own: a client that only reads metadata links no
        // image library.
        .library(name: "PhotoMetaThumbnails", targets: ["PhotoMetaThumbnails"]),
        .executable(name: "photometa", targets: ["photometa"]),
        .executable(name: "photometa-thumbnailer", targets: ["photometa-thumbnailer"]),
    ],
    targets: [
        // libexif through pkg-config; Debian ships it as libexif-dev.
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // libexif's two tag-name lookups, answered once per tag and remembered: libexif's calls
        // to them bind to these definitions (CExifTagNames.c says why and how). Nothing imports
        // it; linking it is what it takes.
        .target(name: "CExifTagNames", dependencies: ["CExif"]),
        // SQLite for the suggestion memory and the index; Debian ships it as libsqlite3-dev.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // zlib, for compressed PNG text chunks (zTXt, compressed iTXt); Debian's zlib1g-dev.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Brotli's decoder, for JPEG XL's compressed metadata boxes (`brob`); Debian's libbrotli-dev.
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        // statx(2) is not exported by Swift's Glibc module; this tiny C target wraps it.
        .target(name: "CStatx"),
        // posix_spawn with closefrom, for the watch hook (Swift's Glibc module lacks the _np call).
        .target(name: "CSpawn"),
        // SIGINT and SIGTERM written to a pipe by an async-signal-safe handler, for `watch` and
        // `serve` (PhotoMetaSystem/TerminationSignals.swift): no dispatch source, no thread pool.
        .target(name: "CSignals"),
        .target(name: "CAllocator"),
        // Landlock, seccomp, no_new_privs and rlimits, for the processes that confine themselves
        // (docs/sandbox.md): the kernel headers linux/landlock.h, seccomp.h and filter.h reach
        // only this target.
        .target(name: "CSandbox"),
        // libvips (decoding with shrink-on-load, resampling, colour, encoding) through
        // pkg-config; Debian ships it as libvips-dev. Its headers reach only CVips.
        .systemLibrary(name: "CLibVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // Fixed-signature C over libvips' varargs API and libffmpegthumbnailer's C API (video
        // frames; Debian's libffmpegthumbnailer-dev, opened with dlopen on the first video, not
        // linked: CVipsVideo.c says why), plus GLib's URI and MD5 for cache names, and LittleCMS
        // (libvips' colour engine; Debian's liblcms2-dev) for transforms kept across files
        // (CVipsColour.c), and GModule to open the one libvips loader module it admits
        // (CVipsRuntime.c).
        .target(
            name: "CVips", dependencies: ["CLibVips"],
            linkerSettings: [.linkedLibrary("lcms2"), .linkedLibrary("gmodule-2.0")]),
        // GLib alone (Debian's libglib2.0-dev, a dependency of libvips-dev): the file URI and
        // MD5 that name freedesktop cache entries, so photometa answers cache hits without libvips.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "CGLibNames", dependencies: ["CGLib"]),

        .target(name: "PhotoMetaCore", dependencies: ["CExif", "CExifTagNames", "CZlib", "CBrotli"]),
        .target(
            name: "PhotoMetaSystem",
            dependencies: ["PhotoMetaCore", "CStatx", "CSpawn", "CSignals", "CSandbox", "CAllocator"]),
        .target(name: "PhotoMetaStore", dependencies: ["PhotoMetaCore", "PhotoMetaSystem", "CSQLite"]),
        .target(name: "PhotoMeta", dependencies: ["PhotoMetaCore", "PhotoMetaSystem", "PhotoMetaStore"]),
        // The freedesktop thumbnail cache (names, keys, validity): no image library.
        .target(name: "PhotoMetaThumbnailCache", dependencies: ["PhotoMetaCore", "PhotoMetaSystem", "CGLibNames"]),
        // Thumbnails on top of the layers: the picture to show, the freedesktop cache.
        .target(
            name: "PhotoMetaThumbnails",
            dependencies: ["PhotoMeta", "PhotoMetaCore", "PhotoMetaSystem", "PhotoMetaThumbnailCache", "CVips"]),
        .executableTarget(name: "photometa", dependencies: ["PhotoMeta", "PhotoMetaSystem", "PhotoMetaThumbnailCache"]),
        // The one process that links the image libraries: photometa runs it for `thumbnail` and
        // `--thumbnail`, so its metadata commands load none of them (docs/thumbnails.md).
        .executableTarget(
            name: "photometa-thumbnailer", dependencies: ["PhotoMetaThumbnails", "PhotoMeta", "PhotoMetaSystem"]),

        // What every test target shares: the fixture locator, temporary folders, the binary
        // runner and a clock the test moves (no product depends on it).
        .target(name: "PhotoMetaTestSupport", dependencies: ["PhotoMetaCore"], path: "Tests/PhotoMetaTestSupport"),
        .testTarget(
            name: "PhotoMetaTests",
            dependencies: [
                "PhotoMeta", "PhotoMetaCore", "PhotoMetaSystem", "PhotoMetaStore", "PhotoMetaTestSupport", "CExifTagNames",
                "CExif",
            ]
        ),
        .testTarget(
            name: "PhotoMetaThumbnailsTests",
            dependencies: [
                "PhotoMetaThumbnails", "PhotoMetaThumbnailCache", "PhotoMeta", "PhotoMetaCore", "PhotoMetaTestSupport",
            ]),
        .testTarget(
            name: "PhotoMetaCLITests",
            dependencies: [
                "photometa", "PhotoMeta", "PhotoMetaCore", "PhotoMetaSystem", "PhotoMetaStore", "PhotoMetaThumbnails",
                "PhotoMetaThumbnailCache", "PhotoMetaTestSupport",
            ]
        ),
    ]
)
