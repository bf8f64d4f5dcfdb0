import Foundation
import Testing

/// Sizes nobody types but a file or a remote may bring: a detail of a million characters (the
/// most Docket keeps) with controls in it, and one issue with 10 000 tags. They import, show, list and edit; nothing is cut and no
/// text output carries the controls.
@Suite struct LargeInputTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func aMegabyteDetailAndTenThousandTagsOnOneIssue() throws {
    let line = "A line with \u{1B}[31mcolour\u{1B}[0m and a bell \u{07} in it. "
    let detail = String(repeating: line, count: 1_000_000 / line.unicodeScalars.count)
    let tagCount = 10_000
    var tags: [String] = []
    var tagIDs: [String] = []
    for index in 0..<tagCount {
      let id = String(format: "00000000-0000-0000-0000-%012x", index + 1)
      tagIDs.append("\"\(id)\"")
      tags.append("{\"id\":\"\(id)\",\"name\":\"Tag \(index)\"}")
    }
    let encodedDetail = String(
      data: try JSONSerialization.data(withJSONObject: [detail], options: [.fragmentsAllowed]),
      encoding: .utf8)!.dropFirst().dropLast()
    let file = """
      {"format":"docket","version":1,"tags":[\(tags.joined(separator: ","))],"issues":[\
      {"id":"10000000-0000-0000-0000-000000000001","title":"Huge","detail":\(encodedDetail),\
      "priority":"high","completed":false,"created":"2026-01-01T00:00:00Z","modified":null,\
      "tags":[\(tagIDs.joined(separator: ","))]}]}
      """
    let path = box.path("huge.json")
    try file.write(toFile: path, atomically: true, encoding: .utf8)
    let imported = try box.docket(["import", path])
    #expect(imported.status == 0, "\(imported.error)")

    let shown = try #require(
      try box.docket(["show", "1000", "--json"]).json() as? [String: Any])
    #expect((shown["detail"] as? String) == detail)
    #expect((shown["tags"] as? [String])?.count == tagCount)
    let text = try box.docket(["show", "1000"])
    #expect(text.status == 0)
    #expect(!HostileTextTests.hasRawControls(text.output))
    #expect(text.output.contains("Tag 9999"))
    let listed = try box.docket(["list"])
    #expect(listed.status == 0 && listed.output.contains("Huge"))
    // A search finds it by a word of its detail, and an edit of its title keeps the rest.
    #expect(try box.docket(["list", "bell"]).output.contains("Huge"))
    #expect(try box.docket(["edit", "1000", "--title", "Still huge"]).status == 0)
    let after = try #require(
      try box.docket(["show", "1000", "--json"]).json() as? [String: Any])
    #expect((after["detail"] as? String) == detail)
    #expect((after["tags"] as? [String])?.count == tagCount)
    // Deleting a tag leaves the issue with the others.
    #expect(try box.docket(["tag", "delete", "Tag 5", "--yes"]).status == 0)
    let fewer = try #require(
      try box.docket(["show", "1000", "--json"]).json() as? [String: Any])
    #expect((fewer["tags"] as? [String])?.count == tagCount - 1)
  }
}
