import DocketSync
import Foundation
import Testing

/// A password stored in libpq's password file replaces the line for the same connection only:
/// every other line stays byte for byte, a link stays a link, and a file that cannot be read is
/// an error, never emptied.
@Suite struct PasswordFileTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "docket-pgpass-\(UUID().uuidString)"
  ).path
  let parameters = [
    "host": "db.example", "port": "5432", "dbname": "issues", "user": "ana", "password": "new",
  ]

  init() throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  @Test func otherLinesAreKeptByteForByteThroughALink() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let real = folder + "/dotfiles-pgpass"
    // Another connection's password that is no UTF-8, and the old line for this one.
    let other: [UInt8] = Array("other.host:5432:*:bob:".utf8) + [0x70, 0xE4, 0x21]
    let old = Array("db.example:5432:issues:ana:old".utf8)
    try Data(other + [0x0A] + old + [0x0A]).write(to: URL(fileURLWithPath: real))
    let link = folder + "/.pgpass"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
    try PostgresPasswordFile.store(parameters, at: link, environment: [:])
    let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: real)))
    #expect(written == Array("db.example:5432:issues:ana:new\n".utf8) + other + [0x0A])
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "still a link")
    let mode = try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  /// A file that cannot be read is an error and stays as it was. Here a link that leads to
  /// itself, which reading fails on (ELOOP) while a rename over it would succeed: taken for an
  /// empty file, the link would be replaced by a file holding only the new line.
  @Test func aFileThatCannotBeReadIsAnErrorAndStaysAsItWas() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/pgpass"
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
    #expect(throws: POSIXError.self) {
      try PostgresPasswordFile.store(parameters, at: path, environment: [:])
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == path)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pgpass"])
  }
}
