import DocketCore
import Files
import Foundation
import Postgres

/// A snapshot's database image, kept beside its package in the space's `images` table (sealed,
/// in an encrypted space).
extension PostgresRemote {
  public func copyImage(_ name: PackageName, to path: String) -> Bool {
    // Made anew (never through a file or link already at the name), for its owner only.
    let descriptor = FileWriting.createPrivate(path)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var failed = false
    var tooLarge = false
    func fetch(_ each: ([UInt8]) throws -> Void) throws {
      (_, tooLarge) = try parts(
        of: name, table: "images", column: "data", where: "device = $1 AND number = $2",
        [name.device, String(name.number)],
        limit: key == nil
          ? PackageFormat.snapshotLimit : SealedBytes.sealedLimit(PackageFormat.snapshotLimit)
      ) { hex -> [UInt8] in
        guard let bytes = Self.bytes(fromHex: hex) else {
          failed = true
          return []
        }
        try each(bytes)
        return []
      }
    }
    do {
      if let key {
        try SealedBytes.open(name: name, key: key, into: descriptor) { take in
          try fetch { try take($0[...]) }
        }
      } else {
        try fetch { bytes in
          if bytes.withUnsafeBytes({ FileWriting.writeAll(descriptor, $0) }) != nil {
            failed = true
          }
        }
      }
      return !(failed || tooLarge)
    } catch {
      return false
    }
  }

  public func writeImage(_ name: PackageName, _ make: (String) throws -> Void) throws {
    precondition(name.device == device, "a device writes only its own images")
    let file = NSTemporaryDirectory() + "docket-image-\(UUID().lowercasedText).sqlite"
    defer { unlink(file) }
    try make(file)
    var input = open(file, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else {
      throw RemoteError(location: location, problem: .system(String(cString: strerror(errno))))
    }
    defer { close(input) }
    if let key {
      // Sealed into a file of its own first: only sealed bytes go to the server, read from it
      // a part at a time within the transaction, as a plain image is.
      let sealed = try SealedBytes.privateFile()
      do {
        try SealedBytes.seal(file: input, name: name, key: key) { bytes in
          if let failure = FileWriting.writeAll(sealed, bytes) {
            throw RemoteError(location: location, problem: .system(FileWriting.reason(failure)))
          }
        }
      } catch {
        close(sealed)
        throw error
      }
      close(input)
      input = sealed
      guard lseek(input, 0, SEEK_SET) == 0 else {
        throw RemoteError(location: location, problem: .system(String(cString: strerror(errno))))
      }
    }
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
      var buffer = [UInt8](repeating: 0, count: Self.partBytes)
      var part = 0
      while let count = try? SealedBytes.readFull(input, into: &buffer), count > 0 {
        try db.execute(
          "INSERT INTO \(schema).images (device, number, part, data) VALUES ($1, $2, $3, $4)",
          key + [String(part), Self.hex(Data(buffer[..<count]))])
        part += 1
      }
    }
  }
}
