import Files
import Foundation
import JSONText

/// Where a device keeps the key of its encrypted remote: a file beside its database, readable and
/// writable by its owner only, never in the database (a database is copied, exported, imaged into
/// a snapshot) and never printed. `docket remote remove` removes it.
public enum SyncKeyFile {
  /// The key file of the database at `database`.
  public static func path(database: String) -> String { database + ".sync-key" }

  /// The key kept for the database at `database`; nil when there is none, or it cannot be read
  /// (then the remote asks for its passphrase again). A file others could read is made private.
  public static func read(database: String) -> SyncKey? {
    let file = path(database: database)
    guard let opened = try? FileReading.open(file, limit: 4096) else { return nil }
    defer { close(opened.descriptor) }
    // Made private again through the file opened, never through a name swapped since.
    var status = stat()
    if fstat(opened.descriptor, &status) == 0, status.st_mode & 0o077 != 0 {
      fchmod(opened.descriptor, 0o600)
    }
    var bytes = [UInt8](repeating: 0, count: Int(opened.size))
    let count = bytes.withUnsafeMutableBytes {
      pread(opened.descriptor, $0.baseAddress, $0.count, 0)
    }
    guard count == bytes.count,
      let json = try? JSONReader.document(bytes), let remote = json["remote"]?.string,
      let key = json["key"]?.string.flatMap({ Data(base64Encoded: $0) }),
      key.count == Sodium.keyBytes, RemoteKeyRecord.isPlainID(remote)
    else { return nil }
    return SyncKey(remote: remote, bytes: Array(key))
  }

  /// Keeps `key` for the database at `database`, replacing any key there whole.
  public static func write(_ key: SyncKey, database: String) throws {
    guard RemoteKeyRecord.isPlainID(key.remote) else { throw SealingError.unreadableRecord }
    let text = Array(
      "{\"remote\":\"\(key.remote)\",\"key\":\"\(Data(key.bytes).base64EncodedString())\"}\n".utf8)
    try FileReplacement.replace(path(database: database), mode: 0o600) { descriptor in
      text.withUnsafeBytes { FileWriting.writeAll(descriptor, $0) }
    }
  }

  /// Removes the key kept for the database at `database`: true when there was one.
  @discardableResult
  public static func remove(database: String) -> Bool {
    unlink(path(database: database)) == 0
  }
}
