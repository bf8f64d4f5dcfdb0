import Foundation

/// A file in a remote that sync left alone, and why.
public struct SkippedPackage: Equatable, Sendable {
  /// Where it is, relative to the remote.
  public var path: String
  public var problem: SkippedProblem
}

public enum SkippedProblem: Equatable, Sendable {
  /// A name Docket does not write: a sync tool's conflicted copy, or a file put there by hand.
  case unknownName
  /// A symbolic link: never followed (it could lead anywhere on this machine).
  case link
  /// A pipe, a device or a folder where a file should be.
  case notAFile
  case unreadable(String)
  case package(PackageProblem)
}

/// What a remote holds: the packages it lists, and what it had to skip to list them.
public struct RemoteListing: Sendable {
  public var packages: [PackageName]
  public var skipped: [SkippedPackage]
  /// The size of each package, as the remote has it (a folder's file, a server's row).
  public var sizes: [PackageName: Int64]
  /// What each entry listed is now, by its path (its size and time of change): a file warned
  /// about once is not warned about again while it stays as it is.
  public var identities: [String: String]

  public init(
    packages: [PackageName], skipped: [SkippedPackage], sizes: [PackageName: Int64] = [:],
    identities: [String: String] = [:]
  ) {
    self.packages = packages
    self.skipped = skipped
    self.sizes = sizes
    self.identities = identities
  }
}

/// Why a remote could not be used at all.
public struct RemoteError: Error, Equatable, Sendable {
  public enum Problem: Equatable, Sendable {
    /// The place does not exist (a folder that is gone or unmounted).
    case missing
    /// The server is there but the space is not (never made, or dropped since).
    case spaceMissing
    /// The system's reason ("Permission denied", "No space left on device").
    case system(String)
    /// Set up by a newer Docket.
    case newerVersion(Int)
    /// Holds something that is not a Docket remote.
    case notARemote
    /// Another remote than the one this sync began with is there now (a mount that went away
    /// and left an empty folder, a folder replaced).
    case replaced
    /// The server refused for want of rights (the role may read the space but not write it, or
    /// may not use it at all): its reason.
    case denied(String)
    /// The connection to the server was lost, or could not be made: its reason. The sync stops
    /// rather than skipping package after package.
    case unreachable(String)
    /// A package of this device's of the number it was writing is there already, written by
    /// another database under the same device id (a copy of this one).
    case numberTaken
    /// This device's folder in the remote folder is not a folder (a link, a file, in its place):
    /// nothing is written or removed through it.
    case notOwnFolder
    /// Encrypted, and this device holds no key for it: its passphrase is needed.
    case encrypted
    /// Encrypted, and the key this device keeps does not open it (its record changed by hand).
    case keyRefused
    /// This device keeps a key for it, but it says it is not encrypted: its marker was replaced
    /// or changed by hand. Nothing plain is written into it.
    case noLongerEncrypted
    /// Encrypted, and the library that opens it is missing: what to install.
    case sealingUnavailable(String)
  }

  /// The path or address, and the file where it failed when there is one.
  public var location: String
  public var problem: Problem

  public init(location: String, problem: Problem) {
    self.location = location
    self.problem = problem
  }
}

/// Where sync exchanges packages. A device writes only its own packages and reads everyone's.
/// The engine talks to a remote only through this, so that other kinds plug in beside the folder.
public protocol SyncRemote: Sendable {
  /// Checks the remote and makes what it needs; fails with a clear `RemoteError`. Returns the
  /// remote's id, which names it in the database's record of what was pushed and read. With
  /// `expecting`, makes nothing, and fails unless the remote is still the one of that id.
  func prepare(expecting: String?) throws -> String
  /// Every package there, with what was skipped.
  func list() throws -> RemoteListing
  func read(_ name: PackageName) throws -> Package
  /// A package fetched and not yet decoded, to be handed on a part at a time
  /// (`PackageParts`): what a large snapshot is read with. By default, `read` whole, one part.
  func readParts(_ name: PackageName) throws -> PackageParts
  /// A package's header alone (who wrote it, what a snapshot covers), without its changes.
  func header(_ name: PackageName) throws -> Package
  /// Writes one of this device's packages: all of it or, if it fails, nothing a reader can see.
  func write(_ package: Package) throws
  /// Writes several of this device's packages at once, all or none (a push as one transaction).
  /// Nil when the remote writes one package at a time (a folder: each file whole, then the next).
  var writesTogether: (([Package]) throws -> Void)? { get }
  /// Why this device may not push here, asked before a push is made (nil: it may, or the remote
  /// cannot tell before trying).
  func writeRefusal() throws -> String?
  /// Removes one of this device's packages.
  func remove(_ name: PackageName) throws
  /// Copies a snapshot's database image to a new file at `path`: false when the remote has none
  /// to give (or it does not open), and the snapshot serves alone.
  func copyImage(_ name: PackageName, to path: String) -> Bool
  /// Writes one of this device's images: `make` writes it at the path it is given, which then
  /// goes into place whole.
  func writeImage(_ name: PackageName, _ make: (String) throws -> Void) throws
  /// The same remote, writing as another device (this database's new id, or the id it had).
  func forDevice(_ device: String) -> any SyncRemote

