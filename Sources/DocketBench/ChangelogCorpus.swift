import DocketTransfer
import Foundation

/// A corpus of real text for the import and export benchmarks: every entry of the Debian
/// changelogs installed on this machine (`/usr/share/doc/*/changelog.Debian.gz`), written as
/// `task export` writes tasks (one a line), so that Docket's import reads it as it would read a
/// Taskwarrior user's tasks. Title: the entry's first line; detail: the entry (an annotation dated
/// as its release); tags: the package and the release's urgency.
enum ChangelogCorpus {
  /// The corpus file in `folder`, made on first use; nil where there are no changelogs.
  static func file(in folder: String) -> (path: String, entries: Int)? {
    let path = folder + "/changelog-corpus.json"
    if !FileManager.default.fileExists(atPath: path) {
      guard make(at: path) else { return nil }
    }
    // Counted a piece at a time: this process's size counts in the peak memory of the programs
    // it starts (Linux), so it never holds the corpus.
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var lines = 0
    while let piece = try? handle.read(upToCount: 1 << 16), !piece.isEmpty {
      lines += piece.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
    return (path, lines)
  }

  /// Writes the corpus, a package at a time; false where there are no changelogs.
  private static func make(at path: String) -> Bool {
    let documents = "/usr/share/doc"
    guard let packages = try? FileManager.default.contentsOfDirectory(atPath: documents),
      FileManager.default.createFile(atPath: path + ".partial", contents: nil),
      let output = FileHandle(forWritingAtPath: path + ".partial")
    else { return false }
    var written = 0
    for package in packages.sorted() {
      let changelog = "\(documents)/\(package)/changelog.Debian.gz"
      guard FileManager.default.fileExists(atPath: changelog), let text = gunzip(changelog) else {
        continue
      }
      var lines = ""
      entries(of: text, package: package) { lines += $0 + "\n" }
      written += lines.isEmpty ? 0 : 1
      try? output.write(contentsOf: Data(lines.utf8))
    }
    try? output.close()
    guard written > 0 else {
      try? FileManager.default.removeItem(atPath: path + ".partial")
      return false
    }
    return rename(path + ".partial", path) == 0
  }

  private static func gunzip(_ path: String) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-dc", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// The entries (`  * …` and the lines under it) of each release, with the release's urgency
  /// and date (from its `-- maintainer  date` line).
  private static func entries(of text: String, package: String, _ emit: (String) -> Void) {
    var urgency = "medium"
    var release: [[String]] = []
    var current: [String] = []
    var counter = 0
    func finishEntry() {
      if !current.isEmpty { release.append(current) }
      current = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if let first = line.first, !first.isWhitespace, let range = line.range(of: "urgency=") {
        urgency = String(line[range.upperBound...].prefix { !$0.isWhitespace && $0 != "," })
        release = []
        current = []
      } else if line.hasPrefix(" -- ") {
        finishEntry()
        let date = line.range(of: ">  ").map { String(line[$0.upperBound...]) } ?? ""
        let stamp = taskDate(date)
        for entry in release {
          counter += 1
          emit(task(entry, package: package, urgency: urgency, date: stamp, number: counter))
        }
        release = []
      } else if line.hasPrefix("  * ") {
        finishEntry()
        current = [String(line.dropFirst(4))]
      } else if line.hasPrefix("    "), !current.isEmpty {
        current.append(line.trimmingCharacters(in: .whitespaces))
      } else {
        finishEntry()
      }
    }
  }

  private static func task(
    _ lines: [String], package: String, urgency: String, date: String, number: Int
  ) -> String {
    func quote(_ text: String) -> String { JSONWriter.text(.string(text)) }
    // A stable id from the package and the entry's number in it.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in package.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let uuid = String(
      format: "%08x-%04x-4%03x-8%03x-%012llx", UInt32(truncatingIfNeeded: hash >> 32),
      UInt16(truncatingIfNeeded: hash >> 16), number & 0xfff, (number >> 12) & 0xfff,
      UInt64(number) << 16 | (hash & 0xffff))
    return
      "{\"uuid\":\"\(uuid)\",\"description\":\(quote(lines[0])),\"status\":\"pending\","
      + "\"entry\":\"\(date)\",\"tags\":[\(quote(package)),\(quote(urgency))],"
      + "\"annotations\":[{\"entry\":\"\(date)\",\"description\":\(quote(lines.joined(separator: "\n")))}]}"
  }

  /// `Mon, 01 Jan 2024 12:00:00 +0000` as Taskwarrior's `20240101T120000Z`.
  private static func taskDate(_ text: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
    let date =
      formatter.date(from: text.trimmingCharacters(in: .whitespaces))
      ?? Date(timeIntervalSince1970: 1_600_000_000)
    let output = DateFormatter()
    output.locale = Locale(identifier: "en_US_POSIX")
    output.timeZone = TimeZone(identifier: "UTC")
    output.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return output.string(from: date)
  }
}
