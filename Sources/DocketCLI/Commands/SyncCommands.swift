import Database
import DocketCore
import DocketSync
import Foundation
import Localization
import Postgres
import Terminal

/// `docket remote set|show|remove`, `docket sync` and `docket history REF`.
struct SyncCommands {
  let context: CommandContext

  private var l10n: Localizer { context.l10n }

  // MARK: - docket remote

  func setRemote() throws {
    let given = context.arguments.arguments.joined(separator: " ")
    if case .postgres = RemoteAddress(given) {
      guard RemoteAddress.isURL(given), let scheme = given.range(of: "://") else {
        return try setPostgresRemote(given.trimmingCharacters(in: .whitespaces))
      }
      // libpq reads the scheme in lower case only.
      return try setPostgresRemote(
        given[..<scheme.lowerBound].lowercased() + given[scheme.lowerBound...])
    }
    // Another kind of address (https://, pg://) is not a folder's path.
    if let scheme = given.range(of: "://"), !given[..<scheme.lowerBound].contains("/") {
      throw CommandFailure.usage(
        l10n("error.remote.scheme", .string(SafeText.sanitized(PostgresRemote.redacted(given)))))
    }
    if context.arguments.value("space") != nil {
      throw CommandFailure.usage(l10n("error.remote.spaceForFolder"))
    }
    let path = Self.absolute(given, environment: context.environment)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw CommandFailure.usage(
          l10n("error.remote.notFolder", .string(SafeText.sanitized(path))))
      }
    } else if mkdir(path, 0o700) != 0 {
      throw CommandFailure.failed(
        l10n(
          "error.remote.system", .string(SafeText.sanitized(path)),
          .string(l10n.systemReason(String(cString: strerror(errno))))))
    }
    // The database never lives in the shared folder: a sync tool copying a live SQLite file
    // corrupts it.
    let database = Self.absolute(context.databasePath, environment: context.environment)
    let real = Self.resolved(path)
    if Self.resolved((database as NSString).deletingLastPathComponent).hasPrefix(real + "/")
      || Self.resolved((database as NSString).deletingLastPathComponent) == real
    {
      throw CommandFailure.usage(
        l10n(
          "error.remote.holdsDatabase", .string(SafeText.sanitized(database)),
          .string(SafeText.sanitized(path))))
    }
    let encrypted = try adopt(path, space: nil, inspect: FolderRemote.isEncrypted(path))
    if context.json {
      context.printJSON(.object([("remote", .string(path)), ("encrypted", .bool(encrypted))]))
      return
    }
    context.console.line(l10n("remote.set", .string(SafeText.sanitized(path))))
    if encrypted { context.console.line(l10n("remote.show.encrypted")) }
    context.console.line(l10n("remote.set.next"))
  }

  /// Makes `address` (and `space`) the remote, and sets up its encryption when asked
  /// (`--encrypt`: a plain remote is encrypted with a new passphrase), when the folder is
  /// encrypted, or when this device has a key or has seen the remote encrypted: an encrypted
  /// remote asks for its passphrase (once); one that is plain now is used plain, on purpose, and
  /// its key forgotten. When that fails, the settings and the key kept stay as they were.
  /// Returns whether the remote is encrypted.
  private func adopt(_ address: String, space: String?, inspect: Bool) throws -> Bool {
    let database = try context.database()
    let before = try database.read { try $0.syncSettings() }
    let changed = before.remote != address || before.space != space
    // The key of the remote set before, put back if this fails: it may be the only way left
    // into that remote.
    let keptKey = SyncKeyFile.read(database: database.path)
    let (seen, kept) = try database.read { db in
      (try db.remoteSeenEncrypted(), try db.encryptionState())
    }
    let wanted = context.arguments.has("encrypt")
    try database.write { db in
      try db.setRemote(address, space: space)
      if changed { try db.forgetEncryption() }
    }
    func forgetKey() throws {
      SyncKeyFile.remove(database: database.path)
      try database.write { try $0.forgetEncryption() }
    }
    guard wanted || inspect || (!changed && (keptKey != nil || seen)) else {
      if changed { SyncKeyFile.remove(database: database.path) }
      return false
    }
    let encryption = EncryptionCommands(context: context)
    do {
      let state: Bool?
      do { state = try encryption.failing({ try ConfiguredSync.encryption(database, l10n) }) } catch
        where !wanted
      {
        // Not reached (a server down): the first sync tells. Another remote's key goes.
        if changed { SyncKeyFile.remove(database: database.path) }
        return false
      }
      switch state {
      case nil:
        guard wanted else {
          if keptKey != nil || seen {
            try forgetKey()
            if !context.json { context.console.line(l10n("remote.nowPlain")) }
          }
          return false
        }
        try encryption.encrypt(database, syncing: false)
      case true?: break
      case false?: try encryption.unlock(database)
      }
      return true
    } catch {
      try database.write { db in
        try db.setRemote(before.remote, space: before.space)
        try db.restoreEncryption(kept)
      }
      if let keptKey {
        try? SyncKeyFile.write(keptKey, database: database.path)
      } else {
        SyncKeyFile.remove(database: database.path)
      }
      throw error
    }
  }

  /// `docket remote set postgres://… [--space NAME]`: the address is checked as libpq reads it
  /// and kept as given, but for a password, which goes to libpq's password file: the settings are
  /// not a secret store.
  private func setPostgresRemote(_ address: String) throws {
    let space = context.arguments.value("space") ?? PostgresRemote.defaultSpace
    guard PostgresRemote.isValidSpace(space) else {
      throw CommandFailure.usage(l10n("error.remote.space", .string(SafeText.sanitized(space))))
    }
    if let missing = PostgresConnection.libraryProblem {
      throw CommandFailure.failed(SafeText.sanitized(missing))
    }
    switch PostgresConnection.parameters(of: address) {
    case .failure(let error):
      // libpq's reason may quote the address, password and all: then it is left out.
      let hasPassword =
        PostgresRemote.redacted(address) != address || address.lowercased().contains("password")
      throw CommandFailure.usage(
        l10n(
          "error.remote.address", .string(SafeText.sanitized(PostgresRemote.redacted(address))),
          .string(hasPassword ? l10n("error.remote.password") : SafeText.sanitized(error.message))))
    case .success(let parameters):
      // A password in the address goes to libpq's password file; the settings keep the address
      // without it.
      var kept = address
      var passwordFile: String?
      if parameters["password"] != nil {
        kept = RemoteAddress.withoutPassword(address)
        // Read again as libpq reads it: an address that still holds a password (a form this
        // did not take apart) is neither kept nor shown.
        // A host with `@` in it is the rest of a password with a bare `@`.
        if case .success(let left) = PostgresConnection.parameters(of: kept),
          left["password"] != nil || left["host"]?.contains("@") == true
        {
          throw CommandFailure.usage(l10n("error.remote.password"))
        }
        let file = PostgresPasswordFile.path(environment: context.environment)
        do {
          try PostgresPasswordFile.store(
            parameters, at: file, environment: context.environment)
        } catch {
          throw CommandFailure.failed(
            l10n(
              "error.remote.passwordFile", .string(SafeText.sanitized(file)),
              .string(l10n.message(for: error))))
        }
        passwordFile = file
      }
      let encrypted = try adopt(kept, space: space, inspect: false)
      if context.json {
        context.printJSON(
          .object([
            ("remote", .string(kept)), ("space", .string(space)),
            ("passwordFile", passwordFile.map { .string($0) } ?? .null),
            ("encrypted", .bool(encrypted)),
          ]))
        return
      }
      context.console.line(l10n("remote.set", .string(SafeText.sanitized(kept))))
      context.console.line(l10n("remote.show.space", .string(space)))
      if encrypted { context.console.line(l10n("remote.show.encrypted")) }
      if let passwordFile {
        context.console.line(
          l10n("remote.passwordStored", .string(SafeText.sanitized(passwordFile))))
      }
      context.console.line(l10n("remote.set.next"))
    }
  }

  func showRemote() throws {
    let database = try context.database()
    let key = SyncKeyFile.read(database: database.path)
    let seen = try database.read { try $0.remoteSeenEncrypted() }
    let (settings, waiting, device) = try database.read { db in
      (
        try db.syncSettings(), try db.unpushedChangeCount(),
        try db.storedDeviceIdentity(hostName: HostName.current)
      )
    }
    if context.json {
      context.printJSON(
        .object([
          ("remote", settings.remote.map { .string($0) } ?? .null),
          ("space", settings.space.map { .string($0) } ?? .null),
          ("lastSync", settings.lastSync.map { .string(ISOTime.string($0)) } ?? .null),
          ("lastError", settings.lastError.map { .string($0) } ?? .null),
          ("unpushedChanges", .integer(waiting)),
          ("device", .string(device?.id.lowercasedText ?? "")),
          ("encrypted", .bool(key != nil || seen)),
          ("keyFile", key != nil ? .string(SyncKeyFile.path(database: database.path)) : .null),
        ]))
      return
    }
    guard let remote = settings.remote else {
      context.console.line(l10n("remote.none"))
      return
    }
    let console = context.console
    console.line(l10n("remote.show.remote", .string(SafeText.sanitized(remote))))
    if let space = settings.space { console.line(l10n("remote.show.space", .string(space))) }
    if key != nil {
      console.line(
        l10n(
          "remote.show.encryptedKey",
          .string(SafeText.sanitized(SyncKeyFile.path(database: database.path)))))
    } else {
      console.line(l10n(seen ? "remote.show.encryptedNoKey" : "remote.show.plain"))
    }
    console.line(
      l10n(
        "remote.show.lastSync",
        .string(
          settings.lastSync.map {
            ISOTime.local($0) + " (" + l10n.relativeTime($0, now: context.now) + ")"
          } ?? l10n("show.never"))))
    if let error = settings.lastError {
      console.line(l10n("remote.show.lastError", .string(SafeText.sanitized(error))))
    }
    console.line(l10n("remote.show.waiting", .integer(waiting)))
    if let device {
      console.line(
        l10n(
          "remote.show.device", .string(SafeText.sanitized(device.name)),
          .string(device.id.lowercasedText)))
    }
  }

  func removeRemote() throws {
    let database = try context.database()
    let old = try database.write { db -> String? in
      let old = try db.syncSettings().remote
      try db.setRemote(nil)
      return old
    }
    // The key of an encrypted remote goes with it.
    SyncKeyFile.remove(database: database.path)
    try database.write { try $0.forgetEncryption() }
    if context.json {
      context.printJSON(.object([("removed", old.map { .string($0) } ?? .null)]))
      return
    }
    guard let old else {
      context.console.line(l10n("remote.none"))
      return
    }
    context.console.line(l10n("remote.removed", .string(SafeText.sanitized(old))))
  }

  // MARK: - docket sync

  func sync() throws {
    let database = try context.database()
    let report: SyncReport
    do {
      let encryption = EncryptionCommands(context: context)
      report = try ConfiguredSync.run(
        database, at: { context.now }, l10n,
        passphrase: {
          // No passphrase to be had is said in its own words (a file unread, an empty one).
          do { return try encryption.joiningPassphrase() } catch let failure as CommandFailure {
            throw SyncFailure(failure.message)
          }
        })
    } catch let failure as SyncFailure {
      throw CommandFailure.failed(SafeText.sanitized(failure.message))
    }
    if context.json {
      context.printJSON(SyncText.json(report))
    } else {
      for line in SyncText.lines(report, l10n) { context.console.line(line) }
    }
    // What was there was pulled; the refusal is an error all the same (exit 1).
    if let reason = report.pushRefused {
      throw CommandFailure.failed(SafeText.sanitized(l10n("sync.pushRefused", .string(reason))))
    }
  }

  // MARK: - docket history

  func history() throws {
    let database = try context.database()
    let reference = context.arguments.arguments[0]
    let (issue, entries) = try database.read { db -> (Issue, [HistoryEntry]) in
      // An issue that is there, else, when none is (a reference several share stays
      // ambiguous), one that was deleted (by its full id or a prefix of it, as any reference),
      // headed by the title it had when it was deleted.
      let issue: Issue
      do {
        issue = try context.resolve(reference, in: db)
      } catch let failure as CommandFailure {
        guard failure.message == l10n("error.ref.unknown", .string(reference)),
          let id = try deletedIssue(reference, in: db, failure: failure)
        else { throw failure }
        let entries = try db.history(ofIssue: id)
        return (
          Issue(id: id, title: try db.deletedTitle(of: id) ?? "", created: entries[0].when),
          entries
        )
      }
      return (issue, try db.history(ofIssue: issue.id))
    }
    if context.json {
      context.printJSON(
        .object([
          ("id", .string(issue.id.lowercasedText)),
          ("changes", .array(entries.map(SyncText.json))),
        ]))
      return
    }
    let title = issue.title.isEmpty ? l10n("issue.untitled") : SafeText.sanitized(issue.title)
    context.console.line(context.console.colors ? Style.header.apply(title) : title)
    if entries.isEmpty {
      context.console.line(l10n("history.empty"))
      return
    }
    for entry in entries {
      context.console.line(SafeText.sanitized(SyncMessages.line(entry, l10n)))
    }
  }

  /// The deleted issue `reference` names: the only deleted one whose id starts with it, or nil
  /// (and `failure` stands) when none does; several are an error that lists them.
  private func deletedIssue(_ reference: String, in db: Connection, failure: CommandFailure)
    throws -> UUID?
  {
    guard let prefix = IssueReference.canonicalPrefix(reference),
      prefix.filter({ $0 != "-" }).count >= IssueReference.minimumLength
    else { return nil }
    let candidates = try db.deletedIssueIDs(withPrefix: prefix, limit: 11)
    guard candidates.count > 1 else { return candidates.first }
    var lines = [l10n("error.ref.ambiguous", .string(reference))]
    for id in candidates.prefix(10) {
      lines.append(
        "  \(id.lowercasedText)  \(SafeText.sanitized(try db.deletedTitle(of: id) ?? ""))")
    }
    if candidates.count > 10 { lines.append("  …") }
    lines.append(l10n("error.ref.useMoreDigits"))
    throw CommandFailure.usage(lines.joined(separator: "\n"))
  }

  // MARK: - Paths

  /// `path` made absolute: `~` is the home folder, a relative path is from the working folder.
  static func absolute(_ path: String, environment: [String: String]) -> String {
    var path = path
    if path == "~" || path.hasPrefix("~/") {
      path = (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
    }
    if !path.hasPrefix("/") {
      path = FileManager.default.currentDirectoryPath + "/" + path
    }
    return (path as NSString).standardizingPath
  }

  /// The path with every symbolic link followed, as far as it exists.
  static func resolved(_ path: String) -> String {
    guard let real = realpath(path, nil) else { return path }
    defer { free(real) }
    return String(cString: real)
  }
}
