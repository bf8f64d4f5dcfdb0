import Database
import DocketCore
import DocketSync
import Foundation
import Testing

@Suite struct BasicSyncTests {
  @Test func anIssueMadeOnOneDeviceArrivesOnAnother() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("A", remote: folder.path)
    let b = try Replica("B", remote: folder.path)
    let bug = try a.tag("Bug")
    let issue = try a.issue("Crash on start", tags: [bug])
    let pushed = try a.sync()
    #expect(pushed.pushed == 3)
    let pulled = try b.sync()
    #expect(pulled.pulled == 3)
    #expect(try b.fetch(issue.id)?.title == "Crash on start")
    #expect(try b.fetch(issue.id)?.tags.map(\.name) == ["Bug"])
    #expect(try a.dump() == b.dump())
  }
}
