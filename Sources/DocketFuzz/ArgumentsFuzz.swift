import DocketCore
import Foundation
import Localization

@testable import DocketCLI

/// The command line's words (separated by NUL in the input). Every command line is parsed; the
/// ones that only read a database (`list`, `show`, `awards`, `tag list`, `help`) are also run
/// against a small one, with what they print checked: an exit status of 0, 1 or 2, words on
/// standard error for every failure, and no control character in any output.
enum ArgumentsFuzz {
  static let folder: String = {
    let path = NSTemporaryDirectory() + "docket-fuzz-arguments-\(getpid())"
    do {
      let queue = try DocketDatabase.open(path: path + "/docket.sqlite", now: { SearchFuzz.now })
      try queue.write { db in
        for (index, title) in ["First", "Zweite Übung", "third \u{1B}[31m red"].enumerated() {
          _ = try db.createIssue(
            id: UUID(), title: title, detail: "line one\nline two", completed: index == 1,
            tagNames: ["bug"], now: SearchFuzz.now)
        }
      }
    } catch {
      fatalError("the fuzzer's database: \(error)")
    }
    return path
  }()

  /// Commands that read only; the others are parsed and not run (they would write files named
  /// by the input, open an editor, or serve).
  static let readingCommands: Set<[String]> = [
    ["list"], ["show"], ["awards"], ["tag", "list"], ["help"],
  ]

  static func run(_ bytes: [UInt8]) {
    let words = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    let parsed: ParsedArguments
    do {
      parsed = try ArgumentParser.parse(words)
    } catch {
      for language in DocketStrings.supportedLanguages {
        let message = UsageText.message(for: error, DocketStrings.localizer(language: language))
        require(isExplained(message, input: bytes), "a usage error unexplained: \(message)")
      }
      return
    }
    require(
      parsed.path.isEmpty || CommandSpec.named(parsed.path[0]) != nil,
      "a command that does not exist was accepted: \(parsed.path)")
    // Only the fuzzer's own database, and no file written or read by name.
    let named = words.contains { word in
      ["--db", "-o", "--output", "--sample"].contains { word == $0 || word.hasPrefix($0 + "=") }
    }
    guard readingCommands.contains(parsed.path), !named else { return }
    let output = Output()
    let console = Console(
      write: { output.append($0) }, writeError: { output.append($0, error: true) },
      readLine: { nil }, outputIsTerminal: true, inputIsTerminal: false, width: 80,
      colors: false)
    let status = DocketCommandLine(
      arguments: words,
      environment: ["DOCKET_DB": folder + "/docket.sqlite", "LANG": "de_DE.UTF-8"],
      console: console, now: SearchFuzz.now
    ).run()
    let (text, errors) = output.texts
    require([0, 1, 2].contains(status), "exit status \(status) for \(words)")
    require(status == 0 || !errors.isEmpty, "exit status \(status) without a message: \(words)")
    for scalar in (text + errors).unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
      require(scalar == "\n" || scalar == "\t", "a control character in the output of \(words)")
    }
  }

  /// What a command printed, from whichever thread printed it.
  final class Output: @unchecked Sendable {
    private let lock = NSLock()
    private var standard = ""
    private var errors = ""

    func append(_ text: String, error: Bool = false) {
      lock.withLock {
        if error { errors += text } else { standard += text }
      }
    }

    var texts: (String, String) { lock.withLock { (standard, errors) } }
  }
}
