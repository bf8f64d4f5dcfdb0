import DocketCore
import Files
import Foundation
import Locking
import Postgres

/// A PostgreSQL server as a remote, for a team or many devices. Several trackers share one
/// database, each in its own space: a schema `docket_<space>` that the first device to use it
/// makes, versioned (its `space` row) so that a later Docket can migrate it:
///
///     docket_acme.space      id, version, created        one row: the remote's id
///     docket_acme.packages   device, kind, number, device_name, header, size, written
///     docket_acme.parts      device, kind, number, part, body     a package's lines, in parts
///     docket_acme.images     device, number, part, data           a snapshot's database image
///
/// Packages are the folder remote's, in rows: each device writes its own, numbered 1, 2, … by
/// itself, and reads everyone's. A package and its parts go in in one transaction, with a
/// `NOTIFY docket_<space>` that the app listens for, so a reader sees a whole package or none.
///
/// Why a pull never misses a package that a concurrent pusher commits late: a global sequence
/// would not do. Its values are taken when rows are inserted and become visible when their
/// transactions commit, in another order (A takes 7, B takes 8, B commits, a reader sees 8 and
/// moves its mark past 7, A commits 7: never read). Here there is no global order to fall behind
/// on. A reader's position in the server is, for each device, the highest number up to which it
/// has read every package (and the packages read beyond it, out of order), and it lists the
/// packages there each time. A device's numbers are its own and dense: it writes package n + 1
/// only after package n has committed (one sync of a database at a time, a lock), and the
/// primary key refuses a second writer of the same number. So a package that is not visible yet
/// is one the reader has not passed: it is read by the first sync after its commit, and a reader
/// that found n + 1 before n (however it could) still holds its mark at n - 1 until n is read.
/// A push whose commit the client never heard of (the connection cut at the wrong moment) is
/// there when the next sync lists the packages, and that sync numbers on after it.
///
/// An encrypted space is of version 2 (an older Docket refuses it) and keeps the record of its key
/// in its `space` row (`sealing`). Its packages are sealed (`SealedBytes`) and kept as Base64
/// text: `header` holds the sealed first part alone, `device_name` is empty, and no notification
/// says more than a device's random id.
///
/// Rights are the server's: a role that may only read the space pulls, and its pushes are refused
/// (`RemoteError.Problem.denied`). Docket never keeps a password: libpq takes it from `~/.pgpass`
/// or `PGPASSWORD`, and `docket remote set` moves one given in the address to the password file.
public final class PostgresRemote: PackageStore, @unchecked Sendable {
  /// The connection string as the user gave it (a `postgres://` URL), without a password.
  public let address: String
  public let space: String
  public let device: String
  /// The key of an encrypted space; nil for a plain one.
  public let key: SyncKey?
  /// For tests: runs inside a push's transaction, before it commits (a connection cut there).
  public var beforeCommit: (@Sendable (PostgresConnection) throws -> Void)?
  /// How long a statement waits without a word from the server (`PostgresConnection`).
  public var silence: Duration = PostgresConnection.silenceLimit
  /// How long the server keeps a transaction whose client has gone silent: less than
  /// `silence`, so that by the time the client gives up the server has let go of its locks.
  public var serverIdleLimit: Duration = .seconds(20)

  let connection = Locked<PostgresConnection?>(nil)

  /// The space a remote set without one uses.
  public static let defaultSpace = "default"
  /// The version of the space's tables this Docket writes, and the newest it reads (an encrypted
  /// space's).
  public static let version = 1
  public static let sealedVersion = 2
  /// A part of a package holds whole lines, up to about this many bytes.
  static let partBytes = 1 << 20
  /// Parts fetched at a time through a package's cursor.
  static let fetchParts = 8
  /// The largest part read (Docket writes about `partBytes`; images the same).
  static let largestPart: Int64 = 4 << 20
  /// The longest header read (a snapshot's names every device it covers).
  static let headerLimit = 1 << 20

