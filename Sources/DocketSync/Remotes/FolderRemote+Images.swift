import DocketCore
import DocketTransfer
import Files
import Foundation

// A database image beside a large snapshot, so that a new device starts from a copy of the
// database instead of replaying the snapshot's changes.
extension FolderRemote {
  public func imageFile(_ name: PackageName) -> String? {
    FileReading.entry(filePath(name))?.kind == .file ? filePath(name) : nil
  }

  public func writeImage(_ name: PackageName, _ make: (String) throws -> Void) throws {
    precondition(name.device == device, "a device writes only its own images")
    try ownFolder(making: true)
    let target = filePath(name)
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
