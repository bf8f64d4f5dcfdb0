import DocketCore
import DocketTransfer
import Files
import Foundation

// A database image beside a large snapshot, so that a new device starts from a copy of the
// database instead of replaying the snapshot's changes.
extension FolderRemote {
  public func copyImage(_ name: PackageName, to path: String) -> Bool {
    let file = filePath(name)
    guard FileReading.entry(file)?.kind == .file else { return false }
    guard let key else {
      do {
        try FileManager.default.copyItem(atPath: file, toPath: path)
        return true
      } catch { return false }
    }
    guard let opened = try? FileReading.open(file, limit: limit(.image)) else { return false }
    defer { close(opened.descriptor) }
    let output = FileWriting.createPrivate(path)
    guard output >= 0 else { return false }
    defer { close(output) }
    do {
      try SealedBytes.open(file: opened.descriptor, name: name, key: key, into: output)
      return true
    } catch {
      return false
    }
  }

  public func writeImage(_ name: PackageName, _ make: (String) throws -> Void) throws {
    precondition(name.device == device, "a device writes only its own images")
    try ownFolder(making: true)
    let target = filePath(name)
    if let key {
      // Made on this machine, and only its sealed bytes go into the shared folder.
      let local = NSTemporaryDirectory() + "docket-image-\(UUID().lowercasedText).sqlite"
      defer { unlink(local) }
      try make(local)
      let input = open(local, O_RDONLY | O_CLOEXEC)
      guard input >= 0 else {
        throw RemoteError(location: local, problem: .system(String(cString: strerror(errno))))
      }
      defer { close(input) }
      return try Self.naming(target) {
        try FileReplacement.replace(target, mode: 0o600) { output in
          try SealedBytes.seal(file: input, name: name, key: key) { sealed in
            if let failure = FileWriting.writeAll(output, sealed) {
              throw FileReplacement.Failure(code: failure)
            }
          }
          return nil
        }
      }
    }
    try Self.naming(target) {
      // A name of its own, for `make` to create the image at (it makes the file itself).
      let (temporary, descriptor) = try FileReplacement.makeTemporary(beside: target)
      close(descriptor)
      unlink(temporary)
      do {
        try make(temporary)
        let written = open(temporary, O_RDONLY | O_CLOEXEC)
        if written >= 0 {
          fsync(written)
          close(written)
        }
        if rename(temporary, target) != 0 { throw FileReplacement.Failure(code: errno) }
        FileReplacement.syncFolder(of: target)
      } catch {
        unlink(temporary)
        throw error
      }
    }
  }
}