  public init(address: String, space: String, device: String, key: SyncKey? = nil) {
    self.address = address
    self.space = space
    self.device = device
    self.key = key
  }

  /// An address with any password in it replaced by `***`, for a message about the address.
  public static func redacted(_ address: String) -> String { RemoteAddress.redacted(address) }

  /// A space's name: lower-case letters, digits, `-` and `_`, starting with a letter or digit, at
  /// most 40 characters (it names a schema and a notification channel).
  public static func isValidSpace(_ name: String) -> Bool {
    guard let first = name.utf8.first, name.utf8.count <= 40,
      first.isASCIILowercaseLetterOrDigit
    else { return false }
    return name.utf8.allSatisfy { $0.isASCIILowercaseLetterOrDigit || $0 == 0x2D || $0 == 0x5F }
  }

  /// The schema, and the channel of notifications.
  public static func schemaName(space: String) -> String { "docket_" + space }
  var schema: String { PostgresConnection.identifier(Self.schemaName(space: space)) }

  /// How errors name this remote: the address and the space.
  public var location: String { "\(Self.redacted(address)) [\(space)]" }

  /// Connection parameters that the address may override: a server that does not answer fails
  /// within seconds, and one that goes away is noticed by TCP keepalives (an idle connection)
  /// and by `tcp_user_timeout` (data sent and never acknowledged, for 30 s); a server that stays
  /// silent however the network looks ends a statement after `PostgresConnection.silenceLimit`.
  static let connectionDefaults: [(String, String)] = [
    ("connect_timeout", "10"), ("application_name", "docket"), ("keepalives", "1"),
    ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
    ("tcp_user_timeout", "30000"),
  ]

  /// Runs after each BEGIN. On the server's side, a transaction left open by a client that went
  /// silent (a laptop's network gone mid-push) ends after 20 s of waiting for it, before the
  /// client itself gives up (`PostgresConnection.silenceLimit`, 30 s), so that the sync after it
  /// finds no lock held; a statement runs at most a minute and waits at most 30 s for a lock.
  /// Set per transaction, not per connection: a connection pooler passes these on.
  func limitTransaction(_ db: PostgresConnection) throws(PostgresError) {
    // One round trip: `set_config(…, true)` is `SET LOCAL`.
    try db.execute(
      """
      SELECT set_config('idle_in_transaction_session_timeout', $1, true),
        set_config('statement_timeout', '60s', true), set_config('lock_timeout', '30s', true)
      """, ["\(max(1, Self.milliseconds(serverIdleLimit)))ms"])
  }

