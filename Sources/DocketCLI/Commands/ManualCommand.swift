import DocketCore
import Foundation
import Localization
import Terminal

/// `docket manual`: the manual page, docket(1), in roff, made from the same command table as
/// `docket help`, so that the two never disagree. `make install` writes it where `man` looks.
struct ManualCommand {
  let context: CommandContext

  /// On a terminal the page is shown as `man` shows it (through its pager); elsewhere, and where
  /// there is no `man`, it is written as roff, for `man -l` and for packagers.
  func run() {
    let page = Self.page(context.l10n)
    if context.console.outputIsTerminal, context.console.inputIsTerminal, showWithMan(page) {
      return
    }
    context.console.write(page)
  }

  private func showWithMan(_ page: String) -> Bool {
    let search = (context.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    guard
      let man = search.map({ $0 + "/man" }).first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return false }
    // A file of its own, made by mkstemp (a name nobody could have prepared a link at).
    var template = Array(
      (FileManager.default.temporaryDirectory.path + "/docket-manual-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return false }
    let path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    guard (try? handle.write(contentsOf: Data(page.utf8))) != nil else { return false }
    try? handle.close()
    // Once man has run, the page was shown (or the reader left it): roff is written only when
    // man could not start at all.
    return ForegroundProgram.run(man, arguments: ["-l", path]) != nil
  }

  static func page(_ l10n: Localizer) -> String {
    var lines: [String] = [
      ".TH DOCKET 1 \"\" \"docket \(DocketVersion.current)\" \"\(escape(l10n("man.header")))\"",
      ".SH \(escape(l10n("man.name")))",
      "docket \\- " + escape(l10n("man.tagline")),
      ".SH \(escape(l10n("man.synopsis")))",
      ".B docket",
      "[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]",
      ".SH \(escape(l10n("man.description")))",
    ]
    lines += paragraphs(l10n("man.descriptionText"))
    lines.append(".SH \(escape(l10n("man.commands")))")
    for spec in CommandSpec.all {
      lines += command(spec, l10n)
      for sub in spec.subcommands { lines += command(sub, l10n) }
    }
    lines.append(".SH \(escape(l10n("man.options")))")
    for option in CommandSpec.globalOptions {
      lines += [".TP", label(option), escape(l10n(option.help))]
    }
    lines += [".TP", "\\fB\\-\\-version\\fR", escape(l10n("option.version"))]
    lines.append(".SS \(escape(l10n("help.appOptions")))")
    for option in CommandSpec.appOptions {
      lines += [".TP", label(option), escape(l10n(option.help))]
    }
    for (section, text) in [
      ("man.search", "man.searchText"), ("man.files", "man.filesText"),
      ("man.environment", "man.environmentText"), ("man.exit", "man.exitText"),
    ] {
      lines.append(".SH \(escape(l10n(section)))")
      lines += definitions(l10n(text))
    }
    lines.append(".SH \(escape(l10n("man.examples")))")
    for spec in CommandSpec.all {
      guard let examples = spec.examples else { continue }
      lines += [".PP", ".nf"]
      lines += l10n(examples).split(separator: "\n").map { escape(String($0)) }
      lines.append(".fi")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func command(_ spec: CommandSpec, _ l10n: Localizer) -> [String] {
    var lines = [".TP", "\\fB" + escape(spec.usage) + "\\fR", escape(l10n(spec.summary))]
    if !spec.options.isEmpty {
      lines.append(".RS")
      for option in spec.options {
        lines += [".TP", label(option), escape(l10n(option.help))]
      }
      lines.append(".RE")
    }
    return lines
  }

  private static func label(_ option: OptionSpec) -> String {
    var label = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
    label += "\\fB\\-\\-" + escape(option.name) + "\\fR"
    if case .value(let name) = option.kind { label += " \\fI" + escape(name) + "\\fR" }
    return label
  }

  /// Blank-line separated paragraphs.
  private static func paragraphs(_ text: String) -> [String] {
    text.components(separatedBy: "\n\n").flatMap { [".PP", escape($0)] }
  }

  /// Lines of `term — text` as a list of definitions.
  private static func definitions(_ text: String) -> [String] {
    text.split(separator: "\n").flatMap { line -> [String] in
      let parts = line.components(separatedBy: " — ")
      guard parts.count == 2 else { return [".PP", escape(String(line))] }
      return [".TP", "\\fB" + escape(parts[0]) + "\\fR", escape(parts[1])]
    }
  }

  /// Text made safe for roff: backslashes and dashes written as escapes, letters beyond ASCII as
  /// named Unicode escapes (so the page reads the same whatever encoding `man` assumes), and a
  /// line that would start with a control character made plain.
  static func escape(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\e"
      case "-": escaped += "\\-"
      case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      }
    }
    return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
    }.joined(separator: "\n")
  }

}