  // Encryption (`RemoteKeyRecord`): a remote with a key seals what it writes and opens what it
  // reads, and `prepare` fails unless the remote is encrypted with that key; one without a key
  // fails to prepare an encrypted remote (`.encrypted`).

  /// The same remote, reading and writing with `key` (nil: plain).
  func withKey(_ key: SyncKey?) -> any SyncRemote
  /// Whether it reads and writes with a key.
  var isSealed: Bool { get }
  /// How errors name it: a folder's path, a server's address and space.
  var location: String { get }
  /// The size the remote lists for a package of the bytes `plain` (sealed, its framing and
  /// padding added; in Base64 on a server).
  func storedSize(of plain: [UInt8]) -> Int
  /// The remote's id and the record of its key (nil: not encrypted), as `prepare` would find
  /// them, making the remote as `prepare` would when it is not there yet; no key is needed.
  func keyRecord() throws -> (id: String, record: RemoteKeyRecord?)
  /// Makes `record` the remote's, where the remote's record is still `replacing` (nil: it was
  /// plain); fails with `SealingError.raced` when another device changed it first.
  func setKeyRecord(_ record: RemoteKeyRecord, replacing: RemoteKeyRecord?) throws
  /// Seals one of this device's packages or images that was written plain (before the remote
  /// was encrypted), in place; one sealed already is left as it is.
  func reseal(_ name: PackageName) throws
}

/// A package found on its remote and checked to be whole, its changes decoded a part at a time
/// as they are handed on (`PackageFormat.decodeInParts`), from bytes fetched or, for a folder,
/// read from its file as they go. A change that cannot be read throws `SkippedPackage` when its
/// part is reached. Gone through once.
public struct PackageParts {
  private let each: (_ partSize: Int, _ body: (Package) throws -> Void) throws -> Void

  public init(_ each: @escaping (_ partSize: Int, _ body: (Package) throws -> Void) throws -> Void)
  {
    self.each = each
  }

  /// Hands `body` the package's changes, at most `partSize` at a time, each part with the
  /// package's name, device name and covers.
  public func forEach(partSize: Int, _ body: (Package) throws -> Void) throws {
    try each(partSize, body)
  }
}

extension SyncRemote {
  public func readParts(_ name: PackageName) throws -> PackageParts {
    let package = try read(name)
    return PackageParts { _, body in try body(package) }
  }
  public var writesTogether: (([Package]) throws -> Void)? { nil }
  public func writeRefusal() throws -> String? { nil }
  // A remote that cannot be encrypted (a test's stand-in): always plain.
  public func withKey(_ key: SyncKey?) -> any SyncRemote { self }
  public var isSealed: Bool { false }
  public var location: String { "remote" }
  public func storedSize(of plain: [UInt8]) -> Int { plain.count }
  public func keyRecord() throws -> (id: String, record: RemoteKeyRecord?) {
    (try prepare(expecting: nil), nil)
  }
  public func setKeyRecord(_ record: RemoteKeyRecord, replacing: RemoteKeyRecord?) throws {
    throw SealingError.notEncrypted
  }
  public func reseal(_ name: PackageName) throws {}
}

/// A remote that keeps each package as the bytes `PackageFormat` writes (a folder's files, a
/// server's rows): reading one is decoding its bytes, whole or a part at a time.
public protocol PackageStore: SyncRemote {
  /// A package's bytes as written (opened, in an encrypted remote); fails as the remote fails
  /// (`RemoteError`), or with the package skipped when it is gone or does not open.
  func bytes(of name: PackageName) throws -> [UInt8]
}

extension PackageStore {
  public func read(_ name: PackageName) throws -> Package {
    let bytes = try bytes(of: name)
    return try Self.naming(name) { try PackageFormat.decode(bytes, expected: name) }
  }

  public func readParts(_ name: PackageName) throws -> PackageParts {
    let bytes = try bytes(of: name)
    return PackageParts { partSize, body in
      try Self.naming(name) {
        try PackageFormat.decodeInParts(bytes, expected: name, partSize: partSize, body)
      }
    }
  }

  /// Runs `body`, which decodes the package `name`: a fault of the package is said as that
  /// package skipped.
  static func naming<Value>(_ name: PackageName, _ body: () throws -> Value) throws
    -> Value
  {
    do { return try body() } catch let problem as PackageProblem {
      throw SkippedPackage(path: name.description, problem: .package(problem))
    }
  }
}
