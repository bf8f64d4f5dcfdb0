import Foundation
import Testing

@testable import Files

/// A file replaced whole: the new one whole, or the old one as it was, and nothing beside it.
@Suite struct FileReplacementTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "docket-replace-\(UUID().uuidString)"
  ).path

  init() throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  func mode(_ path: String) throws -> Int? {
    try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
  }

  func write(_ text: String) -> (Int32) -> Int32? {
    { descriptor in Array(text.utf8).withUnsafeBytes { FileWriting.writeAll(descriptor, $0) } }
  }

  @Test func aNewFileIsPrivateAndAFileReplacedKeepsItsPermissions() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let target = folder + "/notes.txt"
    try FileReplacement.replace(target, write("first\n"))
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "first\n")
    #expect(try mode(target) == 0o600)
    // Writable by others: no usual umask leaves that, so only a kept mode has it.
    chmod(target, 0o646)
    try FileReplacement.replace(target, write("second\n"))
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "second\n")
    #expect(try mode(target) == 0o646)
    try FileReplacement.replace(target, mode: 0o640, write("third\n"))
    #expect(try mode(target) == 0o640)
    #expect(try contents() == ["notes.txt"])
  }

  @Test func aFailedWriteLeavesTheOldFileAndNothingBesideIt() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let target = folder + "/notes.txt"
    try FileReplacement.replace(target, write("kept\n"))
    #expect(throws: FileReplacement.Failure(code: ENOSPC)) {
      try FileReplacement.replace(target) { descriptor in
        _ = self.write("half")(descriptor)
        return ENOSPC
      }
    }
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try FileReplacement.replace(target) { _ in throw Refused() }
    }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
    #expect(try contents() == ["notes.txt"])
  }

  /// A file made only where there is none: a second writer of the name is refused and changes
  /// nothing, on a file system with hard links, on one without (a memory stick's FAT), and over
  /// NFS, whose link may answer "exists" for the link it has just made.
  @Test func aFileIsMadeOnlyWhereThereIsNone() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let noLinks: (String, String) -> Int32? = { _, _ in EPERM }
    let nfs: (String, String) -> Int32? = { link($0, $1) == 0 ? EEXIST : errno }
    let systems: [(String, (String, String) -> Int32?)] = [
      ("links", { link($0, $1) == 0 ? nil : errno }), ("no links", noLinks), ("nfs", nfs),
    ]
    for (name, linking) in systems {
      let target = folder + "/" + name
      try FileReplacement.create(target, mode: 0o640, linking: linking, write("first\n"))
      #expect(try String(contentsOfFile: target, encoding: .utf8) == "first\n", "\(name)")
      #expect(try mode(target) == 0o640, "\(name)")
      #expect(throws: FileReplacement.Failure(code: EEXIST), "\(name)") {
        try FileReplacement.create(
          target, mode: 0o600, linking: name == "nfs" ? { _, _ in EEXIST } : linking,
          self.write("second\n"))
      }
      #expect(try String(contentsOfFile: target, encoding: .utf8) == "first\n", "\(name)")
    }
    #expect(try contents() == ["links", "nfs", "no links"])
    // Another error is said as it is.
    #expect(throws: FileReplacement.Failure(code: EIO)) {
      try FileReplacement.create(
        self.folder + "/failed", mode: 0o600, linking: { _, _ in EIO }, self.write("x"))
    }
    #expect(try contents() == ["links", "nfs", "no links"])
  }

  /// A temporary file is made new, empty and private, beside the file, under a name that starts
  /// with a dot (which readers of a folder pass over) and differs each time.
  @Test func temporaryFilesAreNewPrivateAndHidden() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let target = folder + "/notes.txt"
    let first = try FileReplacement.makeTemporary(beside: target)
    let second = try FileReplacement.makeTemporary(beside: target)
    close(first.descriptor)
    close(second.descriptor)
    #expect(first.path != second.path)
    for path in [first.path, second.path] {
      #expect((path as NSString).lastPathComponent.hasPrefix(".notes.txt.docket-"))
      #expect(FileReplacement.isTemporaryName((path as NSString).lastPathComponent))
      #expect((path as NSString).deletingLastPathComponent == folder)
      #expect(try mode(path) == 0o600)
      #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
    }
  }

  /// Only names `makeTemporary` gives are taken for its temporary files.
  @Test func temporaryNamesAreKnownByTheirShape() {
    for name in [".notes.txt.docket-0.tmp", ".a.docket-ffffffff.tmp", "..docket.docket-1a.tmp"] {
      #expect(FileReplacement.isTemporaryName(name), "\(name)")
    }
    for name in [
      "notes.txt.docket-1a.tmp", ".docket-1a.tmp", ".notes.docket-.tmp", ".notes.docket-1g.tmp",
      ".notes.docket-123456789.tmp", ".notes.docket-1a.tmpx", ".notes.txt", ".stfolder",
    ] {
      #expect(!FileReplacement.isTemporaryName(name), "\(name)")
    }
  }

  @Test func writingAllOfALargePieceThroughAPipe() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let bytes = [UInt8](repeating: 0x61, count: 1 << 20)
    // Read on another thread while the whole mebibyte goes in (a pipe holds 64 KiB).
    final class Received: @unchecked Sendable { var count = 0 }
    let received = Received()
    let done = DispatchSemaphore(value: 0)
    let reader = ends[0]
    Thread.detachNewThread {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while case let count = read(reader, &buffer, buffer.count), count > 0 {
        received.count += count
      }
      done.signal()
    }
    let failure = bytes.withUnsafeBytes { FileWriting.writeAll(ends[1], $0) }
    close(ends[1])
    #expect(done.wait(timeout: .now() + 30) == .success)
    close(ends[0])
    #expect(failure == nil)
    #expect(received.count == bytes.count)
  }
}
