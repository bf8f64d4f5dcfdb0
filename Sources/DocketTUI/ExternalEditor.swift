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
      guard
        var edited = try? TextEditorRun.edit(
          fileText(text), fileName: "detail.txt", environment: environment)
      else { return nil }
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
