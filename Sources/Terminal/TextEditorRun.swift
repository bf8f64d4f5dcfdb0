import Foundation

/// The person's own editor on a text: `$VISUAL`, else `$EDITOR`, else `vi`, run in the foreground
/// on a file in a private temporary folder that is removed afterwards. The command line's
/// `docket edit` and the terminal app's `E` both edit this way.
public enum TextEditorRun {
  public enum Failure: Error, Equatable {
    /// The temporary folder or file could not be made or read back (the system's words).
    case file(String)
    /// The editor could not start (`status` nil) or ended with a status other than 0.
    case editor(command: String, status: Int32?)
    /// The file the editor left is not UTF-8 text.
    case notText
  }

  /// The editor the environment names; an empty variable counts as unset.
  public static func command(environment: [String: String]) -> String {
    environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 }
      ?? environment["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
  }

  /// The text as the editor left it. `fileName` is what the editor shows (and what its syntax
  /// highlighting goes by). The folder is made anew for its owner only (0700), and the file in it
  /// too (0600), so no other user can read the text or put a file in its place.
  public static func edit(
    _ text: String, fileName: String, environment: [String: String]
  ) throws(Failure) -> String {
    var template = Array((NSTemporaryDirectory() + "/docket-edit-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw .file(reason()) }
    let folder = String(cString: made)
    let path = folder + "/" + fileName
    defer {
      unlink(path)
      rmdir(folder)
    }
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .file(reason()) }
    let written = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      try written.write(contentsOf: Data(text.utf8))
      try written.close()
    } catch {
      throw .file(error.localizedDescription)
    }
    let editor = command(environment: environment)
    // The editor may carry arguments (`code --wait`), so the shell splits it.
    let status = ForegroundProgram.run(
      "/bin/sh", arguments: ["-c", editor + " \"$1\"", "docket-editor", path])
    guard status == 0 else { throw .editor(command: editor, status: status) }
    guard let data = FileManager.default.contents(atPath: path) else { throw .file(reason()) }
    guard let edited = String(data: data, encoding: .utf8) else { throw .notText }
    return edited
  }

  private static func reason() -> String { String(cString: strerror(errno)) }
}
