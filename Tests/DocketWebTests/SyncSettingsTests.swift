import DocketCore
import DocketSync
import DocketTestSupport
import Foundation
import Testing

@testable import DocketWeb

/// The settings page's Sync: how the computer the page comes from syncs, and, for an encrypted
/// remote it has no key for, the passphrase that opens it.
@Suite struct SyncSettingsTests {
  @Test func withoutARemoteItSaysHowToSetOne() throws {
    let web = try WebTester()
    let page = web.get("/settings").text
    #expect(page.contains("This computer does not sync"))
    #expect(!page.contains("name=\"passphrase\""))
  }

  @Test func anEncryptedRemoteIsOpenedWithItsPassphraseOnTheSettingsPage() throws {
    let home = try TemporaryDirectory()
    let remote = home.path("remote")
    try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
    // Another device encrypts the folder.
    let other = FolderRemote(path: remote, device: UUID().lowercasedText)
    _ = try RemoteEncryption.encrypt(other, passphrase: "a long phrase", cost: .light)
    let web = try WebTester(databaseAt: home.path("docket.sqlite"))
    try web.queue.write { try $0.setRemote(remote) }
    // This computer has seen it encrypted (its sync said so), and has no key.
    #expect(throws: SyncFailure.self) {
      try ConfiguredSync.run(
        web.queue, at: { WebTester.now }, DocketStrings.localizer(language: "en"))
    }
    var page = web.get("/settings").text
    #expect(page.contains("Encrypted, and this computer has no key for it yet"))
    #expect(page.contains("<input type=\"password\" id=\"passphrase\" name=\"passphrase\""))
    // The sync's error, which names this page among the ways in.
    #expect(page.contains("Last error"))
    #expect(
      page.contains("in the web page&#39;s Settings") || page.contains("in the web page's Settings")
    )

    let keyFile = SyncKeyFile.path(database: home.path("docket.sqlite"))
    let wrong = web.post("/sync/passphrase", [("passphrase", "not it")])
    #expect(wrong.status == 303)
    #expect(wrong.headers.contains { $0.value.contains("said=wrongPassphrase") })
    #expect(!FileManager.default.fileExists(atPath: keyFile))
    #expect(web.get("/settings", [("said", "wrongPassphrase")]).text.contains("does not open"))

    let right = web.post("/sync/passphrase", [("passphrase", "a long phrase")])
    #expect(right.headers.contains { $0.value.contains("said=unlocked") })
    #expect(FileManager.default.fileExists(atPath: keyFile))
    page = web.get("/settings").text
    #expect(page.contains("this computer holds the key"))
    #expect(!page.contains("name=\"passphrase\""))
    // What the sync had said (it needs the passphrase) is answered, and the passphrase is kept
    // nowhere: not in the database, not in the key file.
    #expect(!page.contains("Last error"))
    for file in [home.path("docket.sqlite"), home.path("docket.sqlite-wal"), keyFile] {
      let bytes = FileManager.default.contents(atPath: file) ?? Data()
      #expect(bytes.range(of: Data("a long phrase".utf8)) == nil, "\(file)")
    }
    // The next sync here reads and writes it.
    _ = try ConfiguredSync.run(
      web.queue, at: { WebTester.now }, DocketStrings.localizer(language: "en"))
  }

  @Test func aReadOnlyServerOffersNoPassphraseField() throws {
    let home = try TemporaryDirectory()
    let web = try WebTester(readOnly: true, databaseAt: home.path("docket.sqlite"))
    try web.queue.write { db in
      try db.setRemote("/somewhere")
      try db.noteEncrypted("some-remote-id")
    }
    let page = web.get("/settings").text
    #expect(page.contains("this computer has no key for it yet"))
    #expect(!page.contains("name=\"passphrase\""))
    #expect(web.post("/sync/passphrase", [("passphrase", "x")]).status == 403)
  }
}
