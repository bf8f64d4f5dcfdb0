import Database
import DocketCore
import DocketSync
import DocketTestSupport
import DocketTransfer
import Foundation
import Testing

/// What arrives from other devices, other people, other versions and tools, and what a person
/// does with backups and copies: none of it may crash a reader, poison a clock or split the
/// devices (SPEC §10, Trust). Each test is one way it once did.
@Suite struct TrustTests {
  let folder: TemporaryDirectory
  let a: Replica
  let b: Replica

  init() throws { (folder, a, b) = try Replica.pair() }

  /// A change file of `device`'s, numbered `number`, holding `lines` as they are.
  func plant(_ lines: [String], device: String, number: Int, name: String = "Mallory") throws {
    let text =
      "{\"docket\":\"changes\",\"version\":1,\"device\":\"\(device)\",\"name\":\"\(name)\",\"number\":\"\(number)\",\"count\":\(lines.count)}\n"
      + lines.map { $0 + "\n" }.joined() + "{\"end\":\(lines.count)}\n"
    try FileManager.default.createDirectory(
      atPath: folder.path(device), withIntermediateDirectories: true)
    try text.write(
      toFile: folder.path(device) + String(format: "/%08d.changes", number), atomically: true,
      encoding: .utf8)
  }

  /// A change as a line, `members` as written (JSON).
  func line(
    _ hlc: Int64, _ device: String, _ entity: String, _ row: String, _ field: String,
    _ extra: String = ""
  ) -> String {
    "{\"h\":\"\(hlc)\",\"d\":\"\(device)\",\"e\":\"\(entity)\",\"r\":\"\(row)\",\"f\":\"\(field)\"\(extra)}"
  }

  /// An issue's create as a change carries it.
  func create(
    title: String = "Crafted", priority: String = "0", completed: String = "0",
    created: String = "\"1800000000.0\""
  ) -> String {
    let object =
      "{\"title\":\"\(title)\",\"detail\":\"\",\"priority\":\(priority),\"completed\":\(completed),\"created\":\(created)}"
    return ",\"n\":"
      + String(decoding: try! JSONSerialization.data(withJSONObject: [object]), as: UTF8.self)
      .dropFirst().dropLast()
  }

  var now: Int64 { HybridClock.stamp(b.time.now) }

  // MARK: 1. A crafted file

