// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Docket",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "docket", targets: ["docket"])
  ],
  targets: [
    // System library: the SQLite that the operating system ships (with FTS5).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),

    // Libraries that know nothing of issues.
    // A lock the thread sanitizer can see (the standard library's Mutex it cannot, on Linux).
    .target(name: "Locking"),
    // Writing bytes whole and replacing a file whole, with the system's error numbers.
    .target(name: "Files"),
    .target(name: "Database", dependencies: ["CSQLite", "Locking"]),
    // Loads a library when first needed (libpq, libmicrohttpd, libqrencode), with a message that
    // says what to install when it is missing.
    .target(name: "CLibraryLoader"),
    // libpq, PostgreSQL's client, loaded when a PostgreSQL remote is first used (not linked).
    .target(name: "CPostgres", dependencies: ["CLibraryLoader"]),
    .target(name: "Postgres", dependencies: ["CPostgres", "Locking"]),
    // JSON read strictly from UTF-8 bytes, with the line and column of any error.
    .target(name: "JSONText"),
    .target(name: "Localization", dependencies: ["Locking", "JSONText"]),
    // libmicrohttpd, the HTTP server of `docket serve`, loaded when the server starts (not
    // linked); its header comes from libmicrohttpd-dev (Debian) or libmicrohttpd (Homebrew).
    .target(
      name: "CMicroHTTPD",
      dependencies: ["CLibraryLoader"],
      cSettings: [
        .unsafeFlags(
          ["-I/opt/homebrew/include", "-I/usr/local/include"], .when(platforms: [.macOS]))
      ]
    ),
    .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
    // libqrencode, for the QR code `docket serve` shows, loaded when first needed (not linked).
    .target(name: "CQRCode", dependencies: ["CLibraryLoader"]),
    // libsodium, the cryptography of encrypted sync, loaded when an encrypted remote is first
    // used (not linked).
    .target(name: "CSodium", dependencies: ["CLibraryLoader"]),
    .target(name: "CTerminal"),
    .target(name: "Terminal", dependencies: ["CTerminal"]),
    .target(name: "Composable", dependencies: ["Locking"], exclude: ["README.md"]),
    .target(name: "ComposableTesting", dependencies: ["Composable", "Locking"]),

    // Build tools: a text file made into a Swift string literal in the build folder.
    .executableTarget(name: "DocketEmbed", dependencies: ["Localization"]),
    .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["DocketEmbed"]),

    // Docket itself.
    .target(
      name: "DocketCore",
      dependencies: ["Database", "Localization", "Files"],
      // The catalog is embedded in the code at build time (the EmbedResources plugin).
      exclude: ["Resources/Localizable.xcstrings"],
      plugins: ["EmbedResources"]
    ),
    .target(
      name: "DocketFeatures",
      dependencies: ["Composable", "DocketCore", "DocketSync", "Database", "Localization"]),
    .target(name: "DocketTransfer", dependencies: ["DocketCore", "Database", "JSONText"]),
    .target(
      name: "DocketSync",
      dependencies: [
        "DocketCore", "DocketTransfer", "Database", "Localization", "Postgres", "Locking", "Files",
        "JSONText", "CSodium",
      ]),
    .target(
      name: "DocketWeb",
      dependencies: [
        "DocketCore", "DocketSync", "DocketTransfer", "Database", "Localization", "HTTPServer",
        "JSONText",
      ],
      // The script and style are embedded in the code at build time (the EmbedResources plugin).
      exclude: ["Assets"], plugins: ["EmbedResources"]),
    .target(
      name: "DocketCLI",
      dependencies: [
        "DocketCore", "DocketTransfer", "DocketSync", "Database", "Localization", "Terminal",
        "Postgres", "DocketWeb", "Files", "CQRCode", "JSONText",
      ]),
    .target(
      name: "DocketTUI",
      dependencies: [
        "DocketFeatures", "DocketCore", "DocketSync", "Composable", "Terminal", "Localization",
        "Database", "Locking",
      ]),
    .executableTarget(name: "docket", dependencies: ["DocketCLI", "DocketTUI", "DocketCore"]),
    .executableTarget(
      name: "DocketBench",
      dependencies: [
        "DocketCore", "Database", "DocketTUI", "DocketFeatures", "Composable", "Terminal",
        "DocketTransfer", "DocketSync", "JSONText",
      ]),

    // The fuzz targets (`scripts/fuzz.sh`): built with libFuzzer by `make stress` and `make test`;
    // in a plain build, `docket-fuzz TARGET FILE…` runs saved inputs through a target.
    .target(name: "CFuzzer"),
    .target(
      name: "DocketFuzz",
      dependencies: [
        "DocketCore", "DocketCLI", "DocketSync", "DocketTransfer", "DocketWeb", "HTTPServer",
        "Terminal", "Localization", "Database", "JSONText",
      ]),
    .executableTarget(name: "docket-fuzz", dependencies: ["DocketFuzz", "CFuzzer"]),

    // What the test suites share: a test clock, ids in order, a folder of a test's own, and the
    // way a test makes its tags and issues.
    .target(name: "DocketTestSupport", dependencies: ["Locking", "Database", "DocketCore"]),
    .testTarget(name: "DatabaseTests", dependencies: ["Database", "Locking", "DocketTestSupport"]),
    .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
    .testTarget(name: "JSONTextTests", dependencies: ["JSONText"]),
    .testTarget(name: "DocketEmbedTests", dependencies: ["DocketEmbed"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
    .testTarget(name: "FilesTests", dependencies: ["Files"]),
    .testTarget(
      name: "DocketCoreTests",
      dependencies: ["DocketCore", "Database", "Locking", "DocketTestSupport"]),
    .testTarget(
      name: "DocketTransferTests",
      dependencies: ["DocketTransfer", "DocketCore", "Database", "JSONText"]),
    .testTarget(
      name: "DocketSyncTests",
      dependencies: [
        "DocketSync", "DocketTransfer", "DocketCore", "Database", "Postgres", "Locking",
        "DocketTestSupport",
      ]),
    .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Locking"]),
    .testTarget(name: "CLibraryLoaderTests", dependencies: ["CLibraryLoader"]),
    .testTarget(
      name: "DocketWebTests",
      dependencies: [
        "DocketWeb", "DocketCore", "DocketSync", "Database", "HTTPServer", "Localization",
        "Locking", "DocketTestSupport",
      ]),
    .testTarget(name: "ComposableTests", dependencies: ["Composable", "ComposableTesting"]),
    .testTarget(
      name: "DocketCLITests",
      dependencies: [
        "DocketCLI", "DocketCore", "Database", "docket", "Locking", "Terminal", "DocketWeb",
        "DocketTestSupport",
      ]),
    .testTarget(
      name: "DocketTUITests",
      dependencies: [
        "DocketTUI", "DocketFeatures", "DocketCore", "DocketSync", "Database", "Composable",
        "ComposableTesting", "Terminal", "docket", "Locking",
      ],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "DocketFeaturesTests",
      dependencies: [
        "DocketFeatures", "DocketCore", "DocketSync", "Database", "Composable", "ComposableTesting",
        "Locking", "DocketTestSupport",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
