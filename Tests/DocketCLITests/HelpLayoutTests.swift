import Foundation
import Testing

@testable import DocketCLI

/// Help at 80 columns, in both languages: a long option moves its description to the next line
/// instead of running into it, and nothing is wider than the page.
@Suite struct HelpLayoutTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  static func label(_ option: OptionSpec) -> String {
    var label = option.short.map { "-\($0), " } ?? ""
    label += "--" + option.name
    if case .value(let name) = option.kind { label += " " + name }
    return label
  }

  @Test(arguments: ["en", "de"])
  func everyCommandsHelpLinesUp(language: String) throws {
    var pages: [([String], [OptionSpec])] = [(["help"], CommandSpec.globalOptions)]
    for spec in CommandSpec.all {
      pages.append((["help", spec.name], spec.options + CommandSpec.globalOptions))
      for sub in spec.subcommands {
        pages.append((["help", spec.name, sub.name], sub.options + CommandSpec.globalOptions))
      }
    }
    for (page, options) in pages {
      let run = try box.docket(page + ["--lang", language])
      #expect(run.status == 0, "\(page)")
      for line in run.lines {
        // The usage line is a command to copy, not text to wrap; everything else fits.
        if line.hasPrefix("Usage:") || line.hasPrefix("Aufruf:") || line.hasPrefix("  docket ") {
          continue
        }
        #expect(line.count <= 80, "\(page) \(language): \(line.count) columns: \(line)")
      }
      // Every option is shown whole, followed by its description two spaces on or below.
      for option in options {
        let label = Self.label(option)
        let line = run.lines.first { $0.hasPrefix("  " + label) }
        #expect(line != nil, "\(page) \(language): “\(label)” is not shown whole")
        if let rest = line?.dropFirst(2 + label.count) {
          #expect(
            rest.isEmpty || rest.hasPrefix("  "),
            "\(page) \(language): “\(label)” runs into its description: \(line ?? "")")
        }
      }
    }
  }

  @Test func aLabelTooLongForItsColumnPutsItsDescriptionBelow() {
    let lines = HelpLayout.rows(
      [("-p, --priority low|medium|high", "low, medium or high"), ("--json", "print JSON")],
      column: 28, width: 80)
    #expect(
      lines == [
        "  -p, --priority low|medium|high",
        "                            low, medium or high",
        "  --json                    print JSON",
      ])
  }

  @Test func descriptionsWrapUnderThemselves() {
    let lines = HelpLayout.rows(
      [("--db PATH", "the database file (default: $DOCKET_DB, else the data folder)")], column: 14,
      width: 40)
    #expect(
      lines == [
        "  --db PATH   the database file",
        "              (default: $DOCKET_DB, else",
        "              the data folder)",
      ])
  }
}

/// The list of commands is also the dispatch: every command that can be asked for runs, and the
/// path of each finds it.
@Suite struct CommandListTests {
  @Test func everyCommandThatCanBeAskedForRuns() {
    for spec in CommandSpec.all {
      #expect(CommandSpec.at([spec.name])?.name == spec.name)
      // A command with subcommands runs alone only where it says so (`docket device`).
      #expect((spec.run != nil) == (spec.subcommands.isEmpty || spec.runsAlone), "\(spec.name)")
      for sub in spec.subcommands {
        #expect(sub.run != nil, "\(spec.name) \(sub.name)")
        #expect(CommandSpec.at([spec.name, sub.name])?.usage == sub.usage)
      }
    }
    #expect(CommandSpec.at(["tag", "nothing"]) == nil)
    #expect(CommandSpec.at([]) == nil)
    #expect(CommandSpec.commandNames.last == "help")
    #expect(Set(CommandSpec.commandNames).count == CommandSpec.all.count)
  }
}
