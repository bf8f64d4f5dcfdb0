import Foundation
import Testing

/// `docket remote set --encrypt`, `remote encrypt`, `remote passphrase`, and a device joining an
/// encrypted folder, as a person runs them.
@Suite struct EncryptionCommandTests {
  let laptop: Sandbox
  let desktop: Sandbox
  let remote: String
  static let light = ["DOCKET_TEST_LIGHT_KEYS": "1"]

  init() throws {
    laptop = try Sandbox()
    desktop = try Sandbox()
    remote = laptop.path("shared")
  }

  func with(_ passphrase: String, new: String? = nil) -> [String: String] {
    var environment = Self.light
    environment["DOCKET_SYNC_PASSPHRASE"] = passphrase
    if let new { environment["DOCKET_SYNC_NEW_PASSPHRASE"] = new }
    return environment
  }

  /// Every file of the remote folder, as bytes, searched for `text`.
  func remoteHolds(_ text: String) throws -> Bool {
    let walker = FileManager.default.enumerator(atPath: remote)
    while let relative = walker?.nextObject() as? String {
      if let data = FileManager.default.contents(atPath: remote + "/" + relative),
        data.range(of: Data(text.utf8)) != nil
      {
        return true
      }
    }
    return false
  }

  @Test func anEncryptedFolderIsJoinedWithItsPassphraseOnly() throws {
    try laptop.docket(["add", "Payroll secrets", "-t", "confidential"])
    let set = try laptop.docket(
      ["remote", "set", remote, "--encrypt"], environment: with("a long passphrase"))
    #expect(set.status == 0, "\(set.error)")
    #expect(set.output.contains("A lost passphrase cannot be recovered"))
    #expect(set.output.contains("Encrypted: yes"))
    #expect(try laptop.docket(["sync"]).status == 0)
    #expect(try !remoteHolds("Payroll"))
    #expect(try !remoteHolds("confidential"))
    let keyFile = laptop.database + ".sync-key"
    let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let shown = try laptop.docket(["remote", "show"])
    #expect(shown.output.contains("Encrypted: yes (this device's key is kept in"))
    // The key itself is never printed, in words or in JSON.
    let keyText = try String(contentsOfFile: keyFile, encoding: .utf8)
    let keyBase64 = try #require(keyText.components(separatedBy: "\"key\":\"").last?.prefix(44))
    #expect(keyBase64.count == 44)
    #expect(!shown.output.contains(keyBase64))
    #expect(try !laptop.docket(["remote", "show", "--json"]).output.contains(keyBase64))

    // The wrong passphrase: said so, and nothing set or read.
    let wrong = try desktop.docket(["remote", "set", remote], environment: with("not it at all"))
    #expect(wrong.status == 1)
    #expect(wrong.error.contains("The passphrase does not open this remote"))
    #expect(try desktop.docket(["remote", "show"]).output.contains("No remote is set"))
    #expect(!FileManager.default.fileExists(atPath: desktop.database + ".sync-key"))
    // No passphrase and no terminal: told how to give one.
    let none = try desktop.docket(["remote", "set", remote], environment: Self.light)
    #expect(none.status == 1)
    #expect(none.error.contains("DOCKET_SYNC_PASSPHRASE"))

    // A failed `remote set --encrypt` elsewhere keeps the key of the remote set before.
    let other = laptop.path("other")
    let mismatch = try laptop.docket(
      ["remote", "set", other, "--encrypt"], environment: with("short"))
    #expect(mismatch.status != 0)
    #expect(try laptop.docket(["remote", "show"]).output.contains(remote))
    #expect(FileManager.default.fileExists(atPath: keyFile))
    #expect(try laptop.docket(["sync"], environment: Self.light).status == 0)

    let file = desktop.path("passphrase.txt")
    try Data("a long passphrase\n".utf8).write(to: URL(fileURLWithPath: file))
    let joined = try desktop.docket(
      ["remote", "set", remote, "--passphrase-file", file], environment: Self.light)
    #expect(joined.status == 0, "\(joined.error)")
    #expect(joined.output.contains("This remote is encrypted"))
    let synced = try desktop.docket(["sync"])
    #expect(synced.status == 0, "\(synced.error)")
    #expect(try desktop.docket(["list"]).output.contains("Payroll secrets"))

    // Removing the remote removes the key.
    #expect(try desktop.docket(["remote", "remove"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: desktop.database + ".sync-key"))
  }

