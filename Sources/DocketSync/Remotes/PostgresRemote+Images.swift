import DocketCore
import Files
import Foundation
import Postgres

/// A snapshot's database image, kept beside its package in the space's `images` table.
extension PostgresRemote {
  /// The image, fetched into a temporary file (removed when this remote goes); nil when it
  /// cannot be had, and the snapshot serves alone.
  public func imageFile(_ name: PackageName) -> String? {
    let file = NSTemporaryDirectory() + "docket-image-\(UUID().lowercasedText).sqlite"
    temporaryFiles.withLock { $0.append(file) }
    // Made anew (never through a file or link already at the name), for its owner only.
    let descriptor = FileWriting.createPrivate(file)
    guard descriptor >= 0 else { return nil }
    let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    defer { try? output.close() }
    do {
      var failed = false
      let (_, tooLarge) = try parts(
        of: name, table: "images", column: "data", where: "device = $1 AND number = $2",
        [name.device, String(name.number)], limit: PackageFormat.snapshotLimit
      ) { hex -> [UInt8] in
        guard let bytes = Self.bytes(fromHex: hex) else {
          failed = true
          return []
        }
        do { try output.write(contentsOf: bytes) } catch { failed = true }
        return []
      }
      return failed || tooLarge ? nil : file
    } catch {
      return nil
    }
  }

  public func writeImage(_ name: PackageName, _ make: (String) throws -> Void) throws {
    precondition(name.device == device, "a device writes only its own images")
    let file = NSTemporaryDirectory() + "docket-image-\(UUID().lowercasedText).sqlite"
    defer { unlink(file) }
    try make(file)
    guard let input = FileHandle(forReadingAtPath: file) else {
      throw RemoteError(location: location, problem: .system(String(cString: strerror(errno))))
    }
    defer { try? input.close() }
    let key = [name.device, String(name.number)]
    try transaction { db throws(PostgresError) in
      try db.execute(
        "DELETE FROM \(schema).packages WHERE device = $1 AND kind = 'image' AND number = $2", key
      )
      try db.execute(
        """
        INSERT INTO \(schema).packages (device, kind, number, device_name, header, size)
        VALUES ($1, 'image', $2, '', '', 0)
        """, key)
      var part = 0
      while let chunk = try? input.read(upToCount: Self.partBytes), !chunk.isEmpty {
        try db.execute(
          "INSERT INTO \(schema).images (device, number, part, data) VALUES ($1, $2, $3, $4)",
          key + [String(part), Self.hex(chunk)])
        part += 1
      }
    }
  }
}