  static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }

  // MARK: - SyncRemote

  /// Whether this role may push: without the right to add packages, the server's words for the
  /// refusal (nil: it may). Removing its own packages (compaction) is asked for when it happens.
  public func writeRefusal() throws -> String? {
    let rows = try perform { db throws(PostgresError) in
      try db.execute(
        "SELECT has_table_privilege($1, 'INSERT'), has_table_privilege($2, 'INSERT')",
        ["\(schema).packages", "\(schema).parts"])
    }
    guard let row = rows.rows.first else { return "permission denied for table packages" }
    if row[0] != "t" { return "permission denied for table packages" }
    if row[1] != "t" { return "permission denied for table parts" }
    return nil
  }

  public func list() throws -> RemoteListing {
    let rows = try perform { db throws(PostgresError) in
      try db.execute(
        """
        SELECT device, kind, number, size, extract(epoch FROM written)
        FROM \(schema).packages ORDER BY 1, 2, 3
        """)
    }
    var listing = RemoteListing(packages: [], skipped: [])
    for row in rows.rows {
      let device = row[0] ?? ""
      let kind = row[1].flatMap(PackageName.Kind.init(rawValue:))
      let number = row[2].flatMap(Int64.init) ?? 0
      let identity = "\(row[3] ?? "") \(row[4] ?? "")"
      // Rows Docket did not write (put in by hand) are named and left alone.
      guard let kind, number > 0, UUID(text: device)?.lowercasedText == device else {
        let path = "\(device)/\(row[1] ?? "")/\(row[2] ?? "")"
        listing.skipped.append(SkippedPackage(path: path, problem: .unknownName))
        listing.identities[path] = identity
        continue
      }
      let name = PackageName(device: device, kind: kind, number: number)
      listing.packages.append(name)
      listing.sizes[name] = row[3].flatMap(Int64.init) ?? 0
      listing.identities[name.description] = identity
    }
    return listing
  }

  public func bytes(of name: PackageName) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try packageParts(of: name) { bytes += $0.utf8 }
    guard !bytes.isEmpty else {
      throw SkippedPackage(path: name.description, problem: .unreadable("gone from the server"))
    }
    guard let key else { return bytes }
    return try Self.naming(name) {
      try SealedBytes.open(try Self.unbased(bytes[...]), name: name, key: key)
    }
  }

  /// Base64 text as bytes; a plain package (which is no Base64) is `.notSealed`.
  static func unbased(_ text: ArraySlice<UInt8>) throws(PackageProblem) -> [UInt8] {
    guard let data = Data(base64Encoded: Data(text)) else { throw .notSealed }
    return Array(data)
  }

  /// Hands `each` a package's parts in order, after checking that together they are within the
  /// limit of its kind (what the server says the rows hold, not what the pusher said).
  private func packageParts(of name: PackageName, _ each: (String) throws -> Void) throws {
    var limit = PackageFormat.limit(name.kind)
    // Sealed, and in Base64: four characters for three bytes.
    if key != nil { limit = SealedBytes.sealedLimit(limit) / 3 * 4 + 4 }
    let (_, tooLarge) = try parts(
      of: name, table: "parts", column: "body",
      where: "device = $1 AND kind = $2 AND number = $3",
      [name.device, name.kind.rawValue, String(name.number)], limit: limit
    ) { part in
      try each(part)
      return []
    }
    if tooLarge {
      throw SkippedPackage(path: name.description, problem: .package(.tooLarge(limit: limit)))
    }
  }

  /// A snapshot fetched into a temporary file (removed when this remote goes), then read from
  /// it a part at a time as it is applied: in bounded memory, and with nothing fetched from the
  /// server while the database's write lock is held.
  public func readParts(_ name: PackageName) throws -> PackageParts {
    if let key, name.kind == .snapshot { return try sealedSnapshot(name, key) }
    guard name.kind == .snapshot else {
      let bytes = try bytes(of: name)
      return PackageParts { partSize, body in
        try Self.naming(name) {
          try PackageFormat.decodeInParts(bytes, expected: name, partSize: partSize, body)
        }
      }
    }
    let file = NSTemporaryDirectory() + "docket-snapshot-\(UUID().lowercasedText)"
    let descriptor = FileWriting.createPrivate(file)
    guard descriptor >= 0 else {
      throw RemoteError(location: file, problem: .system(String(cString: strerror(errno))))
    }
    // Gone from the folder at once: the descriptor alone reads it, and nothing is left behind
    // however the process ends.
    unlink(file)
    var written: Int64 = 0
    do {
      try packageParts(of: name) { part in
        var part = part
        let failure = part.withUTF8 { FileWriting.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
        if let failure {
          throw RemoteError(location: file, problem: .system(FileWriting.reason(failure)))
        }
        written += Int64(part.utf8.count)
      }
    } catch {
      close(descriptor)
      throw error
    }
    guard written > 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
      close(descriptor)
      throw SkippedPackage(path: name.description, problem: .unreadable("gone from the server"))
    }
    return try FolderRemote.parts(of: LinesFromFile(descriptor: descriptor), name: name, file: file)
  }

  /// A sealed snapshot opened into a file of this machine's own as its parts are fetched, whole
  /// before anything is handed on, then read from it a part at a time.
  private func sealedSnapshot(_ name: PackageName, _ key: SyncKey) throws -> PackageParts {
    let plain = try SealedBytes.privateFile()
    var fetched = false
    do {
      try SealedBytes.open(name: name, key: key, into: plain) { take in
        try packageParts(of: name) { part in
          fetched = true
          try take(try Self.unbased(ArraySlice(part.utf8))[...])
        }
      }
    } catch {
      close(plain)
      throw error
    }
    guard fetched, lseek(plain, 0, SEEK_SET) == 0 else {
      close(plain)
      throw SkippedPackage(path: name.description, problem: .unreadable("gone from the server"))
    }
    return try FolderRemote.parts(
      of: LinesFromFile(descriptor: plain), name: name, file: name.description)
  }

  public func header(_ name: PackageName) throws -> Package {
    let rows = try perform { db throws(PostgresError) in
      try db.execute(
        """
        SELECT CASE WHEN octet_length(header) <= $4 THEN header END
        FROM \(schema).packages WHERE device = $1 AND kind = $2 AND number = $3
        """, [name.device, name.kind.rawValue, String(name.number), String(Self.headerLimit)])
    }
    guard let row = rows.rows.first else {
      throw SkippedPackage(path: name.description, problem: .unreadable("gone from the server"))
    }
    guard let header = row[0] else {
      throw SkippedPackage(
        path: name.description, problem: .package(.tooLarge(limit: Int64(Self.headerLimit))))
    }
    do throws(PackageProblem) {
      guard let key else {
        return try PackageFormat.decodeHeader(ArraySlice(header.utf8), expected: name).package
      }
      let line = try SealedBytes.openFirst(
        try Self.unbased(ArraySlice(header.utf8))[...], name: name, key: key)
      guard line.last == 0x0A else { throw PackageProblem.unsealable }
      return try PackageFormat.decodeHeader(line.dropLast(), expected: name).package
    } catch {
      throw SkippedPackage(path: name.description, problem: .package(error))
    }
  }

  public func write(_ package: Package) throws {
    try write([package])
  }

  /// A push's packages in one transaction, with one notification.
  public var writesTogether: (([Package]) throws -> Void)? { { try self.write($0) } }

  func write(_ packages: [Package]) throws {
    // Encoded before the transaction: a large snapshot takes seconds to encode, and the server
    // ends a transaction left idle for `serverIdleLimit`.
    let encoded = packages.map { sealed($0.name, $0.deviceName, PackageFormat.encode($0)) }
    try transaction { db throws(PostgresError) in
      for (name, deviceName, bytes, header) in encoded {
        try insert(name, deviceName, bytes, header: header, db)
      }
      try db.execute(
        "SELECT pg_notify($1, $2)", [Self.schemaName(space: space), device])
    }
  }

  /// A package's rows as they are written: its bytes, its device's name and its header line,
  /// or, in an encrypted space, its sealed bytes and sealed first part in Base64 and no name.
  func sealed(_ name: PackageName, _ deviceName: String, _ plain: [UInt8]) -> (
    PackageName, String, [UInt8], String
  ) {
    guard let key else {
      let headerEnd = plain.firstIndex(of: 0x0A) ?? plain.endIndex
      return (name, deviceName, plain, String(decoding: plain[..<headerEnd], as: UTF8.self))
    }
    let (bytes, headerEnd) = SealedBytes.seal(plain, name: name, key: key)
    return (
      name, "", Array(Data(bytes).base64EncodedData()),
      Data(bytes[..<headerEnd]).base64EncodedString()
    )
  }

  /// Inserts a package and its parts, in the caller's transaction.
  private func insert(
    _ name: PackageName, _ deviceName: String, _ bytes: [UInt8], header: String,
    _ db: PostgresConnection
  ) throws(PostgresError) {
    precondition(name.device == device, "a device writes only its own packages")
    let key = [name.device, name.kind.rawValue, String(name.number)]
    // A snapshot of the same stamp again replaces the old one whole. A change package's number
    // is never written twice: the primary key refuses a second writer of it.
    if name.kind != .changes {
      try db.execute(
        "DELETE FROM \(schema).packages WHERE device = $1 AND kind = $2 AND number = $3", key)
    }
    try db.execute(
      """
      INSERT INTO \(schema).packages (device, kind, number, device_name, header, size)
      VALUES ($1, $2, $3, $4, $5, $6)
      """,
      key + [deviceName, header, String(bytes.count)])
    var start = bytes.startIndex
    var part = 0
    while start < bytes.endIndex {
      // Parts end at a line's end, so that each is whole UTF-8 text.
      var end = min(start + Self.partBytes, bytes.endIndex)
      if end < bytes.endIndex {
        if let newline = bytes[start..<end].lastIndex(of: 0x0A) {
          end = newline + 1
        } else {
          // A line longer than a part (a very long detail): cut between characters, never
          // inside one, so that each part is valid text.
          while end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        }
      }
      try db.execute(
        "INSERT INTO \(schema).parts (device, kind, number, part, body) VALUES ($1, $2, $3, $4, $5)",
        key + [String(part), String(decoding: bytes[start..<end], as: UTF8.self)])
      part += 1
      start = end
    }
  }

  public func forDevice(_ device: String) -> any SyncRemote {
    PostgresRemote(address: address, space: space, device: device, key: key)
  }

  public var isSealed: Bool { key != nil }

  public func storedSize(of plain: [UInt8]) -> Int {
    guard key != nil else { return plain.count }
    // Base64: four characters for each three bytes or part of them.
    return (SealedBytes.sealedCount(plain) + 2) / 3 * 4
  }

  public func withKey(_ key: SyncKey?) -> any SyncRemote {
    PostgresRemote(address: address, space: space, device: device, key: key)
  }

  public func reseal(_ name: PackageName) throws {
    precondition(name.device == device, "a device seals only its own packages")
    guard key != nil else { return }
    let plain = PostgresRemote(address: address, space: space, device: device)
    if name.kind == .image {
      let file = NSTemporaryDirectory() + "docket-image-\(UUID().lowercasedText).sqlite"
      defer { unlink(file) }
      guard plain.copyImage(name, to: file), !SealedBytes.isSealed(Self.firstBytes(file)) else {
        return
      }
      return try writeImage(name) { try FileManager.default.copyItem(atPath: file, toPath: $0) }
    }
    let bytes: [UInt8]
    do { bytes = try plain.bytes(of: name) } catch is SkippedPackage { return }
    // Sealed already: its rows are Base64, which no plain package is.
    guard PackageFormat.checkStartPasses(bytes) else { return }
    let (_, _, sealedBytes, header) = sealed(name, "", bytes)
    try transaction { db throws(PostgresError) in
      try db.execute(
        "DELETE FROM \(schema).packages WHERE device = $1 AND kind = $2 AND number = $3",
        [name.device, name.kind.rawValue, String(name.number)])
      try insert(name, "", sealedBytes, header: header, db)
    }
  }

  /// The first bytes of a file (empty when it cannot be read).
  static func firstBytes(_ file: String) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: file) else { return [] }
    defer { try? handle.close() }
    return Array((try? handle.read(upToCount: SealedBytes.magic.count)) ?? Data())
  }

  public func remove(_ name: PackageName) throws {
    precondition(name.device == device, "a device removes only its own packages")
    try perform { db throws(PostgresError) in
      try db.execute(
        "DELETE FROM \(schema).packages WHERE device = $1 AND kind = $2 AND number = $3",
        [name.device, name.kind.rawValue, String(name.number)])
    }
  }
}

extension UInt8 {
  fileprivate var isASCIILowercaseLetterOrDigit: Bool {
    (0x61...0x7A).contains(self) || (0x30...0x39).contains(self)
  }
}
