import Foundation

extension FileHandle {
  static func standardErrorWrite(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
