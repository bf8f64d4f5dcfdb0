import Composable
import Foundation
import Terminal

/// Text edited in the person's own editor (`$VISUAL`, else `$EDITOR`, else `vi`), the terminal
/// app stepping aside while it runs. A dependency: the feature decides when and what to do with
/// the result; tests give an editor of their own.
public struct ExternalEditor: Sendable {
  /// The edited text; nil when the editor could not run or did not end well (nothing changes).
  public var edit: @Sendable (String) async -> String?

  public init(edit: @escaping @Sendable (String) async -> String?) {
    self.edit = edit
  }

  /// What the editor is given: the text with a final newline, as a text file ends (a tool that
  /// appends a line would glue it to the last one otherwise). Read back, trailing newlines go.
  static func fileText(_ text: String) -> String {
    text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
  }

  /// Runs the editor on a temporary file with the session's terminal handed over meanwhile.
  @MainActor
  static func run(_ text: String, session: TerminalSession, environment: [String: String])
    -> String?
  {
    session.outside {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "docket-detail-\(UUID().uuidString).txt")
      defer { try? FileManager.default.removeItem(at: file) }
      guard (try? Data(fileText(text).utf8).write(to: file)) != nil else { return nil }
      let editor =
        environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 }
        ?? environment["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
      // The editor may carry arguments (`code --wait`), so the shell splits it.
      let status = ForegroundProgram.run(
        "/bin/sh", arguments: ["-c", editor + " \"$1\"", "docket-editor", file.path])
      guard status == 0 else { return nil }
      var edited = (try? String(contentsOf: file, encoding: .utf8)) ?? text
      while edited.hasSuffix("\n") { edited.removeLast() }
      return edited
    }
  }
}

private enum ExternalEditorKey: DependencyKey {
  /// The app sets the editor that hands its terminal over; without one nothing is edited.
  static let liveValue = ExternalEditor { _ in nil }
  static let testValue = ExternalEditor { _ in nil }
  static let name = "externalEditor"
}

extension DependencyValues {
  public var externalEditor: ExternalEditor {
    get { self[ExternalEditorKey.self] }
    set { self[ExternalEditorKey.self] = newValue }
  }
}
