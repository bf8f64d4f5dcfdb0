// swift-tools-version: 6.0
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
    .target(name: "Database", dependencies: ["CSQLite"]),
    // libpq, PostgreSQL's client, loaded when a PostgreSQL remote is first used (not linked).
    .target(name: "CPostgres"),
    .target(name: "Postgres", dependencies: ["CPostgres"]),
    .target(name: "Localization"),
    .target(name: "CTerminal"),
    .target(name: "Terminal", dependencies: ["CTerminal"]),
    .target(name: "Composable", exclude: ["README.md"]),
    .target(name: "ComposableTesting", dependencies: ["Composable"]),

    // Docket itself.
    .target(
      name: "DocketCore",
      dependencies: ["Database", "Localization"],
      // The catalog is embedded in the binary (Generated/EmbeddedCatalog.swift, `make catalog`).
      exclude: ["Resources/Localizable.xcstrings"]
    ),
    .target(
      name: "DocketFeatures",
      dependencies: ["Composable", "DocketCore", "DocketSync", "Database", "Localization"]),
    .target(name: "DocketTransfer", dependencies: ["DocketCore", "Database"]),
    .target(
      name: "DocketSync",
      dependencies: ["DocketCore", "DocketTransfer", "Database", "Localization", "Postgres"]),
    .target(
      name: "DocketCLI",
      dependencies: [
        "DocketCore", "DocketTransfer", "DocketSync", "Database", "Localization", "Terminal",
        "Postgres",
      ]),
    .target(
      name: "DocketTUI",
      dependencies: [
        "DocketFeatures", "DocketCore", "DocketSync", "Composable", "Terminal", "Localization",
        "Database",
      ]),
    .executableTarget(name: "docket", dependencies: ["DocketCLI", "DocketTUI", "DocketCore"]),
    .executableTarget(
      name: "DocketBench",
      dependencies: [
        "DocketCore", "Database", "DocketTUI", "DocketFeatures", "Composable", "Terminal",
        "DocketTransfer",
      ]),

    .testTarget(name: "DatabaseTests", dependencies: ["Database"]),
    .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
    .testTarget(name: "DocketCoreTests", dependencies: ["DocketCore", "Database"]),
    .testTarget(
      name: "DocketTransferTests", dependencies: ["DocketTransfer", "DocketCore", "Database"]),
    .testTarget(
      name: "DocketSyncTests",
      dependencies: ["DocketSync", "DocketTransfer", "DocketCore", "Database", "Postgres"]),
    .testTarget(name: "ComposableTests", dependencies: ["Composable", "ComposableTesting"]),
    .testTarget(
      name: "DocketCLITests", dependencies: ["DocketCLI", "DocketCore", "Database", "docket"]),
    .testTarget(
      name: "DocketTUITests",
      dependencies: [
        "DocketTUI", "DocketFeatures", "DocketCore", "DocketSync", "Database", "Composable",
        "ComposableTesting", "Terminal", "docket",
      ],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "DocketFeaturesTests",
      dependencies: [
        "DocketFeatures", "DocketCore", "DocketSync", "Database", "Composable", "ComposableTesting",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
