import Database
import DocketTestSupport
import Foundation
import Testing

@testable import DocketCore

@Suite struct SchemaTests {
  @Test func theDatabaseStampsEditsButNotCreation() throws {
    let db = try TestDatabase()
    let issue = try db.issue("Write tests")
    #expect(try db.queue.read { try $0.fetchIssue(id: issue.id)?.modified } == .some(nil))
    db.time.advance(by: 60)
    try db.queue.write { try $0.execute("UPDATE issues SET priority = 2 WHERE id = ?", [issue.id]) }
    let stored = try #require(try db.queue.read { try $0.fetchIssue(id: issue.id) })
    #expect(stored.modified == db.now)
    #expect(stored.lastActivity == db.now)
  }

  @Test func aWriterThatSetsModifiedItselfKeepsItsValue() throws {
    let db = try TestDatabase()
    let issue = try db.issue("Synced")
    let senderTime = Date(timeIntervalSince1970: 1_700_000_000)
    try db.queue.write {
      try $0.execute(
        "UPDATE issues SET title = 'Synced edit', modified = ? WHERE id = ?",
        [senderTime, issue.id])
    }
    #expect(try db.queue.read { try $0.fetchIssue(id: issue.id)?.modified } == senderTime)
  }

  @Test func theFullTextIndexFollowsInsertsUpdatesAndDeletes() throws {
    let db = try TestDatabase()
    let issue = try db.issue("Alpha", detail: "bravo")
    #expect(try db.titles(search: "bravo") == ["Alpha"])
    try db.queue.write {
      try $0.execute("UPDATE issues SET detail = 'charlie' WHERE id = ?", [issue.id])
    }
    #expect(try db.titles(search: "bravo") == [])
    #expect(try db.titles(search: "charlie") == ["Alpha"])
    try db.queue.write { try $0.deleteIssues([issue.id]) }
    #expect(try db.titles(search: "charlie") == [])
    let integrity = try db.queue.read { db in
      try db.execute("INSERT INTO issue_fts (issue_fts, rank) VALUES ('integrity-check', 1)")
      return true
    }
    #expect(integrity)
  }

  @Test func deletingAnIssueOrATagRemovesItsLinks() throws {
    let db = try TestDatabase()
    let bug = try db.tag("Bug")
    let ui = try db.tag("UI")
    let first = try db.issue("First", tags: [bug, ui])
    try db.issue("Second", tags: [bug])
    try db.queue.write { try $0.deleteIssues([first.id]) }
    #expect(
      try db.queue.read { try $0.fetchOne("SELECT count(*) FROM issue_tags", as: Int.self) } == 1)
    try db.queue.write { try $0.deleteTag(id: bug.id) }
    #expect(
      try db.queue.read { try $0.fetchOne("SELECT count(*) FROM issue_tags", as: Int.self) } == 0)
    #expect(try db.titles() == ["Second"])
  }

  @Test func aFileDatabaseIsCreatedPrivateInANewFolderAndReopens() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("nested/docket.sqlite").path
    do {
      let queue = try DocketDatabase.open(path: path)
      try queue.write { _ = try $0.createTag(named: "Kept", id: UUID()) }
    }
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
    let folderAttributes = try FileManager.default.attributesOfItem(
      atPath: folder.appendingPathComponent("nested").path)
    #expect(folderAttributes[.posixPermissions] as? Int == 0o700)
    let reopened = try DocketDatabase.open(path: path)
    #expect(try reopened.read { try $0.fetchTags().map(\.name) } == ["Kept"])
  }

  @Test func aFileThatIsNotADocketDatabaseIsRefusedUntouched() throws {
    let folder = try TemporaryDirectory()
    let text = folder.url.appendingPathComponent("todo.txt")
    try Data("buy milk\n".utf8).write(to: text)
    #expect(throws: DatabaseOpenError.notADatabase(path: text.path)) {
      _ = try DocketDatabase.open(path: text.path)
    }
    #expect(try Data(contentsOf: text) == Data("buy milk\n".utf8))

    let newer = folder.url.appendingPathComponent("newer.sqlite")
    do {
      let queue = try DocketDatabase.open(path: newer.path)
      try queue.withConnection { try $0.execute("PRAGMA user_version = 99") }
    }
    let before = try Data(contentsOf: newer)
    #expect(
      throws: DatabaseOpenError.newerSchema(
        path: newer.path, found: 99, supported: Schema.migrator.latestVersion)
    ) {
      _ = try DocketDatabase.open(path: newer.path)
    }
    #expect(try Data(contentsOf: newer) == before)
  }
}

@Suite struct DatabaseFolderTests {
  @Test func aFolderThatCannotBeMadeIsAClearError() throws {
    let blocker = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-file-\(UUID().uuidString)")
    try Data("x".utf8).write(to: blocker)
    defer { try? FileManager.default.removeItem(at: blocker) }
    let path = blocker.appendingPathComponent("inside/docket.sqlite").path
    #expect(throws: DatabaseOpenError.cannotOpen(path: path, reason: "Not a directory")) {
      _ = try DocketDatabase.open(path: path)
    }
  }
}
