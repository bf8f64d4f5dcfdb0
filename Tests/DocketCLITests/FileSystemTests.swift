import Database
import DocketCore
import Foundation
import Testing

/// A full disk and a database that can only be read (RELIABILITY.md): the write fails with words
/// and keeps every byte of what was there; reading goes on. Where file systems can be mounted
/// (root, as on the build machine) the disk is a real small file system and the read-only place
/// a read-only mount. A file-size limit also fills the disk, everywhere; file modes make the
/// read-only place for a user who is not root.
@Suite(.serialized) struct FileSystemTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  /// Whether file systems can be mounted here (root, with the right to mount): tried once.
  static let canMount: Bool = {
    guard getuid() == 0 else { return false }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-mount-\(UUID().uuidString)"
    ).path
    guard
      (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true))
        != nil
    else { return false }
    defer { try? FileManager.default.removeItem(atPath: folder) }
    guard (try? Child.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder])) == 0
    else { return false }
    _ = try? Child.run("/bin/umount", [folder])
    return true
  }()

  /// How a disk is made to fill up.
  enum Filling: String, CaseIterable, CustomTestStringConvertible {
    /// A 768 KiB tmpfs, filled to the last byte by another file (root only).
    case smallFileSystem
    /// The process may write no file past 256 KiB (`ulimit -f`); SQLite sees EFBIG.
    case fileSizeLimit

    var testDescription: String { rawValue }
    /// Under a sanitizer (scripts/sanitize.sh) the limit stops the sanitizer's runtime too,
    /// so only the real file system is filled there.
    static var available: [Filling] {
      if ProcessInfo.processInfo.environment["DOCKET_SANITIZER"] != nil {
        return canMount ? [.smallFileSystem] : []
      }
      return canMount ? allCases : [.fileSizeLimit]
    }
  }

  /// Runs `docket --db database arguments`; with `limit` (bytes), under that file-size limit.
  func docket(_ database: String, _ arguments: [String], limit: Int? = nil) throws -> Run {
    let output = box.path("out-\(UUID().uuidString)")
    let error = box.path("err-\(UUID().uuidString)")
    let environment = ["HOME": box.folder.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    let status: Int32
    if let limit {
      // Docket ignores SIGXFSZ itself, so the write fails with EFBIG instead of the signal
      // ending the process; the limit counts blocks of 512 bytes.
      let script = "ulimit -f \(limit / 512); exec \"$0\" \"$@\""
      status = try Child.run(
        "/bin/sh", ["-c", script, Sandbox.binary.path, "--db", database] + arguments,
        environment: environment, output: output, error: error)
    } else {
      status = try Child.run(
        Sandbox.binary.path, ["--db", database] + arguments, environment: environment,
        output: output, error: error)
    }
    return Run(
      status: status, output: try String(contentsOfFile: output, encoding: .utf8),
      error: try String(contentsOfFile: error, encoding: .utf8))
  }

  func mount(_ arguments: [String]) throws {
    let error = box.path("mount-\(UUID().uuidString)")
    let status = try Child.run("/bin/mount", arguments, error: error)
    let reason = (try? String(contentsOfFile: error, encoding: .utf8)) ?? ""
    try #require(status == 0, "mount \(arguments): \(reason)")
  }

  func unmount(_ folder: String) {
    _ = try? Child.run("/bin/umount", [folder])
  }

  /// Fills the file system of `folder` with one file until no byte is left.
  func fill(_ folder: String) throws -> String {
    let path = folder + "/filler"
    let descriptor = open(path, O_CREAT | O_WRONLY, 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let block = [UInt8](repeating: 0x2E, count: 4096)
    var small = [UInt8](repeating: 0x2E, count: 1)
    while write(descriptor, block, block.count) > 0 {}
    while write(descriptor, &small, 1) > 0 {}
    return path
  }

  func titles(_ database: String) throws -> [String] {
    let run = try docket(database, ["list", "--filter", "all", "--json"])
    #expect(run.status == 0, "list: \(run.error)")
    let issues = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]]
    return (issues ?? []).compactMap { $0["title"] as? String }.sorted()
  }

  @Test(arguments: Filling.available)
  func aFullDiskFailsTheWriteWithWordsAndKeepsEveryIssue(_ filling: Filling) throws {
    let folder = box.path("disk")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var limit: Int?
    if filling == .smallFileSystem {
      try mount(["-t", "tmpfs", "-o", "size=768k", "tmpfs", folder])
    }
    defer { if filling == .smallFileSystem { unmount(folder) } }
    let database = folder + "/docket.sqlite"
    var references: [String] = []
    for title in ["First", "Second", "Third"] {
      let run = try docket(database, ["add", title, "--tag", "kept"])
      #expect(run.status == 0, "\(run.error)")
      references.append(run.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    let before = try box.sqlite(database, "SELECT id, title, modified FROM issues ORDER BY id;")

    var filler: String?
    switch filling {
    case .smallFileSystem: filler = try fill(folder)
    case .fileSizeLimit: limit = 256 * 1024
    }
    // An issue too large for what is left, an edit, and an import of 300 issues: each fails
    // whole, with words.
    let detail = String(repeating: "A line of the detail that fills the disk.\n", count: 2400)
    let bundle = try box.docketFile("bundle.json", count: 300) {
      ("Imported \($0)", String(repeating: "x", count: 1000), false)
    }
    for arguments in [
      ["add", "Too large", "--detail", detail], ["import", bundle],
      ["edit", references[0], "--detail", detail],
    ] {
      let run = try docket(database, arguments, limit: limit)
      #expect(run.status == 1, "\(arguments[0]) on a full disk: \(run.status) \(run.output)")
      let words =
        filling == .smallFileSystem
        ? "The disk is full: nothing was saved." : "could not be read or written"
      #expect(run.error.contains(words), "\(arguments[0]): \(run.error)")
      #expect(!run.error.contains("SQLite error"), "\(run.error)")
    }
    // Reading goes on, and every byte of the issues is as it was (looked at with room again:
    // sqlite3 cannot open a database on a full disk at all).
    #expect(try titles(database) == ["First", "Second", "Third"])
    if let filler { try FileManager.default.removeItem(atPath: filler) }
    #expect(
      try box.sqlite(database, "SELECT id, title, modified FROM issues ORDER BY id;") == before)
    #expect(try box.integrityCheck(database) == "ok\n")

    // With room again, the same write succeeds.
    let again = try docket(database, ["add", "After the disk had room", "--detail", detail])
    #expect(again.status == 0, "\(again.error)")
    #expect(try titles(database) == ["After the disk had room", "First", "Second", "Third"])
  }

  /// An export that runs out of room says why and where, leaves the file that was there as it
  /// was, and leaves nothing of its own beside it.
  @Test(arguments: Filling.available)
  func anExportWithoutRoomKeepsTheFileThereAndSaysWhy(_ filling: Filling) throws {
    let database = box.path("docket.sqlite")
    let bundle = try box.docketFile("bundle.json", count: 300) {
      ("Exported \($0)", String(repeating: "x", count: 1000), false)
    }
    #expect(try docket(database, ["import", bundle]).status == 0)
    let folder = box.path("disk")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    if filling == .smallFileSystem {
      try mount(["-t", "tmpfs", "-o", "size=768k", "tmpfs", folder])
    }
    defer { if filling == .smallFileSystem { unmount(folder) } }
    let backup = folder + "/backup.json"
    let kept = "the backup of last week\n"
    try kept.write(toFile: backup, atomically: false, encoding: .utf8)
    var limit: Int?
    switch filling {
    case .smallFileSystem: _ = try fill(folder)
    case .fileSizeLimit: limit = 256 * 1024
    }
    let run = try docket(database, ["export", "-o", backup], limit: limit)
    let reason = filling == .smallFileSystem ? "No space left on device" : "File too large"
    #expect(run.status == 1)
    #expect(
      run.error == "docket: cannot write \(backup): \(reason); nothing was written there.\n",
      "\(run.error)")
    #expect(try String(contentsOfFile: backup, encoding: .utf8) == kept)
    let beside = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(
      beside.sorted()
        == (filling == .smallFileSystem ? ["backup.json", "filler"] : ["backup.json"]))
  }

  /// Output that cannot be written (standard output to a file past the file-size limit) ends
  /// the command with its reason, not with a crash report.
  @Test(.enabled(if: Filling.available.contains(.fileSizeLimit)))
  func outputPastTheFileSizeLimitSaysWhy() throws {
    let database = box.path("docket.sqlite")
    let bundle = try box.docketFile("bundle.json", count: 300) {
      ("Listed \($0)", String(repeating: "x", count: 1000), false)
    }
    #expect(try docket(database, ["import", bundle]).status == 0)
    let run = try docket(database, ["export"], limit: 256 * 1024)
    #expect(run.status == 1)
    #expect(run.error == "docket: cannot write the output: File too large.\n", "\(run.error)")
    // In the language asked for on the command line.
    let german = try docket(database, ["--lang", "de", "export"], limit: 256 * 1024)
    #expect(
      german.error == "docket: Die Ausgabe lässt sich nicht schreiben: Datei zu groß.\n",
      "\(german.error)")
  }

  /// How a database comes to be readable only.
  enum ReadOnlyPlace: String, CaseIterable, CustomTestStringConvertible {
    /// Its folder mounted read-only (root only): even root cannot write.
    case readOnlyMount
    /// The file and its folder without write permission (for a user who is not root).
    case fileModes

    var testDescription: String { rawValue }
    /// Root ignores file modes, so root without the right to mount has neither.
    static var available: [ReadOnlyPlace] {
      canMount ? [.readOnlyMount] : getuid() == 0 ? [] : [.fileModes]
    }
  }

  /// What lies beside a database file, as another program left it.
  enum Beside: String, CaseIterable, CustomTestStringConvertible {
    /// The write-ahead log and the shared-memory file, as a Docket that ended leaves them.
    case logAndSharedMemory
    /// Nothing: the log folded in, as a copy made with the database closed.
    case nothing
    /// The log without the shared-memory file (a copy that left the latter out).
    case logOnly

    var testDescription: String { rawValue }
  }

  @Test(arguments: ReadOnlyPlace.available, Beside.allCases)
  func aReadOnlyDatabaseListsAndRefusesWritesWithWords(_ place: ReadOnlyPlace, beside: Beside)
    throws
  {
    let source = box.path("source")
    try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
    let written = source + "/docket.sqlite"
    let first = try docket(written, ["add", "Readable", "--tag", "kept", "--priority", "high"])
    #expect(first.status == 0)
    #expect(try docket(written, ["add", "Also readable"]).status == 0)
    // Read through docket, which leaves the files beside the database as they are (sqlite3
    // would fold the log in when it closes).
    let everything = ["list", "--filter", "all", "--json"]
    let before = try docket(written, everything).output
    switch beside {
    case .logAndSharedMemory:
      #expect(FileManager.default.fileExists(atPath: written + "-shm"))
    case .nothing:
      _ = try box.sqlite(written, "PRAGMA wal_checkpoint(TRUNCATE);")
      for suffix in ["-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: written + suffix)
      }
    case .logOnly:
      try FileManager.default.removeItem(atPath: written + "-shm")
    }
    let folder: String
    switch place {
    case .readOnlyMount:
      folder = box.path("mounted")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try mount(["--bind", source, folder])
    case .fileModes:
      folder = source
      chmod(written, 0o400)
      chmod(source, 0o500)
    }
    defer {
      if place == .readOnlyMount { unmount(folder) } else { chmod(source, 0o700) }
    }
    if place == .readOnlyMount { try mount(["-o", "remount,ro,bind", folder]) }
    let database = folder + "/docket.sqlite"

    if beside == .logOnly {
      // Read without the log, the latest changes would be missing: refused, with words.
      let run = try docket(database, everything)
      #expect(run.status == 1)
      #expect(run.error.contains("cannot be read here"), "\(run.error)")
      #expect(run.error.contains("-wal"), "\(run.error)")
      return
    }
    #expect(try titles(database) == ["Also readable", "Readable"])
    let shown = try docket(
      database, ["show", first.output.trimmingCharacters(in: .whitespacesAndNewlines)])
    #expect(shown.status == 0, "\(shown.error)")
    #expect(shown.output.contains("Readable"))
    let search = try docket(database, ["list", "tag:kept"])
    #expect(search.output.contains("Readable"), "\(search.error)")
    let reference = first.output.trimmingCharacters(in: .whitespacesAndNewlines)
    for arguments in [["add", "Refused"], ["close", reference], ["tag", "add", "new"]] {
      let run = try docket(database, arguments)
      #expect(run.status == 1, "\(arguments): \(run.status)")
      #expect(
        run.error.contains("The database cannot be written: the file or its folder is read-only."),
        "\(arguments): \(run.error)")
    }
    #expect(try docket(written, everything).output == before)
  }

  /// A program that stays open (the terminal app, `docket serve`) and opened the database on a
  /// full disk reads it as unchanging; once a write finds room, it reads the file properly
  /// again and sees that write and every later one. Needs a file system of its own to fill
  /// (root with the right to mount, as on the build machine).
  @Test(.enabled(if: canMount))
  func aQueueOpenedOnAFullDiskSeesWritesOnceThereIsRoom() throws {
    let folder = box.path("full")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try mount(["-t", "tmpfs", "-o", "size=768k", "tmpfs", folder])
    defer { unmount(folder) }
    let database = folder + "/docket.sqlite"
    for title in ["First", "Second"] {
      #expect(try docket(database, ["add", title]).status == 0)
    }
    // Closed cleanly, as sqlite3 leaves it: no log or shared-memory file beside it.
    _ = try box.sqlite(database, "PRAGMA wal_checkpoint(TRUNCATE);")
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: database + suffix)
    }
    let filler = try fill(folder)

    let queue = try DocketDatabase.open(path: database)
    func count() throws -> Int {
      try queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) ?? -1 }
    }
    #expect(try count() == 2)
    #expect(throws: SQLiteError.self) {
      _ = try queue.write { try $0.createIssue(id: UUID(), title: "No room", now: Date()) }
    }
    try FileManager.default.removeItem(atPath: filler)
    _ = try queue.write { try $0.createIssue(id: UUID(), title: "With room", now: Date()) }
    #expect(try count() == 3)
    // A write by another process is seen too.
    #expect(try docket(database, ["add", "From elsewhere"]).status == 0)
    #expect(try count() == 4)
  }
}
