import Foundation
import Testing

/// A title that starts with `-`: read as an option and its joined value it would change the
/// wrong field or nothing; such a word is refused with the way through, `--`.
@Suite struct DashTextTests {
  let box: Sandbox

  init() throws { box = try Sandbox() }

  @Test func aTitleThatStartsWithADashGoesAfterTheEndOfOptions() throws {
    for words in [["add", "-dash title"], ["add", "Real", "-dash title"]] {
      // (`-d` with "ash title" joined, the first time a title missing, the second said nothing.)
      // Both readings are named: the detail written joined, and the title after `--`.
      let run = try box.docket(words)
      #expect(run.status == 2, "\(words)")
      #expect(
        run.error.contains(#"“-dash title” reads as the option -d with “ash title”"#)
          && run.error.contains(#"write -d "ash title""#)
          && run.error.contains(#"docket add -- "-dash title""#), "\(run.error)")
    }
    #expect(try box.docket(["list", "--json"]).output.contains("ash title") == false)
    let added = try box.docket(["add", "--", "-dash title"])
    #expect(added.status == 0)
    #expect(try box.docket(["list"]).output.contains("-dash title"))
    let degrees = try box.docket(["add", "-5 degrees outside"])
    #expect(degrees.status == 2)
    #expect(degrees.error.contains(#"docket add -- "-5 degrees outside""#), "\(degrees.error)")
    // An option with its value joined still works.
    #expect(try box.docket(["add", "Joined", "-phigh"]).status == 0)
    // A joined value holding a space names the option's reading, so the way to it is plain.
    let tagged = try box.docket(["add", "Tagged", "-tneeds review"])
    #expect(tagged.status == 2)
    #expect(tagged.error.contains(#"write -t "needs review""#), "\(tagged.error)")
    #expect(try box.docket(["add", "Tagged", "-t", "needs review"]).status == 0)
    // A command with no text to take names the option's reading alone.
    let reference = try box.add(["Edited"])
    let edit = try box.docket(["edit", reference, "-dnew text"])
    #expect(edit.status == 2)
    #expect(edit.error.contains(#"write it apart: -d "new text""#), "\(edit.error)")
    #expect(!edit.error.contains("--"), "\(edit.error)")
    // What the message says to write is quoted so that a shell reads it back as it was.
    let dollar = try box.docket(["add", "X", "-tcost $5"])
    #expect(dollar.error.contains("write -t 'cost $5'"), "\(dollar.error)")
  }

  /// In `list`, a longer `-word` excludes the word; a single letter that is no option is a
  /// mistyped option (`-o file` wrote nothing and ended well), and `--all` is a filter's value.
  @Test func aSingleLetterThatIsNoOptionIsAMistake() throws {
    try box.docket(["add", "Kept"])
    let letter = try box.docket(["list", "-o", "file"])
    #expect(letter.status == 2)
    #expect(letter.error.contains("unknown option -o for docket list"), "\(letter.error)")
    #expect(letter.output.isEmpty, "\(letter.output)")
    let all = try box.docket(["list", "--all"])
    #expect(all.status == 2)
    #expect(all.error.contains("“--filter all”"), "\(all.error)")
    // An exclusion still excludes.
    let excluded = try box.docket(["list", "-kept"])
    #expect(excluded.status == 0)
    #expect(!excluded.output.contains("Kept"))
    // One letter of a script with no options is a word to leave out, not a mistyped option.
    try box.docket(["add", "Schrift 漢"])
    let han = try box.docket(["list", "-漢"])
    #expect(han.status == 0, "\(han.error)")
    #expect(han.output.contains("Kept") && !han.output.contains("Schrift"), "\(han.output)")
  }
}

/// A value from a fixed list is read ignoring case, on every option and argument that has one.
@Suite struct ValueCaseTests {
  @Test func optionValuesIgnoreCase() throws {
    let box = try Sandbox()
    try box.docket(["add", "Beta", "--priority", "High"])
    try box.docket(["add", "Alpha"])
    let csv = try box.docket(["export", "--format", "CSV"])
    #expect(csv.status == 0, "\(csv.error)")
    #expect(csv.output.hasPrefix("id,title,detail"))
    let sorted = try box.docket(["list", "--sort", "Title", "--asc", "--filter", "ALL"])
    #expect(sorted.status == 0, "\(sorted.error)")
    #expect(sorted.lines.dropFirst().first?.contains("Alpha") == true, "\(sorted.output)")
    #expect(try box.docket(["awards", "--lang", "DE"]).output.contains("Erster Vorgang"))
    #expect(try box.docket(["completions", "Bash"]).output.contains("complete -F _docket"))
    #expect(try box.docket(["--theme", "High-Contrast", "--version"]).status == 0)
  }
}

/// `tag rename A B` onto another tag's name says how to merge; with `--merge`, A's issues carry
/// B and A goes, each issue keeping every other tag.
@Suite struct TagMergeCommandTests {
  @Test func renamingOntoATakenNameOffersAndDoesAMerge() throws {
    let box = try Sandbox()
    try box.docket(["add", "Only A", "--tag", "A", "--tag", "Other"])
    try box.docket(["add", "Both", "--tag", "A", "--tag", "B"])
    try box.docket(["add", "Only B", "--tag", "B"])
    let refused = try box.docket(["tag", "rename", "A", "b"])
    #expect(refused.status == 2)
    #expect(refused.error.contains("add --merge"), "\(refused.error)")
    let merged = try box.docket(["tag", "rename", "A", "b", "--merge"])
    #expect(merged.status == 0, "\(merged.error)")
    #expect(merged.output == "Merged tag A into B: its issues carry B now.\n")
    let issues = try #require(
      try box.docket(["list", "--filter", "all", "--json"]).json() as? [[String: Any]])
    let tags = Dictionary(
      uniqueKeysWithValues: issues.map { ($0["title"] as! String, $0["tags"] as! [String]) })
    #expect(tags == ["Only A": ["B", "Other"], "Both": ["B"], "Only B": ["B"]])
    let list = try #require(try box.docket(["tag", "list", "--json"]).json() as? [[String: Any]])
    #expect(list.map { $0["name"] as! String } == ["B", "Other"])
    #expect(list.first?["total"] as? Int == 3)
  }
}

/// A command's help lists the options it takes; the terminal app's own are under `docket help`
/// and taken only by the app.
@Suite struct AppOptionsTests {
  @Test func theAppsOptionsAreTheAppsAlone() throws {
    let box = try Sandbox()
    let list = try box.docket(["help", "list"]).output
    #expect(list.contains("--filter") && list.contains("--db"))
    for option in ["--screen-reader", "--no-mouse", "--theme"] {
      #expect(!list.contains(option), "\(option)")
    }
    let general = try box.docket(["help"]).output
    let app = try #require(general.range(of: "Options of the terminal app"))
    #expect(general[app.upperBound...].contains("--screen-reader"))
    let refused = try box.docket(["list", "--no-mouse"])
    #expect(refused.status == 2)
    #expect(refused.error.contains("unknown option --no-mouse for docket list"))
  }
}