  @Test func changesNoDeviceCouldMakeAreSkippedAndNamedAndTheRestApplied() throws {
    let mallory = UUID().lowercasedText
    let good = UUID().lowercasedText
    let lines = [
      line(now, mallory, "issue", UUID().lowercasedText, "create", create() + ",\"m\":1e300"),
      line(now, mallory, "issue", UUID().lowercasedText, "create", create(created: "\"1e300\"")),
      line(now, mallory, "issue", UUID().lowercasedText, "create", create() + ",\"m\":-1e18"),
      line(now, mallory, "issue", UUID().lowercasedText, "create", create(priority: "-5")),
      line(now, mallory, "issue", UUID().lowercasedText, "create", create(priority: "99")),
      line(now, mallory, "issue", UUID().lowercasedText, "create", create(completed: "7")),
      line(now, mallory, "issue", UUID().lowercasedText, "create", create(title: "two\\nlines")),
      line(now, mallory, "issue", good, "create", create(title: "Good")),
      line(
        now + 1, mallory, "issue", good, "title",
        ",\"n\":\"" + String(repeating: "x", count: Limits.titleCharacters + 1) + "\""),
    ]
    try plant(lines, device: mallory, number: 1)
    let report = try b.sync()
    let rejected = report.skipped.compactMap { entry -> ChangeFormatError? in
      if case .package(.badChange(let error)) = entry.problem { return error }
      return nil
    }
    #expect(
      rejected.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 10],
      "\(rejected.map(\.description))")
    #expect(rejected[0].reason == .modified && rejected[1].reason == .value(field: "created"))
    #expect(rejected[3].reason == .value(field: "priority"))
    #expect(rejected[6].reason == .notOneLine)
    #expect(rejected[7].reason == .tooLong(field: "title", limit: Limits.titleCharacters))
    // Only the good change is kept; nothing out of range is stored.
    #expect(
      try b.queue.read {
        try $0.fetchAll("SELECT title FROM issues") { try $0.get(0, as: String.self) }
      } == ["Good"])
    #expect(
      try b.queue.read {
        try $0.fetchOne("SELECT count(*) FROM changes WHERE row_id != ?", [good], as: Int.self)
      } == 0)
    // Read as read: named once.
    #expect(try b.sync().skipped.isEmpty)
  }

  /// A database that holds such a value anyway (an older version, a hand edit): reading it
  /// shows the date as unknown, never traps.
  @Test func datesOutOfRangeInTheDatabaseReadAsUnknown() throws {
    let issue = try a.issue("Odd dates")
    try a.queue.write { db in
      try db.execute("UPDATE sync_clock SET applying = 1")
      try db.execute("UPDATE issues SET created = 1e300, modified = -1e18 WHERE id = ?", [issue.id])
      try db.execute("UPDATE sync_clock SET applying = 0")
    }
    let read = try #require(try a.stored(issue.id))
    #expect(!read.created.isKept && read.modified?.isKept == false)
    #expect(ISOTime.string(read.created) == ISOTime.unknown)
    #expect(LocalTime.minutes(read.created) == LocalTime.unknown)
    #expect(RowDate(read.created, now: a.time.now) == .unknown)
    #expect(RelativeTime.parts(read.created, now: a.time.now).key == "time.unknown")
    for value in [Double.infinity, -Double.infinity, .nan, 1e300, -1e18] {
      let date = Date(timeIntervalSince1970: value)
      #expect(RowDate(date, now: a.time.now) == .unknown)
      #expect(ISOTime.string(date) == ISOTime.unknown)
    }
  }

  // MARK: 2. A backup restored

  @Test func aBackupRestoredKeepsDeletedWhatSyncDeletedAndAllAgree() throws {
    let kept = try a.issue("Kept")
    let gone = try a.issue("Deleted later")
    try a.sync()
    try b.sync()
    let backup = try b.backup()
    a.time.advance(by: 10)
    _ = try a.queue.write { try $0.deleteIssues([gone.id]) }
    try a.sync()
    try b.sync()
    b.time.advance(by: 10)
    let summary = try b.restore(backup)
    #expect(summary.keptDeleted == 1 && summary.createdIssues == 0)
    let c = try Replica("C", remote: folder.path)
    for replica in [b, a, c, b, a] { try replica.sync() }
    for replica in [a, b, c] {
      #expect(try replica.stored(gone.id) == nil, "\(replica.name)")
      #expect(try replica.stored(kept.id) != nil, "\(replica.name)")
    }
    #expect(try a.dump() == b.dump() && b.dump() == c.dump())
    // Asked to, it brings them back everywhere: a restore later than the delete wins.
    b.time.advance(by: 10)
    #expect(try b.restore(backup, restoreDeleted: true).restoredIssues == 1)
    for replica in [b, a, c] { try replica.sync() }
    for replica in [a, b, c] { #expect(try replica.stored(gone.id)?.title == "Deleted later") }
    // And its later edits reach everyone.
    b.time.advance(by: 10)
    try b.edit(gone.id) { $0.title = "Back, and edited" }
    for replica in [b, a, c] { try replica.sync() }
    #expect(try a.stored(gone.id)?.title == "Back, and edited")
    #expect(try a.dump() == b.dump() && b.dump() == c.dump())
  }

  /// A backup made while a tag had its own name, restored after it was renamed into another tag
  /// (one tag of two ids now): the backup's tag is made anew under its name, the id stays one of
  /// the other tag's, and an issue linked through it since stays where every device has it.
  @Test func aBackupRestoredAfterItsTagWasMergedAgreesEverywhere() throws {
    let later = try a.tag("Later", id: UUID(uuidString: "FFFFFFFF-0000-4000-8000-000000000001")!)
    let old = try a.issue("Tagged before the backup", tags: [later])
    try a.sync()
    try b.sync()
    let backup = try b.backup()
    a.time.advance(by: 5)
    let since = try a.issue("Tagged after the backup", tags: [later])
    _ = try b.tag("UI", id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!)
    try b.sync()
    _ = try a.queue.write { try $0.renameTag(id: later.id, to: "ui") }
    for replica in [a, b, a] { try replica.sync() }
    #expect(try b.stored(since.id)?.tags.map(\.name) == ["ui"])
    b.time.advance(by: 10)
    _ = try b.restore(backup)
    #expect(try b.dump() == rebuiltDump(b))
    let c = try Replica("C", remote: folder.path)
    for replica in [b, a, c, b, a] { try replica.sync() }
    for replica in [a, b, c] {
      #expect(try replica.stored(since.id)?.tags.map(\.name) == ["ui"], "\(replica.name)")
      #expect(try replica.stored(old.id)?.tags.map(\.name) == ["Later"], "\(replica.name)")
      #expect(try replica.stored(old.id)?.tags.first?.id != later.id, "\(replica.name)")
      #expect(try replica.dump() == rebuiltDump(replica), "\(replica.name)")
    }
    #expect(try a.dump() == b.dump() && b.dump() == c.dump())
  }

  /// A file naming a tag by an id sync knows and that does not live here (links to it arrived,
  /// its making not): the file's tag is made anew under its name, and the links waiting for the
  /// id go on waiting, the same on every device.
  @Test func aFilesTagOfAnIdThatWaitsIsMadeAnewAndAllAgree() throws {
    let waiting = UUID().lowercasedText
    let mallory = UUID().lowercasedText
    let row = UUID().lowercasedText
    try plant(
      [
        line(now, mallory, "issue", row, "create", create(title: "Linked to what never came")),
        line(now + 1, mallory, "link", row, waiting, ",\"o\":0,\"n\":1,\"m\":1800000000"),
      ], device: mallory, number: 1)
    try b.sync()
    try a.sync()
    #expect(try b.stored(UUID(text: row)!)?.tags == [])
    // A database elsewhere that has a tag of that id, and its backup restored here.
    let other = try Replica("Elsewhere", remote: folder.path + "-unused")
    let tag = try other.tag("Zed", id: UUID(text: waiting)!)
    let tagged = try other.issue("From the backup", tags: [tag])
    b.time.advance(by: 10)
    _ = try b.restore(try other.backup())
    #expect(try b.dump() == rebuiltDump(b))
    for replica in [b, a, b] { try replica.sync() }
    for replica in [a, b] {
      #expect(try replica.stored(tagged.id)?.tags.map(\.name) == ["Zed"], "\(replica.name)")
      #expect(try replica.stored(tagged.id)?.tags.first?.id != tag.id, "\(replica.name)")
      #expect(try replica.stored(UUID(text: row)!)?.tags == [], "\(replica.name)")
    }
    #expect(try a.dump() == b.dump())
  }

  // MARK: 3. A copied database

  @Test func aCopiedDatabaseTakesANewIdAndBothCopiesEditsReachEveryone() throws {
    let issue = try a.issue("Before the copy")
    try a.sync()
    try b.sync()
    let copy = try Replica(copying: a, name: "Laptop copy")
    #expect(copy.device == a.device)
    a.time.advance(by: 5)
    copy.time.advance(by: 6)
    try a.edit(issue.id) { $0.detail = "Edited on the original" }
    try copy.issue("Made on the copy")
    let first = try a.sync()
    let second = try copy.sync()
    #expect(first.newDevice == nil)
    #expect(second.newDevice == .copied)
    #expect(copy.device != a.device)
    // Said once.
    #expect(try copy.sync().newDevice == nil)
    for replica in [a, copy, b, a, copy] { try replica.sync() }
    for replica in [a, copy, b] {
      #expect(try replica.stored(issue.id)?.detail == "Edited on the original", "\(replica.name)")
      #expect(
        try replica.queue.read {
          try $0.fetchOne(
            "SELECT count(*) FROM issues WHERE title = 'Made on the copy'", as: Int.self)
        } == 1, "\(replica.name)")
    }
    #expect(try a.dump() == copy.dump() && copy.dump() == b.dump())
  }

  // MARK: 4. A clock that is wrong

  @Test func aStampFromTheYear4000IsHeldAndMovesNoClock() throws {
    let mallory = UUID().lowercasedText
    let row = UUID().lowercasedText
    let far = HybridClock.stamp(Date(timeIntervalSince1970: 64_060_588_800))  // 4000-01-01
    try plant(
      [line(far, mallory, "issue", row, "create", create(title: "From the future"))],
      device: mallory, number: 1)
    let report = try b.sync()
    #expect(report.held.map(\.id) == [mallory])
    #expect(report.held.first.map { $0.ahead > 365 * 86_400 * 1900 } == true)
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 0)
    #expect(
      try b.queue.read { try $0.fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) }! < far)
    // B's own edits are stamped now, and go out as such.
    let mine = try b.issue("Mine")
    let entry = try #require(try b.queue.read { try $0.history(ofIssue: mine.id) }.first)
    #expect(abs(entry.when.timeIntervalSince(b.time.now)) < 60)
    // The warning names the device and how far ahead it is.
    let words = SyncMessages.notes(report, DocketStrings.localizer(language: "en"))
    #expect(
      words.contains {
        $0.hasPrefix("Mallory's clock is ") && $0.contains("ahead: 1 of its changes waits")
      })
  }

  @Test func aDeviceAYearAheadIsHeldUntilItsClockIsSetRightThenItsEditsReachEveryone() throws {
    let bug = try a.tag("Bug")
    let issue = try a.issue("Shared", tags: [try a.tag("Old")])
    try a.sync()
    try b.sync()
    let year: TimeInterval = 365 * 86_400
    a.time.advance(by: year)
    try a.edit(issue.id) {
      $0.title = "Edited a year ahead"
      $0.tags = [bug]
    }
    try a.sync()
    let held = try b.sync()
    #expect(held.held.first?.name == "Laptop")
    #expect(try b.stored(issue.id)?.title == "Shared")
    // Set right: the laptop retires the id whose clock ran ahead and makes its edit again.
    a.time.advance(by: -year + 60)
    b.time.advance(by: 60)
    let repaired = try a.sync()
    #expect(repaired.newDevice == .clockRepaired)
    let released = try b.sync()
    #expect(released.held.isEmpty)
    try a.sync()
    #expect(try b.stored(issue.id)?.title == "Edited a year ahead")
    // Its tags as it left them too: one taken off, one put on.
    #expect(try b.stored(issue.id)?.tags.map(\.name) == ["Bug"])
    #expect(try a.dump() == b.dump())
    // B's later edit wins again, everywhere.
    b.time.advance(by: 10)
    try b.edit(issue.id) { $0.title = "Later on B" }
    try b.sync()
    try a.sync()
    #expect(try a.stored(issue.id)?.title == "Later on B")
    // The year-ahead change is in both histories, as lost.
    for replica in [a, b] {
      let lost = try replica.queue.read { try $0.history(ofIssue: issue.id) }.filter(\.lost)
      #expect(lost.contains { $0.new == .text("Edited a year ahead") }, "\(replica.name)")
    }
  }

  /// A database whose clock an older Docket let follow a stamp from the year 4000: every edit
  /// after stamped after it. Its first sync repairs it: the others take its edits, and theirs
  /// win again.
  @Test func aClockAnOlderVersionMovedFarAheadIsRepaired() throws {
    let issue = try a.issue("Shared")
    try a.sync()
    try b.sync()
    let far = HybridClock.stamp(Date(timeIntervalSince1970: 64_060_588_800))
    try a.queue.write { try $0.execute("UPDATE sync_clock SET hlc = ?", [far]) }
    try a.edit(issue.id) { $0.detail = "After the poison" }
    #expect(try a.queue.read { try $0.history(ofIssue: issue.id) }.last!.stamp > far)
    #expect(try a.sync().newDevice == .clockRepaired)
    try b.sync()
    #expect(try b.stored(issue.id)?.detail == "After the poison")
    b.time.advance(by: 10)
    try b.edit(issue.id) { $0.detail = "B wins again" }
    try b.sync()
    try a.sync()
    #expect(try a.stored(issue.id)?.detail == "B wins again")
    #expect(
      try a.queue.read { try $0.fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) }! < far)
    #expect(try a.dump() == b.dump())
  }

  /// Both databases followed the far stamp an older Docket let in, and both edited after it,
  /// their wall clocks right: the other's far stamps do not make this one think its clock is
  /// behind. Each repairs its clock on its next sync, and both edits reach both.
  @Test func twoDevicesAnOlderVersionMovedFarAheadBothRepair() throws {
    let issue = try a.issue("Shared")
    let other = try a.issue("Other")
    try a.sync()
    try b.sync()
    let far = HybridClock.stamp(Date(timeIntervalSince1970: 64_060_588_800))
    try b.queue.write { try $0.execute("UPDATE sync_clock SET hlc = ?", [far]) }
    try b.edit(other.id) { $0.detail = "B after the poison" }
    // B pushes as an older Docket did, its stamp far ahead and its wall clock right (the
    // `modified` its edit carries): for that one sync its wall clock is taken to the stamp.
    let toFar = HybridClock.date(far).timeIntervalSince(b.time.now)
    b.time.advance(by: toFar)
    #expect(try b.sync().newDevice == nil)
    b.time.advance(by: -toFar)
    #expect(try a.sync().held.first?.name == "Desktop")
    // A's clock followed it too, and A edits: B's stamps as far ahead as A's do not make A
    // think its own clock is behind, since B's edits carry times like A's.
    try a.queue.write { try $0.execute("UPDATE sync_clock SET hlc = ?", [far + 1]) }
    a.time.advance(by: 5)
    try a.edit(issue.id) { $0.detail = "A after the poison" }
    #expect(try a.sync().newDevice == .clockRepaired)
    #expect(try b.sync().newDevice == .clockRepaired)
    for replica in [a, b, a] { try replica.sync() }
    for replica in [a, b] {
      #expect(try replica.stored(issue.id)?.detail == "A after the poison", "\(replica.name)")
      #expect(try replica.stored(other.id)?.detail == "B after the poison", "\(replica.name)")
      #expect(
        try replica.queue.read { try $0.fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) }!
          < far)
    }
    #expect(try a.dump() == b.dump())
  }

  /// A device's wall clock is read from its edits' times, but a time an import kept from its
  /// file (a date from the future in it) is no clock's: it does not outvote a repair.
  @Test func aFutureDateAnImportKeptDoesNotLookLikeAClockAhead() throws {
    let issue = try a.issue("Shared")
    let imported = try b.issue("Imported")
    try a.sync()
    try b.sync()
    let year: TimeInterval = 365 * 86_400
    // B writes an edit with the file's date, the year 2100, as an import does.
    try b.queue.write {
      try $0.execute(
        "UPDATE issues SET title = 'From a file', modified = 4102444800 WHERE id = ?",
        [imported.id])
    }
    try b.sync()
    a.time.advance(by: year)
    try a.edit(issue.id) { $0.title = "Edited a year ahead" }
    try a.sync()
    a.time.advance(by: -year + 60)
    b.time.advance(by: 60)
    let repaired = try a.sync()
    #expect(!repaired.clockLooksBehind)
    #expect(repaired.newDevice == .clockRepaired)
    try b.sync()
    #expect(try b.stored(issue.id)?.title == "Edited a year ahead")
  }

  /// A database copied twice while its clock was a year ahead, then all three set right: each
  /// copy's edits since carry times like B's, so they do not outvote a repair. Each repairs, B
  /// takes everything, and all four hold the same.
  @Test func copiesMadeWhileAYearAheadAllRepairOnceSetRight() throws {
    let issue = try a.issue("Shared")
    try a.sync()
    try b.sync()
    let year: TimeInterval = 365 * 86_400
    a.time.advance(by: year)
    try a.edit(issue.id) { $0.detail = "A year ahead" }
    try a.sync()
    let copies = try (1...2).map { try Replica(copying: a, name: "Copy \($0)") }
    for (index, copy) in copies.enumerated() {
      copy.time.advance(by: Double(index + 1))
      try copy.issue("Made on copy \(index + 1)")
      try copy.sync()
    }
    try a.edit(issue.id) { $0.title = "Shared, on the original" }
    for replica in [a] + copies { try replica.sync() }
    #expect(Set(([a] + copies).map(\.device)).count == 3)
    #expect(try b.sync().held.count >= 3)
    // Set right, and each edits before it syncs again. The first to sync has not heard that
    // the others were set right, and waits; each repairs within three rounds.
    let others = try (1...3).map { try a.issue("Other \($0)") }
    try a.sync()
    for replica in copies { try replica.sync() }
    for (index, replica) in ([a] + copies).enumerated() {
      replica.time.advance(by: -year + 60 + Double(index))
      try replica.edit(others[index].id) { $0.title = "Set right on \(replica.name)" }
    }
    b.time.advance(by: 60)
    var repaired = Set<String>()
    for _ in 0..<3 {
      for replica in [a] + copies + [b] {
        let report = try replica.sync()
        if report.newDevice == .clockRepaired { repaired.insert(replica.name) }
      }
    }
    #expect(repaired == Set(([a] + copies).map(\.name)))
    #expect(try b.sync().held.isEmpty)
    for replica in [a, b] + copies {
      #expect(try replica.stored(issue.id)?.detail == "A year ahead", "\(replica.name)")
      #expect(
        try replica.queue.read {
          try $0.fetchOne("SELECT count(*) FROM changes WHERE held = 1", as: Int.self)
        } == 0, "\(replica.name)")
      #expect(try replica.dump() == b.dump(), "\(replica.name)")
    }
    for (index, replica) in ([a] + copies).enumerated() {
      #expect(try b.stored(others[index].id)?.title == "Set right on \(replica.name)")
    }
  }

  /// Most devices ahead of this one: its own clock is the one that looks wrong.
  @Test func whenMostDevicesLookAheadThisDevicesClockLooksWrong() throws {
    let c = try Replica("C", remote: folder.path)
    try a.issue("From A")
    try c.issue("From C")
    try a.sync()
    try c.sync()
    b.time.advance(by: -86_400)
    let report = try b.sync()
    #expect(report.held.count == 2)
    #expect(report.clockLooksBehind)
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 0)
    b.time.advance(by: 86_400)
    #expect(try b.sync().pulled > 0)
    for replica in [a, c] { try replica.sync() }
    #expect(try b.dump() == a.dump() && a.dump() == c.dump())
  }

  // MARK: 5. Tags

  @Test func aTagMergeKeepsARename() throws {
    let c = try Replica("C", remote: folder.path)
    try a.tag("ops")
    try a.sync()
    try b.sync()
    let ops = try #require(try b.queue.read { try $0.fetchTags() }.first)
    b.time.advance(by: 5)
    try b.queue.write { _ = try $0.renameTag(id: ops.id, to: "old-ops") }
    try b.tag("ops")
    c.time.advance(by: 10)
    let x = try c.issue("x", tags: [try c.tag("ops")])
    for replica in [a, b, c, a, b, c] { try replica.sync() }
    for replica in [a, b, c] {
      let names = try replica.queue.read { try $0.fetchTags() }.map(\.name).sorted()
      #expect(names == ["old-ops", "ops"], "\(replica.name)")
      #expect(try replica.stored(x.id)?.tags.map(\.name) == ["ops"], "\(replica.name)")
    }
    #expect(try a.dump() == b.dump() && b.dump() == c.dump())
  }

  /// A device's name is shown on terminals: one that arrives with an escape sequence or line
  /// breaks in it, or longer than a name may be, is kept made safe.
  @Test func aDevicesNameIsKeptSafeToShow() throws {
    let mallory = UUID().lowercasedText
    try plant(
      [line(now, mallory, "issue", UUID().lowercasedText, "create", create(title: "Hello"))],
      device: mallory, number: 1,
      name: "Mal\\u001b[2Jlory\\n" + String(repeating: "y", count: Limits.deviceNameCharacters))
    try b.sync()
    let name = try #require(try b.queue.read { try $0.deviceNames()[mallory] })
    #expect(name.hasPrefix("Mal [2Jlory y"))
    #expect(name.unicodeScalars.count == Limits.deviceNameCharacters)
    #expect(!name.unicodeScalars.contains { $0.value < 0x20 })
  }

  // MARK: 7. Links

  /// A link put in place of this device's own folder (to another device's folder, to anywhere)
  /// is never written or removed through: the sync stops and says what to do.
  @Test func aLinkInPlaceOfThisDevicesFolderIsNotWrittenThrough() throws {
    try a.issue("First")
    try a.sync()
    try b.sync()
    let own = folder.path(a.device)
    let elsewhere = folder.path + "-elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: elsewhere) }
    try FileManager.default.removeItem(atPath: own)
    try FileManager.default.createSymbolicLink(atPath: own, withDestinationPath: elsewhere)
    try a.issue("Second")
    #expect {
      try a.sync()
    } throws: { error in
      (error as? RemoteError)?.problem == .notOwnFolder
        && SyncMessages.failure(error, DocketStrings.localizer(language: "en")).contains(
          "is not this device's folder")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    // Taken away, the folder is made again and everything is pushed.
    try FileManager.default.removeItem(atPath: own)
    try a.sync()
    try b.sync()
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 2)
  }

  @Test func linksInTheFolderAreNeverFollowed() throws {
    let mallory = UUID().lowercasedText
    let secret = folder.path + "-secret"
    try plant(
      [
        line(
          now, mallory, "issue", UUID().lowercasedText, "create", create(title: "Through a link"))
      ], device: mallory, number: 1)
    try FileManager.default.moveItem(
      atPath: folder.path(mallory) + "/00000001.changes", toPath: secret)
    defer { unlink(secret) }
    try FileManager.default.createSymbolicLink(
      atPath: folder.path(mallory) + "/00000001.changes", withDestinationPath: secret)
    // A device folder that is itself a link, to a folder of valid files elsewhere.
    let elsewhere = folder.path + "-elsewhere"
    let linked = UUID().lowercasedText
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: elsewhere) }
    try FileManager.default.createSymbolicLink(
      atPath: folder.path(linked), withDestinationPath: elsewhere)
    try plant(
      [
        line(
          now, linked, "issue", UUID().lowercasedText, "create", create(title: "In a linked folder")
        )
      ], device: linked, number: 1)
    let report = try b.sync()
    let problems = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.problem) })
    #expect(problems["\(mallory)/00000001.changes"] == .link)
    #expect(problems[linked] == .link)
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 0)
    // A pipe named like a change file is not opened (its open would wait for a writer).
    mkfifo(folder.path(mallory) + "/00000002.changes", 0o600)
    let again = try b.sync()
    #expect(
      again.skipped.contains { $0.path == "\(mallory)/00000002.changes" && $0.problem == .notAFile }
    )
  }

  // MARK: 8. Sizes

  @Test func aChangeFileLargerThanDocketWritesIsNotRead() throws {
    let mallory = UUID().lowercasedText
    try plant(
      [line(now, mallory, "issue", UUID().lowercasedText, "create", create())], device: mallory,
      number: 1)
    // 100 MB, without writing it: the size alone refuses it.
    #expect(truncate(folder.path(mallory) + "/00000001.changes", 100_000_000) == 0)
    let started = ContinuousClock.now
    let report = try b.sync()
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(
      report.skipped.map(\.problem) == [.package(.tooLarge(limit: PackageFormat.changesLimit))])
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 0)
  }

  @Test func packagesDocketWritesStayWithinTheLimit() throws {
    // Forty details of 800 000 characters: more than one file may hold, each file well within.
    for index in 0..<40 {
      let issue = try a.issue("Long \(index)")
      try a.edit(issue.id) { $0.detail = String(repeating: "d", count: 800_000) }
    }
    try a.sync()
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device))
    #expect(files.count > 1)
    for file in files {
      let size =
        try FileManager.default.attributesOfItem(atPath: folder.path(a.device) + "/" + file)[.size]
        as! Int
      #expect(size <= SyncEngine.packageBytes + 4 << 20, "\(file)")
    }
    try b.sync()
    #expect(try b.dump() == a.dump())
  }

  // MARK: 9. Forged changes

  @Test func aChangeClaimingAnotherDeviceIsSkippedAsForged() throws {
    let issue = try a.issue("Alice's")
    try a.sync()
    try b.sync()
    let mallory = UUID().lowercasedText
    try plant(
      [
        line(
          now + 100, a.device, "issue", issue.id.lowercasedText, "title",
          ",\"o\":\"Alice's\",\"n\":\"Forged\"")
      ], device: mallory, number: 1)
    let report = try a.sync()
    #expect(
      report.skipped.contains {
        $0.problem
          == .package(.badChange(ChangeFormatError(line: 2, reason: .forged(claimed: a.device))))
      })
    #expect(try a.stored(issue.id)?.title == "Alice's")
    #expect(try a.queue.read { try $0.history(ofIssue: issue.id) }.allSatisfy { $0.what != .title })
  }

  @Test func twoChangesOfOneStampAreResolvedTheSameEverywhere() throws {
    let issue = try a.issue("Twice")
    try a.sync()
    let c = try Replica("C", remote: folder.path)
    try b.sync()
    try c.sync()
    let mallory = UUID().lowercasedText
    let stamp = now + 1000
    let first = line(stamp, mallory, "issue", issue.id.lowercasedText, "title", ",\"n\":\"One\"")
    let second = line(stamp, mallory, "issue", issue.id.lowercasedText, "title", ",\"n\":\"Two\"")
    // B reads one first, C the other: both end with the same, and say so.
    try plant([first], device: mallory, number: 1)
    try b.sync()
    try FileManager.default.removeItem(atPath: folder.path(mallory) + "/00000001.changes")
    try plant([second], device: mallory, number: 1)
    try c.sync()
    try plant([first], device: mallory, number: 2)
    try plant([second], device: mallory, number: 3)
    let told = try b.sync()
    try c.sync()
    #expect(told.twins == ["Mallory"])
    #expect(try b.stored(issue.id)?.title == c.stored(issue.id)?.title)
    #expect(try b.dump() == c.dump())
  }

  /// The same for two creates of one new issue under one stamp, made at once with the other new
  /// issues (the path a large pull takes): each device keeps the same of the two.
  @Test func twoCreatesOfOneStampAreResolvedTheSameWhenMadeAtOnce() throws {
    let c = try Replica("C", remote: folder.path)
    let mallory = UUID().lowercasedText
    let row = UUID().lowercasedText
    let first = line(now, mallory, "issue", row, "create", create(title: "One"))
    let second = line(now, mallory, "issue", row, "create", create(title: "Two"))
    let other = line(now + 1, mallory, "issue", UUID().lowercasedText, "create", create())
    try plant([first, other], device: mallory, number: 1)
    try b.sync(bulkFrom: 1)
    try FileManager.default.removeItem(atPath: folder.path(mallory) + "/00000001.changes")
    try plant([second, other], device: mallory, number: 1)
    try c.sync(bulkFrom: 1)
    try plant([first], device: mallory, number: 2)
    try plant([second], device: mallory, number: 3)
    try b.sync(bulkFrom: 1)
    try c.sync(bulkFrom: 1)
    let id = try #require(UUID(uuidString: row))
    let titles = try [b, c].map { try $0.stored(id)?.title }
    #expect(titles[0] != nil && titles[0] == titles[1])
    #expect(try b.dump() == c.dump())
  }

  // MARK: 10. Random bytes

  @Test func randomBytesAreNotADocketFileAndAreWarnedAboutOnce() throws {
    let mallory = UUID().lowercasedText
    try FileManager.default.createDirectory(
      atPath: folder.path(mallory), withIntermediateDirectories: true)
    var random = SeededRandom(seed: 7)
    let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
    _ = FileManager.default.createFile(
      atPath: folder.path(mallory) + "/00000001.changes", contents: Data([0x80] + bytes))
    let first = try b.sync()
    #expect(first.skipped.map(\.problem) == [.package(.garbage(.notJSON))])
    #expect(try b.sync().skipped.isEmpty)
    // Another content under the name is told again.
    _ = FileManager.default.createFile(
      atPath: folder.path(mallory) + "/00000001.changes", contents: Data("garbage\n".utf8))
    #expect(try b.sync().skipped.count == 1)
  }

  // MARK: 12. Catching up

  @Test func aNewDeviceCatchesUpFromASnapshotWheneverThereIsOne() throws {
    for index in 0..<30 { try a.issue("Issue \(index)") }
    var engine = a.engine()
    engine.batchSize = 3
    engine.compactAfter = 4
    _ = try engine.run()
    // More files after the snapshot: fewer than a device behind would read a snapshot for.
    for index in 0..<6 {
      try a.issue("After \(index)")
      var more = a.engine()
      more.batchSize = 1
      _ = try more.run()
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device))
    #expect(files.contains { $0.hasSuffix(".snapshot") })
    let report = try b.sync()
    #expect(report.usedSnapshot)
    #expect(try b.dump() == a.dump())
  }

  @Test func theWaitingCountIsThisDevicesOwnChanges() throws {
    try a.issue("One")
    try a.issue("Two")
    try a.sync()
    try b.sync()
    try b.issue("Mine")
    try b.issue("Mine too")
    #expect(try b.queue.read { try $0.unpushedChangeCount() } == 2)
  }
}
