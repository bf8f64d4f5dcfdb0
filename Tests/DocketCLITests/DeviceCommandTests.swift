import DocketCore
import Foundation
import Testing

/// `docket device`: each database is a device with an id made once and kept, and a name (the
/// host name until one is given).
@Suite struct DeviceCommandTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  func device(_ arguments: [String] = [], in sandbox: Sandbox? = nil) throws -> [String: Any] {
    let run = try (sandbox ?? box).docket(["device"] + arguments + ["--json"])
    #expect(run.status == 0, "\(run.error)")
    return try #require(try run.json() as? [String: Any])
  }

  @Test func anIdMadeOnceAndANameGiven() throws {
    let first = try device()
    let id = try #require(first["id"] as? String)
    #expect(UUID(uuidString: id) != nil)
    // The host name as the system's own tool says it.
    let said = box.path("hostname.txt")
    #expect(try Child.run("/bin/hostname", ["-s"], output: said) == 0)
    let host = try String(contentsOfFile: said, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(first["name"] as? String == host)
    #expect(first["named"] as? Bool == false)
    #expect(try device()["id"] as? String == id, "the same id on every run")
    let other = try Sandbox()
    #expect(try device(in: other)["id"] as? String != id, "another database, another device")

    let named = try device(["name", "  Work", "laptop\u{1B}[2J "])
    #expect(named["name"] as? String == "Work laptop [2J")
    #expect(named["id"] as? String == id && named["named"] as? Bool == true)
    let text = try box.docket(["device"])
    #expect(text.output == "Name: Work laptop [2J\nID:   \(id)\n")
    let german = try box.docket(["device", "--lang", "de"])
    #expect(german.output.hasPrefix("Name: Work laptop"))

    let empty = try box.docket(["device", "name", "   "])
    #expect(empty.status == 2 && empty.error == "docket: A device name cannot be empty.\n")
    #expect(try device()["name"] as? String == "Work laptop [2J", "left as it was")
  }
}
