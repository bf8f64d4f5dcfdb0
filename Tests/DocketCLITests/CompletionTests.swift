import Foundation
import Testing

/// What a tab offers, asked of each shell as it asks: bash through its completion variables,
/// zsh through its bash layer, fish through `complete -C`. Values come from the command table
/// (each command's own), tag names from the database the command line names, files from the
/// folder.
@Suite struct CompletionTests {
  let box: Sandbox

  init() throws {
    box = try Sandbox()
    try box.docket(["add", "One", "--tag", "UI Design", "--tag", "Bug"])
    for name in ["tasks.json", "notes.txt"] {
      try Data().write(to: URL(fileURLWithPath: box.path(name)))
    }
  }

  /// The words offered for `line` (the cursor at its end), by `shell`.
  func offered(_ line: String, shell: String) throws -> [String] {
    let script = box.path("completion.\(shell)")
    if !FileManager.default.fileExists(atPath: script) {
      let written = try box.docket(["completions", shell], database: false)
      try Data(written.output.utf8).write(to: URL(fileURLWithPath: script))
    }
    let driver: (String, [String])
    let quoted = line.replacingOccurrences(of: "'", with: "'\\''")
    let breaks = #"COMP_WORDBREAKS=$' \t\n"'"'"'><=;|&(:'"#
    switch shell {
    case "bash":
      driver = (
        "/bin/bash",
        [
          "-c",
          "source '\(script)'; COMP_LINE='\(quoted)'; COMP_POINT=${#COMP_LINE}; \(breaks); _docket; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ]
      )
    case "zsh":
      driver = (
        "/usr/bin/zsh",
        [
          "-fc",
          "compdef() { :; }; source '\(script)'; COMP_LINE='\(quoted)'; COMP_POINT=${#COMP_LINE}; \(breaks); emulate -L sh; setopt kshglob noshglob braceexpand; _docket; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ]
      )
    default:
      driver = (
        "/usr/bin/fish",
        ["--no-config", "-c", "source '\(script)'; complete -C '\(quoted)'"]
      )
    }
    let output = box.path("offered-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(atPath: output) }
    let binFolder = Sandbox.binary.deletingLastPathComponent().path
    let status = try Child.run(
      driver.0, driver.1,
      environment: ["PATH": "\(binFolder):/usr/bin:/bin", "HOME": box.folder.path],
      output: output)
    #expect(status == 0, "\(shell): \(line)")
    return try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
      .map { String($0.split(separator: "\t").first ?? "") }.filter { !$0.isEmpty }
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func eachOptionOffersItsOwnValues(shell: String) throws {
    let db = "docket --db '\(box.database)' "
    // fish unquotes what it offers; bash and zsh offer it quoted for the line.
    let spaced = shell == "fish" ? "UI Design" : "UI\\ Design"
    let cases: [(String, Set<String>)] = [
      ("docket list --sort ", ["priority", "date", "title"]),
      ("docket tag list --sort ", ["name", "count"]),
      ("docket export --format ", ["docket", "taskwarrior", "csv"]),
      ("docket import --format ", ["docket", "taskwarrior", "github"]),
      ("docket --theme ", ["default", "high-contrast"]),
      (db + "add x --tag ", ["Bug", spaced]),
      (db + "tag rename ", ["Bug", spaced]),
      ("docket --db x li", ["list"]),
      ("docket completions ", ["bash", "zsh", "fish"]),
    ]
    for (line, expected) in cases {
      #expect(Set(try offered(line, shell: shell)) == expected, "\(shell): \(line)")
    }
    let filters = Set(try offered(db + "list --filter ", shell: shell))
    #expect(filters.isSuperset(of: ["open", "completed", "recent", "all"]), "\(filters)")
    #expect(filters.contains("tag:Bug") || shell != "fish", "\(filters)")
    let changes = Set(try offered(db + "edit 1234 --tag +", shell: shell))
    #expect(changes == ["+Bug", "+" + spaced], "\(shell): \(changes)")
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func filesAreOfferedWhereAFileGoes(shell: String) throws {
    let folder = box.folder.path + "/"
    for line in ["docket import " + folder + "t", "docket export -o " + folder + "t"] {
      let offered = try offered(line, shell: shell).map {
        URL(fileURLWithPath: $0).lastPathComponent
      }
      #expect(offered == ["tasks.json"], "\(shell): \(line)")
    }
  }

  /// `--db=PATH` names the database as `--db PATH` does.
  @Test(arguments: ["bash", "zsh", "fish"])
  func aDatabaseNamedWithAnEqualsSign(shell: String) throws {
    let offered = try offered("docket --db=\(box.database) tag rename ", shell: shell)
    let spaced = shell == "fish" ? "UI Design" : "UI\\ Design"
    #expect(Set(offered) == ["Bug", spaced], "\(shell)")
  }

  /// bash breaks words at ":": after `--filter tag:` only the name is put in.
  @Test func aTagFilterCompletesTheNameAfterTheColon() throws {
    let offered = try offered("docket --db '\(box.database)' list --filter tag:B", shell: "bash")
    #expect(offered == ["Bug"])
  }

  /// A tab never makes a database.
  @Test func noDatabaseIsMadeForATab() throws {
    let missing = box.path("none.sqlite")
    let offered = try offered("docket --db \(missing) add x --tag ", shell: "bash")
    #expect(offered.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  /// Nor does a tab bring a database of an older schema up to date: it offers no names and
  /// leaves the file as it was.
  @Test func anOlderDatabaseIsNotMigratedForATab() throws {
    let names = try box.docket(["completions", "tags"])
    #expect(names.lines == ["Bug", "UI Design"])
    let current = try box.sqlite(box.database, "PRAGMA user_version")
    let older = (Int(current.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1) - 1
    _ = try box.sqlite(box.database, "PRAGMA user_version = \(older)")
    let tab = try box.docket(["completions", "tags"])
    #expect(tab.status == 0 && tab.output.isEmpty && tab.error.isEmpty, "\(tab.error)")
    #expect(try box.sqlite(box.database, "PRAGMA user_version") == "\(older)\n")
  }
}
