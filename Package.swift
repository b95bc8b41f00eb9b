// swift-tools-version:6.0
import Foundation
import PackageDescription

/// libdeflate (Debian: libdeflate-dev; Homebrew: libdeflate) inflates screenshots' image data in
/// one call, several times faster than zlib. Used when its header is installed (Debian's
/// /usr/include, Homebrew's /opt/homebrew/include on Apple silicon or /usr/local/include on Intel);
/// without it the decoder inflates with zlib (`snapdiff --version` says which).
/// SNAPDIFF_NO_LIBDEFLATE=1 builds without it even when installed. Its compiler and linker flags
/// come from pkg-config (the CLibdeflate system library), as libpng's, LittleCMS's and LZ4's do:
/// neither Xcode nor the macOS SDK's sysroot searches /opt/homebrew/include by itself.
let hasLibdeflate =
  ProcessInfo.processInfo.environment["SNAPDIFF_NO_LIBDEFLATE"] == nil
  && ["/usr/include", "/usr/local/include", "/opt/homebrew/include"].contains {
    FileManager.default.fileExists(atPath: $0 + "/libdeflate.h")
  }

/// libdeflate's header and library as pkg-config finds them (Homebrew's /opt/homebrew on Apple
/// silicon included, where pkg-config is Homebrew's); only when installed.
let libdeflateTargets: [Target] =
  hasLibdeflate
  ? [
    .systemLibrary(
      name: "CLibdeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])])
  ] : []

/// SNAPDIFF_TEST_API_ONLY=1 builds the test-side API as an iOS UI-test bundle gets it: without the
/// in-process engine (no C, no libpng), so every verdict comes from a running `snapdiff serve` or,
/// afterwards, from `snapdiff check` on the frames folder. CI builds and tests it that way.
let testAPIOnly = ProcessInfo.processInfo.environment["SNAPDIFF_TEST_API_ONLY"] != nil

/// The in-process engine under the test API: on Linux and macOS, where libpng links; never on iOS.
let engineForTests: [Target.Dependency] =
  testAPIOnly ? [] : [.target(name: "SnapdiffCore", condition: .when(platforms: [.linux, .macOS]))]
let engineDefine: [SwiftSetting] =
  testAPIOnly ? [] : [.define("SNAPDIFF_ENGINE", .when(platforms: [.linux, .macOS]))]

/// The test-side API and what it stands on: the whole package in the test-API-only
/// configuration, the first part of it otherwise.
let testAPITargets: [Target] = [
  // What the engine and the test-side API share, in plain Swift and Foundation (no C): element
  // trees and selectors, snapshot keys, settings, record modes, files. It builds for iOS.
  .target(name: "SnapdiffModel"),
  // The service's wire contract: its API paths, request and response bodies, and the multipart
  // form a frame travels in (parsed and written). The server answers with it, the test API's
  // service checker sends and decodes it, the fuzz harness feeds it; plain Swift and Foundation
  // on SnapdiffModel (no Hummingbird, GRDB or C), so it links into an iOS UI-test bundle.
  .target(name: "SnapdiffWire", dependencies: ["SnapdiffModel"]),
  // The test-side API: SnapshotController, pages, steps, SnapShooter, checkers, the XCUITest
  // shooter. Foundation and SnapdiffModel only, so it links into an iOS UI-test bundle; on Linux
  // and macOS it also compares in-process through SnapdiffCore (SNAPDIFF_ENGINE).
  .target(
    name: "SnapdiffTesting",
    dependencies: ["SnapdiffModel", "SnapdiffWire"] + engineForTests,
    swiftSettings: engineDefine
  ),
  // What the test targets share, in plain Swift and Foundation: temporary folders, programs run as
  // processes, a `snapdiff serve` process, headless Chromium, PNG files made byte by byte.
  .target(name: "SnapdiffTestSupport", path: "Tests/Support"),
  // The test API as an iOS bundle uses it: frames folder, a real `snapdiff serve` process.
  .testTarget(
    name: "SnapdiffTestAPITests", dependencies: ["SnapdiffTesting", "SnapdiffModel", "SnapdiffTestSupport"]),
  // The XCUITest shooter (Apple-only source, linked here from Sources/SnapdiffTesting/XCUITest)
  // type-checked and driven on Linux against a shim that declares the XCUITest symbols it uses
  // as Apple documents them; with a client written as the page-object suites a hosted checker was used from are
  // (SeedStyleClient: BaseTest, PageFactory, pages and steps).
  .testTarget(
    name: "XCUITestShimTests",
    dependencies: ["SnapdiffTesting", "SnapdiffModel", "SnapdiffTestSupport"],
    exclude: ["Fixtures"],
    swiftSettings: [
      .define("SNAPDIFF_XCUI_SHIM_TARGET"), .define("SNAPDIFF_XCUI_SHIM", .when(platforms: [.linux])),
      // That client is Swift 5 code, as most UI-test bundles are.
      .swiftLanguageMode(.v5),
    ]
  ),
]

/// How `snapdiff` links on Linux (SNAPDIFF_LINK): `static-stdlib`, the default, puts the Swift
/// runtime, Dispatch and FoundationEssentials inside the executable (what `--static-swift-stdlib`
/// does, for `snapdiff` alone); `dynamic` loads them as shared libraries, whose relocations and
/// symbol lookups the dynamic loader does at every start (`compare` of two 1×1 PNGs: 6.3 against
/// 3.4 ms of CPU; docs/performance.md, "Current figures"). Only the executable has the flags: in a
/// test bundle that linked it they would put a second Swift runtime beside XCTest's (so no test
/// target depends on `snapdiff`; `swift test` builds it anyway), and SwiftPM refuses unsafe flags
/// in the closure of a product used from a package by version, which SnapdiffTesting's closure
/// stays out of (scripts/check_test_api_closure.py checks). macOS has the Swift runtime in the
/// system and no static one: the flags are Linux's.
let linksSwiftStatically = ProcessInfo.processInfo.environment["SNAPDIFF_LINK"] != "dynamic"
let staticSwiftStdlib: [String] = linksSwiftStatically ? ["-static-stdlib"] : []

/// The engine, the CLI, the service and their tests.
let engineTargets: [Target] = [
  // libpng as found by pkg-config (Debian: libpng-dev); `link "png16"` in the module map is the
  // fallback when the .pc file is missing.
  .systemLibrary(
    name: "CLibPNG",
    pkgConfig: "libpng",
    providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
  ),
  // snapdiff's C code, one target a job (as libdeflate keeps its x86/ and arm/ code apart).
  // The one run-time CPU-feature check (cpuid, asked once a process): the decoder's SSSE3 and
  // SSE4.1 rows and SHA-256's SHA extensions ask it. The build targets plain x86-64.
  .target(name: "CCPUFeatures"),
  // The PNG codec. The reader: libpng's classic read API with its own setjmp (Swift cannot call
  // setjmp; raw samples, header checks before any allocation, rows decoded straight into a
  // caller's buffer) and a fast path for 8-bit RGB/RGBA files (CPNGFastDecode.c: chunks walked
  // here, inflated by libdeflate, rows unfiltered with SSE). The writers (CPNGWriter.c): the fast
  // one for diff images and the compact one for baselines (row filters chosen as libpng does,
  // CPNGFilters.c; libdeflate).
  .target(
    name: "CPNGCodec",
    dependencies: ["CLibPNG", "CDeflate", "CCPUFeatures"] + (hasLibdeflate ? ["CLibdeflate"] : []),
    cSettings: hasLibdeflate ? [.define("CPNG_HAVE_LIBDEFLATE")] : [],
    linkerSettings: hasLibdeflate ? [.linkedLibrary("deflate")] : []
  ),
  // A deflate encoder for diff images' palette scanlines that matches runs and the row above
  // (CRunDeflate.c), for the fast writer.
  .target(name: "CDeflate"),
  // SHA-256 with the x86-64 SHA extensions where the processor has them (CSHA256.c), for the
  // blob store; SnapdiffCore's SHA256 keeps plain-Swift rounds for the rest.
  .target(name: "CHashing", dependencies: ["CCPUFeatures"]),
  // LittleCMS (Debian: liblcms2-dev): PNG colour profiles (iCCP, sRGB, gAMA/cHRM) converted
  // to sRGB when two images' profiles differ. A kept library rather than hand-written ICC code.
  .systemLibrary(
    name: "CLCMS2",
    pkgConfig: "lcms2",
    providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
  ),
  // zlib's `uncompress`, for the ICC profile inside an iCCP chunk (libpng's simplified API
  // does not hand it out).
  .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
  // LZ4 (Debian: liblz4-dev): the cache of decoded baselines holds LZ4 blocks, which come back
  // several times faster than a PNG decodes (scripts/bench/check_cache.sh; docs/performance.md).
  .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]),
  .target(name: "SnapdiffCore", dependencies: ["SnapdiffModel", "CLibPNG", "CPNGCodec", "CHashing", "CLCMS2", "CZlib", "CLZ4"]),
  // `snapdiff serve`: the API, the review page and the run index. Only this target and
  // `snapdiff-serve` link Hummingbird and GRDB; SnapdiffCore and `snapdiff` stay free of them.
  .target(
    name: "SnapdiffServer",
    dependencies: [
      "SnapdiffCore", "SnapdiffWire",
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "HummingbirdCore", package: "hummingbird"),
      .product(name: "GRDB", package: "GRDB.swift"),
      // `--database postgres://…`: runs, records, approvals and locks in PostgreSQL, so several
      // instances behind a load balancer serve the same runs (SQLite stays the default).
      .product(name: "PostgresNIO", package: "postgres-nio"),
      .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      // `/metrics` (Prometheus text) and structured request logs; only the server links them.
      .product(name: "Metrics", package: "swift-metrics"),
      .product(name: "Prometheus", package: "swift-prometheus"),
      .product(name: "Logging", package: "swift-log"),
    ],
    exclude: ["openapi.yaml"]
  ),
  .target(
    name: "SnapdiffCLI",
    dependencies: [
      "SnapdiffCore", "SnapdiffWire",
      .product(name: "ArgumentParser", package: "swift-argument-parser"),
    ]
  ),
  // Compiled with -static-stdlib too: the modules it imports then name the libraries the static
  // FoundationEssentials needs (_FoundationCShims, _FoundationCollections) for the linker.
  .executableTarget(
    name: "snapdiff", dependencies: ["SnapdiffCLI"],
    swiftSettings: [.unsafeFlags(staticSwiftStdlib, .when(platforms: [.linux]))],
    linkerSettings: [.unsafeFlags(staticSwiftStdlib, .when(platforms: [.linux]))]
  ),
  // `snapdiff serve` runs this executable in its place (the CLI's options, the server linked).
  .target(
    name: "SnapdiffServeCommand",
    dependencies: [
      "SnapdiffCLI", "SnapdiffServer",
      .product(name: "ArgumentParser", package: "swift-argument-parser"),
    ]
  ),
  .executableTarget(name: "snapdiff-serve", dependencies: ["SnapdiffServeCommand"]),
  // `swift package snapdiff check …`: a team that depends on this package runs the CLI without
  // installing it; the plugin has SwiftPM build `snapdiff` in release, then runs it in the
  // package's folder. Writing runs and baselines there needs the package folder's permission.
  .plugin(
    name: "SnapdiffCommand",
    capability: .command(
      intent: .custom(
        verb: "snapdiff", description: "Run snapdiff (check, status, approve, merge, …), built in release."),
      permissions: [
        .writeToPackageDirectory(
          reason: "snapdiff check writes its runs to .snapdiff/ and new baselines to baselines/.")
      ])
  ),
  // The example app whose screens the example suite snapshots (dogfooding SnapdiffTesting).
  .target(name: "ExampleApp", dependencies: ["SnapdiffCore"]),
  .testTarget(
    name: "SnapdiffCoreTests",
    dependencies: ["SnapdiffCore", "SnapdiffTestSupport"],
    exclude: ["Fixtures"]
  ),
  .testTarget(
    name: "ExampleAppSnapshotTests",
    dependencies: ["ExampleApp", "SnapdiffTesting", "SnapdiffCore"]
  ),
  .testTarget(
    name: "SnapdiffServerTests",
    dependencies: [
      "SnapdiffServer", "SnapdiffCore", "SnapdiffTesting", "snapdiff-serve", "SnapdiffTestSupport",
      .product(name: "HummingbirdTesting", package: "hummingbird"),
      .product(name: "GRDB", package: "GRDB.swift"),
    ]
  ),
  .testTarget(
    name: "SnapdiffCLITests",
    dependencies: ["SnapdiffCLI", "SnapdiffCore", "snapdiff-serve", "SnapdiffTestSupport"]
  ),
  .testTarget(
    name: "SnapdiffTestingTests",
    dependencies: ["SnapdiffTesting", "SnapdiffCore", "SnapdiffTestSupport"]
  ),
]

