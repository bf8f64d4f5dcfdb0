import DocketCore
import DocketTransfer
import Files
import Foundation
import JSONText

/// A shared folder as a remote (Syncthing, a cloud drive, NFS):
///
///     <folder>/docket-remote.json              {"docket":"remote","version":1,"id":"…"}
///     <folder>/<device id>/00000001.changes     a device's change files, numbered
///     <folder>/<device id>/snapshot-<hex>.snapshot
///
/// Each device writes only in its own folder, and writes a file under a temporary name (a dot
/// first, which readers pass over) and renames it into place, so a reader on this machine never
/// sees half a file; a file a sync tool is still copying in is seen to be partial by its missing
/// end line. Names Docket does not write (`00000003 (conflicted copy).changes`,
/// `00000003.sync-conflict-….changes`) are reported and left alone.
///
/// An encrypted folder's marker is of version 2 (an older Docket refuses it rather than write
/// into it) and holds the record of its key (`"sealing"`); every file in it is sealed
/// (`SealedBytes`), and a file that is not, or does not open, is skipped.
public struct FolderRemote: PackageStore {
  public let path: String
  public let device: String
  /// The key of an encrypted folder; nil for a plain one.
  public let key: SyncKey?

  public init(path: String, device: String, key: SyncKey? = nil) {
    self.path = (path as NSString).standardizingPath
    self.device = device
    self.key = key
  }

  static let marker = "docket-remote.json"
  /// The marker of a plain folder, and the newest read (an encrypted folder's).
  static let version = 1
  static let sealedVersion = 2

  /// Checks the folder and makes what it needs: the marker that names it (made, with a random id,
  /// by the first device), and this device's folder. Returns the remote's id: a folder emptied
  /// and set up again is another remote, whatever its path, and one reached by another path (a
  /// link, a new mount point) the same. With `expecting`, makes nothing and checks the id.
  public func prepare(expecting: String?) throws -> String {
    try prepare(expecting: expecting, checkingKey: true)
  }

