import DocketCLI
import Foundation
import Locking
import Terminal
import Testing

/// Output on a terminal, through the library with a console that says it is one.
@Suite struct TerminalOutputTests {
  func run(_ arguments: [String], database: String, width: Int, colors: Bool) -> String {
    let output = Locked("")
    let console = Console(
      write: { text in output.withLock { $0 += text } },
      writeError: { text in output.withLock { $0 += text } },
      readLine: { nil }, outputIsTerminal: true, inputIsTerminal: true, width: width, colors: colors
    )
    _ = DocketCommandLine(
      arguments: arguments + ["--db", database], environment: ["LANG": "C"], console: console
    ).run()
    return output.withLock { $0 }
  }

  @Test func rowsAreCutToTheWidthWithAnEllipsisAndNeverWrapped() throws {
    let box = try Sandbox()
    _ = try box.add([
      "A rather long title that will not fit into sixty columns at all", "--tag", "Documentation",
    ])
    _ = try box.add(["Short", "--priority", "high"])
    let text = run(["list"], database: box.database, width: 60, colors: false)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)  // header, two rows, summary
    for line in lines.prefix(3) { #expect(DisplayWidth.of(line) <= 60, "too wide: \(line)") }
    #expect(lines[1].contains("…") || lines[2].contains("…"))
    #expect(lines.last == "2 issues")
  }

  @Test func coloursOnlyWhenAsked() throws {
    let box = try Sandbox()
    _ = try box.add(["Urgent", "--priority", "high"])
    #expect(
      run(["list"], database: box.database, width: 100, colors: true).contains("\u{1B}[31m▲ High"))
    #expect(!run(["list"], database: box.database, width: 100, colors: false).contains("\u{1B}["))
  }

  @Test func colourOnATerminalUnlessNoColorOrADumbTerminal() {
    #expect(TerminalInfo.wantsColor(isTerminal: true, environment: ["TERM": "xterm-256color"]))
    #expect(TerminalInfo.wantsColor(isTerminal: true, environment: [:]))
    #expect(!TerminalInfo.wantsColor(isTerminal: false, environment: ["TERM": "xterm-256color"]))
    // NO_COLOR set to something turns colour off; set empty, it does not (no-color.org).
    #expect(
      !TerminalInfo.wantsColor(isTerminal: true, environment: ["NO_COLOR": "1", "TERM": "xterm"]))
    #expect(
      TerminalInfo.wantsColor(isTerminal: true, environment: ["NO_COLOR": "", "TERM": "xterm"]))
    #expect(!TerminalInfo.wantsColor(isTerminal: true, environment: ["TERM": "dumb"]))
  }

  /// On a terminal, awards end with how many are unlocked; piped, that line is left out.
  @Test func theAwardsSummaryIsForATerminal() throws {
    let box = try Sandbox()
    _ = try box.add(["First"])
    let text = run(["awards"], database: box.database, width: 100, colors: false)
    #expect(text.hasSuffix("\n1 of 20 awards unlocked.\n"), "\(text)")
    #expect(try !box.docket(["awards"]).output.contains("unlocked."))
  }

  @Test func anEmptyListSaysWhatToDoOnATerminal() throws {
    let box = try Sandbox()
    #expect(
      run(["list"], database: box.database, width: 80, colors: false)
        == "No open issues. Add one with: docket add \"Title\"\n")
    #expect(try box.docket(["list"]).output == "")
  }
}
