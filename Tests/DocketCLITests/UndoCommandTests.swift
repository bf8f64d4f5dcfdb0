import Foundation
import JSONText
import Testing

/// `docket undo`, `docket redo` and `docket conflicts`, as a person uses them.
@Suite struct UndoCommandTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func undoAndRedoTakeBackAndMakeAgainTheLatestCommand() throws {
    let login = try box.add(["Fix login"])
    let crash = try box.add(["Crash on start"])
    #expect(try box.docket(["close", login, crash]).status == 0)
    let list = try box.docket(["undo", "--list"])
    #expect(list.status == 0)
    #expect(list.lines.first?.hasPrefix("STEP") == true)
    #expect(list.lines.dropFirst().first?.hasSuffix("close 2 issues") == true)
    #expect(list.lines.count == 4)

    let undone = try box.docket(["undo"])
    #expect(undone.status == 0)
    #expect(undone.lines == ["Undid “close 2 issues”."])
    #expect(try box.docket(["list", "--json"]).output.contains("Fix login"))
    #expect(
      try box.docket(["redo", "--list"]).lines.dropFirst().first?.hasSuffix("close 2 issues")
        == true)

    let redone = try box.docket(["redo", "--json"])
    #expect(redone.status == 0)
    let json = try JSONReader.document(Array(redone.output.utf8))
    #expect(json["done"]?.string == "redo")
    #expect(json["verb"]?.string == "close")
    #expect(json["count"]?.number == 2)
    #expect(json["changes"]?.number == 2)
    #expect(json["kept"]?.array?.isEmpty == true)
    #expect(!(try box.docket(["list", "--json"]).output.contains("Fix login")))

    // Nothing more to redo: words on standard error and exit 1.
    let nothing = try box.docket(["redo"])
    #expect(nothing.status == 1)
    #expect(nothing.error == "docket: Nothing to redo.\n")
    // The history says which changes an undo and a redo made.
    let history = try box.docket(["history", login])
    #expect(history.output.contains("(undo)"))
    #expect(history.output.contains("(redo)"))
    // In German.
    let german = try box.docket(["undo"], environment: ["LANG": "de_DE.UTF-8"])
    #expect(german.lines == ["„2 Vorgänge abschließen“ rückgängig gemacht."])
  }

  @Test func anEmptyDatabaseHasNothingToUndo() throws {
    let run = try box.docket(["undo"])
    #expect(run.status == 1)
    #expect(run.error == "docket: Nothing to undo.\n")
    #expect(try box.docket(["undo", "--list"]).lines == ["Nothing to undo."])
    #expect(try box.docket(["undo", "--list", "--json"]).output == "[]\n")
  }

  /// Two databases syncing through a folder, each setting the title before it hears of the
  /// other's: the later is kept, the other listed as a conflict on both.
  @Test func conflictsAreListedUsedAndDismissedAcrossDevices() throws {
    let folder = box.path("remote")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let other = box.path("other.sqlite")
    func elsewhere(_ arguments: [String]) throws -> Run {
      try box.docket(arguments + ["--db", other], database: false)
    }
    let task = try box.add(["Task"])
    #expect(try box.docket(["remote", "set", folder]).status == 0)
    #expect(try elsewhere(["remote", "set", folder]).status == 0)
    #expect(try box.docket(["sync"]).status == 0)
    #expect(try elsewhere(["sync"]).status == 0)
    #expect(try box.docket(["edit", task, "--title", "Title here"]).status == 0)
    Thread.sleep(forTimeInterval: 0.01)
    #expect(try elsewhere(["edit", task, "--title", "Title there"]).status == 0)
    #expect(try elsewhere(["sync"]).status == 0)
    #expect(try box.docket(["sync"]).status == 0)

    let listed = try JSONReader.document(
      Array(try box.docket(["conflicts", "--json"]).output.utf8))
    let conflict = try #require(listed.array?.first)
    #expect(listed.array?.count == 1)
    #expect(conflict["field"]?.string == "title")
    #expect(conflict["kept"]?["value"]?.string == "Title there")
    #expect(conflict["lost"]?["value"]?.string == "Title here")
    #expect(conflict["lost"]?["device"] == .null)
    let id = String(Int(try #require(conflict["id"]?.number)))
    // The filter lists the same; a word after it is refused.
    #expect(
      try box.docket(["list", "--filter", "conflicts", "--json"]).output
        == (try box.docket(["conflicts", "--json"])).output)
    #expect(try box.docket(["list", "--filter", "conflicts", "task"]).status == 2)

    let used = try box.docket(["conflicts", "use", id])
    #expect(used.status == 0)
    #expect(used.lines == ["Used the lost title of “Title there”: “Title here”."])
    #expect(try box.docket(["conflicts", "--json"]).output == "[]\n")
    let again = try box.docket(["conflicts", "dismiss", id])
    #expect(again.status == 1)
    #expect(try box.docket(["conflicts", "use", "x"]).status == 2)
    #expect(try box.docket(["conflicts", "dismiss"]).status == 2)
    #expect(try box.docket(["sync"]).status == 0)
    #expect(try elsewhere(["sync"]).status == 0)
    #expect(try elsewhere(["conflicts", "--json"]).output == "[]\n")
    #expect(try elsewhere(["show", task]).output.contains("Title here"))
    #expect(try elsewhere(["conflicts", "dismiss", "--all"]).lines == ["Dismissed 0 conflicts."])
  }
}