  private func prepare(expecting: String?, checkingKey: Bool) throws -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw RemoteError(location: path, problem: .missing)
    }
    guard isDirectory.boolValue else {
      throw RemoteError(location: path, problem: .system(String(cString: strerror(ENOTDIR))))
    }
    let markerPath = path + "/" + Self.marker
    var (id, record) = try readMarker(markerPath)
    if let expecting {
      guard id == expecting else { throw RemoteError(location: path, problem: .replaced) }
      if checkingKey { try checkKey(record, id: expecting) }
      return expecting
    }
    // A device that keeps a key never makes a plain remote: a folder emptied by someone else
    // would otherwise be filled with this device's issues in plain text.
    if id == nil || id == "", key != nil {
      throw RemoteError(location: path, problem: .noLongerEncrypted)
    }
    if id == nil || id == "" {
      // The first device names the remote. Made beside and linked into place, which fails if
      // another device made it meanwhile: then theirs counts.
      let made = UUID().lowercasedText
      try createExclusively(
        Array("{\"docket\":\"remote\",\"version\":\(Self.version),\"id\":\"\(made)\"}\n".utf8),
        at: markerPath, replacingUnnamed: id == "")
      (id, record) = try readMarker(markerPath)
    }
    guard let id, !id.isEmpty else { throw RemoteError(location: markerPath, problem: .notARemote) }
    if checkingKey { try checkKey(record, id: id) }
    try ownFolder(making: true)
    sweepLeftovers()
    return id
  }

  /// How old a temporary file must be to be taken for a leftover.
  static let leftoverAge: TimeInterval = 3600

  /// Removes what writes cut short left: temporary files in this device's folder (a sync killed
  /// while it wrote a package, or a snapshot's image, which takes seconds for a large database),
  /// and the marker's beside it (a first sync killed while it named the remote). Sync tools
  /// would copy them to every device. Only this device writes in its folder, one sync at a time
  /// (the sync lock), but a file is left alone until it is an hour old all the same: a copy of
  /// this database elsewhere, under the same device id, might be writing it, and any device may
  /// be naming the remote.
  private func sweepLeftovers() {
    sweep(path + "/" + device) { _ in true }
    sweep(path) { $0.hasPrefix("." + Self.marker + ".docket-") }
  }

  /// Removes the temporary files in `folder` an hour old or older whose names pass `chosen`.
  private func sweep(_ folder: String, _ chosen: (String) -> Bool) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where FileReplacement.isTemporaryName(name) && chosen(name) {
      let file = folder + "/" + name
      // The file itself, not what a link names.
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
        attributes[.type] as? FileAttributeType == .typeRegular,
        let modified = attributes[.modificationDate] as? Date,
        -modified.timeIntervalSinceNow >= Self.leftoverAge
      else { continue }
      unlink(file)
    }
  }

  /// Fails unless the folder's encryption is this remote's key: a key for an encrypted folder,
  /// none for a plain one.
  func checkKey(_ record: RemoteKeyRecord?, id: String) throws {
    try Self.checkKey(key, record, id: id, location: path)
  }

  static func checkKey(_ key: SyncKey?, _ record: RemoteKeyRecord?, id: String, location: String)
    throws
  {
    guard let record else {
      if key != nil { throw RemoteError(location: location, problem: .noLongerEncrypted) }
      return
    }
    if let missing = Sodium.problem {
      throw RemoteError(location: location, problem: .sealingUnavailable(missing))
    }
    guard let key else { throw RemoteError(location: location, problem: .encrypted) }
    guard key.remote == id, record.opens(key) else {
      throw RemoteError(location: location, problem: .keyRefused)
    }
  }

  /// The id in the marker (nil when there is no marker, "" for one without an id), and the
  /// record of its key when it is encrypted.
  private func readMarker(_ markerPath: String) throws -> (String?, RemoteKeyRecord?) {
    let data: [UInt8]
    do { data = try FileReading.contents(of: markerPath, limit: 1 << 16) } catch {
      switch error {
      case .system(ENOENT): return (nil, nil)
      case .system(let code):
        throw RemoteError(location: markerPath, problem: .system(String(cString: strerror(code))))
      case .link, .notAFile, .tooLarge:
        throw RemoteError(location: markerPath, problem: .notARemote)
      }
    }
    guard let marker = try? JSONReader.document(data), marker["docket"]?.string == "remote"
    else {
      throw RemoteError(location: markerPath, problem: .notARemote)
    }
    if let version = marker["version"]?.number, version > Double(Self.sealedVersion) {
      throw RemoteError(
        location: markerPath, problem: .newerVersion(version < 1e9 ? Int(version) : Int.max))
    }
    var record: RemoteKeyRecord?
    if let sealing = marker["sealing"] {
      guard let read = RemoteKeyRecord(sealing) else {
        throw RemoteError(location: markerPath, problem: .notARemote)
      }
      record = read
    } else if marker["version"]?.number == Double(Self.sealedVersion) {
      // Version 2 is an encrypted folder's: without its record, nothing opens it.
      throw RemoteError(location: markerPath, problem: .notARemote)
    }
    return (marker["id"]?.string ?? "", record)
  }

  public var isSealed: Bool { key != nil }
  public var location: String { path }

  public func storedSize(of plain: [UInt8]) -> Int {
    guard key != nil else { return plain.count }
    return SealedBytes.sealedCount(plain)
  }

  /// Whether the folder at `path` holds an encrypted remote (its marker says so), read without
  /// making or changing anything.
  public static func isEncrypted(_ path: String) -> Bool {
    let file = (path as NSString).standardizingPath + "/" + marker
    guard let bytes = try? FileReading.contents(of: file, limit: 1 << 16),
      let json = try? JSONReader.document(bytes)
    else { return false }
    return json["sealing"] != nil
  }

  public func withKey(_ key: SyncKey?) -> any SyncRemote {
    FolderRemote(path: path, device: device, key: key)
  }

  public func keyRecord() throws -> (id: String, record: RemoteKeyRecord?) {
    _ = try FolderRemote(path: path, device: device).prepare(expecting: nil, checkingKey: false)
    let (id, record) = try readMarker(path + "/" + Self.marker)
    guard let id, !id.isEmpty else { throw RemoteError(location: path, problem: .notARemote) }
    return (id, record)
  }

  public func setKeyRecord(_ record: RemoteKeyRecord, replacing: RemoteKeyRecord?) throws {
    let markerPath = path + "/" + Self.marker
    let (id, found) = try readMarker(markerPath)
    guard let id, RemoteKeyRecord.isPlainID(id) else {
      throw RemoteError(location: path, problem: .notARemote)
    }
    guard found == replacing else { throw SealingError.raced }
    let text =
      "{\"docket\":\"remote\",\"version\":\(Self.sealedVersion),\"id\":\"\(id)\","
      + "\"sealing\":\(record.text)}\n"
    try writeAtomically(Array(text.utf8), to: markerPath)
    // Two devices encrypting at once: the marker renamed last counts, and the other is told.
    guard try readMarker(markerPath).1 == record else { throw SealingError.raced }
  }

  /// Writes `bytes` as `target` only if there is no `target` yet (or, with `replacingUnnamed`,
  /// over a marker without an id): a temporary file linked into place.
  private func createExclusively(_ bytes: [UInt8], at target: String, replacingUnnamed: Bool)
    throws
  {
    if replacingUnnamed { return try writeAtomically(bytes, to: target) }
    try Self.naming(target) {
      let (temporary, descriptor) = try FileReplacement.makeTemporary(beside: target)
      defer { unlink(temporary) }
      var failure = bytes.withUnsafeBytes { FileWriting.writeAll(descriptor, $0) }
      if failure == nil, fsync(descriptor) != 0 { failure = errno }
      close(descriptor)
      if let failure { throw FileReplacement.Failure(code: failure) }
      if link(temporary, target) != 0, errno != EEXIST {
        throw FileReplacement.Failure(code: errno)
      }
      FileReplacement.syncFolder(of: target)
    }
  }

  public func list() throws -> RemoteListing {
    var listing = RemoteListing(packages: [], skipped: [])
    let top: [String]
    do { top = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
      throw RemoteError(location: path, problem: .missing)
    }
    func skip(_ entry: String, _ problem: SkippedProblem, _ found: FileReading.Entry?) {
      listing.skipped.append(SkippedPackage(path: entry, problem: problem))
      if let found { listing.identities[entry] = Self.identity(found) }
    }
    for entry in top.sorted() where !entry.hasPrefix(".") && entry != Self.marker {
      let folder = path + "/" + entry
      let found = FileReading.entry(folder)
      // Device folders are named in lower case, as Docket writes them.
      guard let device = UUID(text: entry)?.lowercasedText, device == entry else {
        skip(entry, found?.kind == .link ? .link : .unknownName, found)
        continue
      }
      switch found?.kind {
      case .folder?: break
      case .link?:
        skip(entry, .link, found)
        continue
      default:
        skip(entry, .notAFile, found)
        continue
      }
      let files: [String]
      do { files = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
        skip(entry, .unreadable(Self.reason(error)), nil)
        continue
      }
      for file in files.sorted() where !file.hasPrefix(".") {
        let relative = entry + "/" + file
        let found = FileReading.entry(folder + "/" + file)
        guard let name = Self.packageName(file, device: device) else {
          skip(relative, found?.kind == .link ? .link : .unknownName, found)
          continue
        }
        switch found?.kind {
        case .file?:
          listing.packages.append(name)
          listing.sizes[name] = found!.size
          listing.identities[relative] = Self.identity(found!)
        case .link?: skip(relative, .link, found)
        case nil: continue  // gone since the folder was read
        default: skip(relative, .notAFile, found)
        }
      }
    }
    return listing
  }

  /// What a file is now, for telling one content of it from the next.
  static func identity(_ entry: FileReading.Entry) -> String { "\(entry.size) \(entry.modified)" }

  /// The package a file name names, if it is one Docket writes.
  static func packageName(_ file: String, device: String) -> PackageName? {
    let bytes = Array(file.utf8)
    if file.hasSuffix(".changes"), bytes.count == 16,
      bytes[0..<8].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int64(file.prefix(8)),
      number > 0
    {
      return PackageName(device: device, kind: .changes, number: number)
    }
    for (suffix, kind) in [(".snapshot", PackageName.Kind.snapshot), (".sqlite", .image)]
    where file.hasPrefix("snapshot-") && file.hasSuffix(suffix) {
      let hex = file.dropFirst(9).dropLast(suffix.count)
      // Only the name Docket writes: lower case, no leading zeros.
      if !hex.isEmpty, hex.count <= 16, let number = Int64(hex, radix: 16), number > 0,
        String(number, radix: 16) == hex
      {
        return PackageName(device: device, kind: kind, number: number)
      }
    }
    return nil
  }

  func filePath(_ name: PackageName) -> String {
    path + "/" + name.description
  }

  public func bytes(of name: PackageName) throws -> [UInt8] {
    let file = filePath(name)
    let bytes: [UInt8]
    do { bytes = try FileReading.contents(of: file, limit: limit(name.kind)) } catch {
      throw refusal(error, name)
    }
    guard let key else { return bytes }
    return try Self.naming(name) { try SealedBytes.open(bytes, name: name, key: key) }
  }

  /// The largest file of a kind read: a sealed one is a little larger than its plain bytes.
  func limit(_ kind: PackageName.Kind) -> Int64 {
    key == nil ? PackageFormat.limit(kind) : SealedBytes.sealedLimit(PackageFormat.limit(kind))
  }

  /// A file of the folder that was not opened, said as the package skipped or the folder failing.
  func refusal(_ refusal: FileReading.Refusal, _ name: PackageName) -> any Error {
    switch refusal {
    case .link: SkippedPackage(path: name.description, problem: .link)
    case .notAFile: SkippedPackage(path: name.description, problem: .notAFile)
    case .tooLarge:
      SkippedPackage(
        path: name.description,
        problem: .package(.tooLarge(limit: limit(name.kind))))
    case .system(let code):
      RemoteError(location: filePath(name), problem: .system(String(cString: strerror(code))))
    }
  }

  /// A snapshot read from its file as it is applied, a mebibyte at a time: held whole, the file,
  /// which grows with the database, and its lines would stay in memory throughout. Whether it is
  /// whole (its last line break, its header, its end line) is checked before anything is handed
  /// on. The rest of the file is read while the changes are applied, so under the database's
  /// write lock: a sync folder is a local copy kept by a sync tool; on a network mount that
  /// stalls, other writers wait (and give up after 10 s) until the sync fails or goes on. Its
  /// parts can be gone through once.
  public func readParts(_ name: PackageName) throws -> PackageParts {
    let file = filePath(name)
    let opened: FileReading.Opened
    do { opened = try FileReading.open(file, limit: limit(name.kind)) } catch {
      throw refusal(error, name)
    }
    guard let key else {
      return try Self.parts(
        of: LinesFromFile(descriptor: opened.descriptor), name: name, file: file)
    }
    // Opened whole, into a file of this machine's own, before anything is handed on: a part
    // that does not open is found before any change is applied.
    defer { close(opened.descriptor) }
    let plain = try SealedBytes.privateFile()
    do {
      try SealedBytes.open(file: opened.descriptor, name: name, key: key, into: plain)
    } catch {
      close(plain)
      throw error
    }
    guard lseek(plain, 0, SEEK_SET) == 0 else {
      close(plain)
      throw RemoteError(location: file, problem: .system(String(cString: strerror(errno))))
    }
    return try Self.parts(of: LinesFromFile(descriptor: plain), name: name, file: file)
  }

  /// A package's file read as it is applied, a mebibyte at a time: held whole, the file (a
  /// snapshot's grows with the database) and its lines would stay in memory throughout. Whether
  /// it is whole (its start, its last line break, its header, its end line) is checked before
  /// anything is handed on. The rest of the file is read while the changes are applied, so under
  /// the database's write lock: a sync folder is a local copy kept by a sync tool; on a network
  /// mount that stalls, other writers wait (and give up after 10 s) until the sync fails or goes
  /// on. Its parts can be gone through once.
  static func parts(of lines: LinesFromFile, name: PackageName, file: String) throws -> PackageParts
  {
    let last: [UInt8]?
    do {
      try PackageFormat.checkStart(try lines.firstBytes(PackageFormat.start.count))
      last = try lines.lastLine()
    } catch let failure as FileReplacement.Failure {
      throw RemoteError(location: file, problem: .system(failure.reason))
    } catch let problem as PackageProblem {
      throw SkippedPackage(path: name.description, problem: .package(problem))
    }
    var source = lines
    guard let last else {
      // Cut short: still being copied in, unless its first line, whole, is no Docket header.
      do {
        _ = try PackageFormat.header(&source, expected: name)
      } catch let problem as PackageProblem where problem != .partial {
        throw SkippedPackage(path: name.description, problem: .package(problem))
      } catch {}
      throw SkippedPackage(path: name.description, problem: .package(.partial))
    }
    let (header, count) = try Self.naming(name) {
      try PackageFormat.header(&source, expected: name)
    }
    guard PackageFormat.isEnd(last, count: count) else {
      throw SkippedPackage(path: name.description, problem: .package(.partial))
    }
    return PackageParts { partSize, body in
      var source = lines
      do {
        try Self.naming(name) {
          try PackageFormat.changes(
            &source, header: header, count: count, partSize: partSize, body)
        }
      } catch let failure as FileReplacement.Failure {
        throw RemoteError(location: file, problem: .system(failure.reason))
      }
    }
  }

  public func header(_ name: PackageName) throws -> Package {
    let file = filePath(name)
    let opened: FileReading.Opened
    do { opened = try FileReading.open(file, limit: limit(name.kind)) } catch {
      throw refusal(error, name)
    }
    let handle = FileHandle(fileDescriptor: opened.descriptor, closeOnDealloc: true)
    if let key { return try sealedHeader(name, handle, key) }
    var bytes: [UInt8] = []
    // A header is one line of a few hundred bytes (a snapshot's lists every device).
    while bytes.count < 1 << 20, !bytes.contains(0x0A) {
      guard let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty else { break }
      bytes += chunk
    }
    guard let end = bytes.firstIndex(of: 0x0A) else {
      throw SkippedPackage(path: name.description, problem: .package(.partial))
    }
    do { return try PackageFormat.decodeHeader(bytes[..<end], expected: name).package } catch {
      throw SkippedPackage(path: name.description, problem: .package(error))
    }
  }

  /// A sealed package's header: its first part, read alone.
  private func sealedHeader(_ name: PackageName, _ handle: FileHandle, _ key: SyncKey) throws
    -> Package
  {
    var bytes: [UInt8] = []
    func fill(_ count: Int) {
      while bytes.count < count,
        let chunk = try? handle.read(upToCount: count - bytes.count), !chunk.isEmpty
      {
        bytes += chunk
      }
    }
    fill(SealedBytes.magic.count + Sodium.streamHeaderBytes + 4)
    do {
      guard SealedBytes.isSealed(bytes.prefix(SealedBytes.magic.count)) else {
        throw PackageProblem.notSealed
      }
      guard let length = SealedBytes.firstPartLength(bytes[...]) else {
        throw bytes.count < SealedBytes.magic.count + Sodium.streamHeaderBytes + 4
          ? PackageProblem.partial : PackageProblem.unsealable
      }
      fill(length)
      let line = try SealedBytes.openFirst(bytes[...], name: name, key: key)
      guard line.last == 0x0A else { throw PackageProblem.partial }
      return try PackageFormat.decodeHeader(line.dropLast(), expected: name).package
    } catch let problem as PackageProblem {
      throw SkippedPackage(path: name.description, problem: .package(problem))
    }
  }

  /// Writes a package whole. A change file is made only where there is none of its number
  /// (`.numberTaken` otherwise: another database writing under this device's id); a snapshot
  /// replaces one of the same stamp.
  public func write(_ package: Package) throws {
    precondition(package.name.device == device, "a device writes only its own packages")
    try ownFolder(making: true)
    var bytes = PackageFormat.encode(package)
    if let key { bytes = SealedBytes.seal(bytes, name: package.name, key: key).bytes }
    let target = filePath(package.name)
    guard package.name.kind == .changes else { return try writeAtomically(bytes, to: target) }
    do {
      try FileReplacement.create(target) { descriptor in
        bytes.withUnsafeBytes { FileWriting.writeAll(descriptor, $0) }
      }
    } catch let failure where failure.code == EEXIST {
      throw RemoteError(location: target, problem: .numberTaken)
    } catch {
      throw RemoteError(location: target, problem: .system(error.reason))
    }
  }

  public func forDevice(_ device: String) -> any SyncRemote {
    FolderRemote(path: path, device: device, key: key)
  }

  public func reseal(_ name: PackageName) throws {
    precondition(name.device == device, "a device seals only its own packages")
    guard let key else { return }
    try ownFolder(making: false)
    let file = filePath(name)
    let opened: FileReading.Opened
    do { opened = try FileReading.open(file, limit: PackageFormat.limit(name.kind)) } catch {
      if case .system(ENOENT) = error { return }
      throw refusal(error, name)
    }
    defer { close(opened.descriptor) }
    var head = [UInt8](repeating: 0, count: SealedBytes.magic.count)
    let count = head.withUnsafeMutableBytes {
      pread(opened.descriptor, $0.baseAddress, $0.count, 0)
    }
    if count == head.count, SealedBytes.isSealed(head) { return }
    if name.kind != .image {
      let plain: [UInt8]
      do { plain = try FileReading.contents(of: file, limit: PackageFormat.limit(name.kind)) } catch
      {
        throw refusal(error, name)
      }
      return try writeAtomically(SealedBytes.seal(plain, name: name, key: key).bytes, to: file)
    }
    try Self.naming(file) {
      try FileReplacement.replace(file, mode: 0o600) { output in
        try SealedBytes.seal(file: opened.descriptor, name: name, key: key) { sealed in
          if let failure = FileWriting.writeAll(output, sealed) {
            throw FileReplacement.Failure(code: failure)
          }
        }
        return nil
      }
    }
  }

  public func remove(_ name: PackageName) throws {
    precondition(name.device == device, "a device removes only its own packages")
    try ownFolder(making: false)
    if unlink(filePath(name)) != 0, errno != ENOENT {
      throw RemoteError(
        location: filePath(name), problem: .system(String(cString: strerror(errno))))
    }
  }

  /// This device's folder, made when `making` and it is not there, and checked to be a folder
  /// of its own: a link put in its place (to another device's folder, to anywhere) is never
  /// written or removed through.
  func ownFolder(making: Bool) throws {
    let folder = path + "/" + device
    if making, mkdir(folder, 0o700) != 0, errno != EEXIST {
      throw RemoteError(location: folder, problem: .system(String(cString: strerror(errno))))
    }
    switch FileReading.entry(folder)?.kind {
    case .folder?: return
    case nil where !making: return
    default: throw RemoteError(location: folder, problem: .notOwnFolder)
    }
  }

  /// Writes `bytes` to a temporary file beside `target`, flushes it to the disk, and renames it
  /// into place: a reader sees the whole file or none.
  private func writeAtomically(_ bytes: [UInt8], to target: String) throws {
    try Self.naming(target) {
      try FileReplacement.replace(target, mode: 0o600) { descriptor in
        bytes.withUnsafeBytes { FileWriting.writeAll(descriptor, $0) }
      }
    }
  }

  /// Runs `body`; a failure of the file system is said as the remote's, naming `target`.
  static func naming(_ target: String, _ body: () throws -> Void) throws {
    do { try body() } catch let failure as FileReplacement.Failure {
      throw RemoteError(location: target, problem: .system(failure.reason))
    }
  }

  static func reason(_ error: Error) -> String {
    (error as NSError).localizedDescription
  }
}

extension SkippedPackage: Error {}