  @Test func aPlainRemoteEncryptedAskesEveryOtherDeviceAtItsNextSync() throws {
    try laptop.docket(["add", "Plain at first"])
    try laptop.docket(["remote", "set", remote])
    try laptop.docket(["sync"])
    try desktop.docket(["remote", "set", remote])
    try desktop.docket(["sync"])
    try desktop.docket(["add", "Desktop's own"])
    try desktop.docket(["sync"])
    #expect(try remoteHolds("Desktop's own"))
    let short = try laptop.docket(["remote", "encrypt"], environment: with("short"))
    #expect(short.status == 2)
    #expect(short.error.contains("at least 8 characters"))
    let encrypted = try laptop.docket(["remote", "encrypt"], environment: with("eight or more"))
    #expect(encrypted.status == 0, "\(encrypted.error)")
    let again = try laptop.docket(["remote", "encrypt"], environment: with("eight or more"))
    #expect(again.error.contains("encrypted already"))
    // The desktop is told at its next sync, and asked.
    let told = try desktop.docket(["sync"], environment: Self.light)
    #expect(told.status == 1)
    #expect(told.output.contains("This remote is encrypted"))
    // No terminal, no passphrase given: said which ways there are.
    #expect(told.error.contains("DOCKET_SYNC_PASSPHRASE, or with --passphrase-file FILE"))
    // The terminal app and the web page, which ask for it themselves, show the remote's reason.
    let shown = try desktop.docket(["remote", "show"]).output
    #expect(shown.contains("in the web page's Settings"), "\(shown)")
    #expect(!shown.contains("give it on a terminal"), "\(shown)")
    let unread = try desktop.docket(
      ["sync", "--passphrase-file", desktop.path("no-such-file")], environment: Self.light)
    #expect(unread.error.contains("cannot be read"))
    let synced = try desktop.docket(["sync"], environment: with("eight or more"))
    #expect(synced.status == 0, "\(synced.error)")
    #expect(try !remoteHolds("Desktop's own"))
    #expect(try !remoteHolds("Plain at first"))
    let list = try desktop.docket(["list"]).output
    #expect(list.contains("Plain at first") && list.contains("Desktop's own"))

    // A new passphrase: the desktop keeps syncing, the old one opens nothing any more.
    let changed = try laptop.docket(
      ["remote", "passphrase"], environment: with("eight or more", new: "nine or more!"))
    #expect(changed.status == 0, "\(changed.error)")
    try laptop.docket(["add", "After the new passphrase"])
    try laptop.docket(["sync"])
    #expect(try desktop.docket(["sync"], environment: Self.light).status == 0)
    #expect(try desktop.docket(["list"]).output.contains("After the new passphrase"))
    let third = try Sandbox()
    let old = try third.docket(["remote", "set", remote], environment: with("eight or more"))
    #expect(old.error.contains("The passphrase does not open this remote"))
    let new = try third.docket(["remote", "set", remote], environment: with("nine or more!"))
    #expect(new.status == 0, "\(new.error)")
    #expect(try third.docket(["sync", "--json"]).status == 0)
    #expect(try third.docket(["list"]).output.contains("After the new passphrase"))
  }

  @Test func aRemoteMadePlainBehindItsBackIsUsedPlainOnlyWhenSetAgain() throws {
    try laptop.docket(["add", "Kept sealed"])
    try laptop.docket(["remote", "set", remote, "--encrypt"], environment: with("a long phrase"))
    // Someone makes the marker plain again, under the same id.
    let marker = remote + "/docket-remote.json"
    let text = try String(contentsOfFile: marker, encoding: .utf8)
    let id = text.split(separator: "\"")[9]
    try Data("{\"docket\":\"remote\",\"version\":1,\"id\":\"\(id)\"}\n".utf8).write(
      to: URL(fileURLWithPath: marker))
    try laptop.docket(["add", "Not to be written plain"])
    let refused = try laptop.docket(["sync"])
    #expect(refused.status == 1)
    #expect(refused.error.contains("now says it is not"))
    #expect(try !remoteHolds("Not to be written plain"))
    // Set again on purpose: used plain, and said so.
    let again = try laptop.docket(["remote", "set", remote])
    #expect(again.status == 0, "\(again.error)")
    #expect(again.output.contains("not encrypted any more"))
    #expect(!FileManager.default.fileExists(atPath: laptop.database + ".sync-key"))
    #expect(try laptop.docket(["sync"]).status == 0)
    #expect(try laptop.docket(["remote", "show"]).output.contains("Encrypted: no"))
  }

  @Test func remoteShowSaysWhenTheRemoteIsEncryptedAndNoKeyIsHere() throws {
    try laptop.docket(["remote", "set", remote])
    try laptop.docket(["sync"])
    try desktop.docket(["remote", "set", remote])
    try desktop.docket(["sync"])
    try laptop.docket(["remote", "encrypt"], environment: with("a long phrase"))
    #expect(try desktop.docket(["sync"]).status == 1)
    let shown = try desktop.docket(["remote", "show"])
    #expect(shown.output.contains("Encrypted: yes, and this device has no key yet"))
    let json = try desktop.docket(["remote", "show", "--json"]).json() as! [String: Any]
    #expect(json["encrypted"] as? Bool == true)
    #expect(json["keyFile"] is NSNull)
  }
}
