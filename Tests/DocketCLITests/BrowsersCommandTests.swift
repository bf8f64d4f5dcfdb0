import DocketCore
import DocketWeb
import Foundation
import Testing

@testable import DocketCLI

/// `docket browsers`: the browsers paired with `docket serve`, listed and unpaired by name or
/// id; and the QR code `docket serve` shows for a phone to scan.
@Suite struct BrowsersCommandTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  func pair(_ names: [String], ids: [String]) throws {
    let queue = try DocketDatabase.open(path: box.database)
    for (index, name) in names.enumerated() {
      let credential = BrowserCredential(
        id: UUID(uuidString: ids[index])!, secret: String(repeating: "\(index)", count: 64))
      try queue.write {
        try $0.pairBrowser(
          credential, name: name, now: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)))
      }
    }
  }

  @Test func pairedBrowsersAreListedAndUnpairedByNameOrID() throws {
    let none = try box.docket(["browsers"])
    #expect(none.status == 0)
    #expect(none.output.contains("No browser is paired"))
    try pair(
      ["Safari on iPhone", "Chrome on Android", "Firefox on Linux\u{1B}[2J"],
      ids: [
        "aaaa1111-0000-4000-8000-000000000001", "aaaa2222-0000-4000-8000-000000000002",
        "bbbb3333-0000-4000-8000-000000000003",
      ])
    let listed = try #require(try box.docket(["browsers", "--json"]).json() as? [[String: Any]])
    #expect(
      listed.compactMap { $0["name"] as? String }
        == ["Safari on iPhone", "Chrome on Android", "Firefox on Linux\u{1B}[2J"])
    #expect(listed.first?["paired"] as? String == "2027-01-15T08:00:00Z")
    let text = try box.docket(["browsers"])
    #expect(text.lines.count == 4)
    #expect(text.lines[1].hasPrefix("Safari on iPhone") && text.lines[1].contains("aaaa1111"))
    #expect(!text.output.contains("\u{1B}"), "a name cannot drive the terminal")

    // By name, ignoring case; by the start of an id, when only one has it.
    let byName = try box.docket(["browsers", "revoke", "chrome", "ON", "android"])
    #expect(byName.status == 0, "\(byName.error)")
    #expect(byName.output.contains("Unpaired Chrome on Android"))
    // Of the two IDs starting aaaa, one is left: the start is enough.
    let byID = try box.docket(["browsers", "revoke", "aaaa"])
    #expect(byID.status == 0, "\(byID.error)")
    #expect(byID.output.contains("Unpaired Safari on iPhone"))
    let unknown = try box.docket(["browsers", "revoke", "Opera"])
    #expect(unknown.status != 0)
    #expect(unknown.error.contains("No paired browser has the name or ID Opera"))
    let nothing = try box.docket(["browsers", "revoke"])
    #expect(nothing.status == 2)
    #expect(nothing.error.contains("--all"))
    #expect(
      try (box.docket(["browsers", "--json"]).json() as? [[String: Any]])?.count == 1)
    let all = try box.docket(["browsers", "revoke", "--all", "--json"])
    #expect((try all.json() as? [[String: Any]])?.count == 1)
    #expect(try (box.docket(["browsers", "--json"]).json() as? [Any])?.isEmpty == true)
  }

  @Test func anIDPrefixSeveralShareIsRefused() throws {
    try pair(
      ["One", "Two"],
      ids: ["cccc1111-0000-4000-8000-000000000001", "cccc2222-0000-4000-8000-000000000002"])
    let ambiguous = try box.docket(["browsers", "revoke", "cccc"])
    #expect(ambiguous.status != 0)
    #expect(ambiguous.error.contains("Several paired browsers match cccc"))
    #expect(try (box.docket(["browsers", "--json"]).json() as? [Any])?.count == 2)
    #expect(try box.docket(["browsers", "revoke", "cccc2"]).status == 0)
  }

  @Test func aPublicURLThatIsNotAPlainAddressIsRefusedBeforeServing() throws {
    for bad in [
      "ftp://tracker.example.com", "https://", "tracker.example.com",
      "https://tracker.example.com/docket", "https://tracker.example.com/?token=x",
      "https://user@tracker.example.com",
    ] {
      let run = try box.docket(["serve", "--port", "0", "--public-url", bad])
      #expect(run.status == 2, "\(bad)")
      #expect(run.error.contains("--public-url"), "\(bad)")
      #expect(!run.output.contains("token="), "\(bad): nothing served")
    }
  }

  @Test func theQRCodeHasItsFinderPatternsInsideAQuietZone() throws {
    let url = "https://laptop.local:8080/?token=" + String(repeating: "0123456789abcdef", count: 4)
    let code = try QRCodeText.encode(url).get()
    // Versions grow by four modules; a code this long needs at least version 4 (33 modules).
    #expect(code.width >= 33 && (code.width - 21) % 4 == 0)
    // A scanner reads the address back (zbar's, from `make deps`), from an image of the
    // modules as drawn: four pixels a module, the quiet zone around.
    let scale = 4
    let side = code.columns * scale
    var image = "P1\n\(side) \(side)\n"
    for y in 0..<side {
      let row = y / scale - QRCodeText.quietZone
      image +=
        (0..<side).map { x in
          code.isDark(row: row, column: x / scale - QRCodeText.quietZone) ? "1" : "0"
        }.joined(separator: " ") + "\n"
    }
    try Data(image.utf8).write(to: URL(fileURLWithPath: box.path("code.pbm")))
    let zbar = ["/usr/bin/zbarimg", "/opt/homebrew/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    let scanner = try #require(zbar, "zbarimg (zbar-tools) is installed by make deps")
    let read = box.path("read.txt")
    #expect(try Child.run(scanner, ["-q", "--raw", box.path("code.pbm")], output: read) == 0)
    #expect(try String(contentsOfFile: read, encoding: .utf8) == url + "\n")
    // The three finder patterns: a dark ring of 7, a light ring, a dark square of 3.
    for (top, left) in [(0, 0), (0, code.width - 7), (code.width - 7, 0)] {
      for row in 0..<7 {
        for column in 0..<7 {
          let ring = max(abs(row - 3), abs(column - 3))
          #expect(
            code.isDark(row: top + row, column: left + column) == (ring != 2),
            "finder at \(top),\(left): \(row),\(column)")
        }
      }
    }
    let plain = code.lines(colors: false)
    #expect(plain.count == (code.columns + 1) / 2)
    #expect(plain.allSatisfy { $0.count == code.columns })
    // Without colours the terminal's text is the light: the quiet zone is drawn, the finders'
    // dark rings are not.
    #expect(plain[0] == String(repeating: "█", count: code.columns))
    let coloured = code.lines(colors: true)
    #expect(coloured.allSatisfy { $0.hasPrefix("\u{1B}[30;107m") && $0.hasSuffix("\u{1B}[0m") })
    #expect(coloured[0].contains(String(repeating: " ", count: code.columns)))
    // The line of the finder's first two rows: its dark top edge above, its light inside
    // between two dark modules below, and the quiet zone before it.
    let finderLine = plain[QRCodeText.quietZone / 2]
    #expect(finderLine.hasPrefix(String(repeating: "█", count: QRCodeText.quietZone) + " ▄▄▄▄▄ "))
  }
}