let package = Package(
  name: "snapdiff",
  // iOS and tvOS 15: the test-side API (SnapdiffTesting) only; the engine, CLI and service need
  // libpng. macOS 14: Hummingbird 2, which the service is built on, declares macOS 14, and SwiftPM
  // refuses a package whose targets depend on a product with a higher minimum than their own (a
  // package has one minimum per platform for all its targets). Xcode 16, which this manifest's
  // tools version needs, runs on macOS 14.5 or later anyway. iOS and tvOS are unaffected: a team
  // that depends on SnapdiffTesting for iOS builds none of the server's packages.
  // scripts/check_apple_availability.py holds the test API's code to these minimums.
  platforms: [.macOS(.v14), .iOS(.v15), .tvOS(.v15)],
  products: [.library(name: "SnapdiffTesting", targets: ["SnapdiffTesting"])]
    + (testAPIOnly
      ? []
      : [
        .library(name: "SnapdiffCore", targets: ["SnapdiffCore"]),
        .library(name: "SnapdiffCLI", targets: ["SnapdiffCLI"]),
        .executable(name: "snapdiff", targets: ["snapdiff"]),
        .executable(name: "snapdiff-serve", targets: ["snapdiff-serve"]),
        .plugin(name: "SnapdiffCommand", targets: ["SnapdiffCommand"]),
      ]),
  dependencies: testAPIOnly
    ? []
    : [
      .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
      // `snapdiff serve`: the HTTP service (Hummingbird 2) and its run index (SQLite through GRDB).
      .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
      .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
      // The service's state on PostgreSQL, for more than one instance (`serve --database`).
      .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
      .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
      // The service's `/metrics` and request logs (SnapdiffServer only; swift-log and
      // swift-metrics come with Hummingbird already).
      .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
      .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
      .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
      // `swift package generate-documentation --target SnapdiffTesting` (DocC, the catalogues in
      // Sources/*/*.docc). A command plugin: no target depends on it and `swift build` builds none
      // of it; outside the test API's manifest (SNAPDIFF_TEST_API_ONLY) like every other package.
      .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
  targets: testAPITargets + (testAPIOnly ? [] : engineTargets + libdeflateTargets)
)
