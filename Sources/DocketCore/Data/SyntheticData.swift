import Database
import Foundation

/// Deterministic, realistic-looking issues in any number, for benchmarks: the same seed gives the
/// same database.
public struct SyntheticData {
  public var issueCount: Int
  public var tagCount: Int
  public var seed: UInt64
  public var now: Date

  public init(issueCount: Int, tagCount: Int, seed: UInt64 = 42, now: Date) {
    self.issueCount = issueCount
    self.tagCount = tagCount
    self.seed = seed
    self.now = now
  }

  static let verbs = [
    "Fix", "Add", "Remove", "Improve", "Refactor", "Document", "Test", "Speed up", "Investigate",
    "Update", "Rename", "Simplify", "Translate", "Review", "Support",
  ]
  static let subjects = [
    "build", "login", "search", "sync", "export", "import", "settings", "layout", "crash",
    "warning", "cache", "database", "migration", "tag filter", "sort order", "keyboard shortcut",
    "screen reader", "Übersetzung", "release notes", "error message", "start-up", "memory use",
  ]
  static let places = [
    "on Linux", "on macOS", "in the terminal app", "in the command line", "for large databases",
    "after sync", "in German", "on narrow terminals", "when offline", "for new users",
  ]
  static let sentences = [
    "Steps to reproduce are in the attached log.", "Happens only after a fresh start.",
    "Users reported this twice this week.", "Needs a test that fails first.",
    "The workaround is to restart, which is not good enough.", "Check the release build as well.",
    "Compare with the behaviour of version 0.9.", "Fehlermeldung erscheint nur auf Deutsch.",
    "Probably related to the new cache.", "Measure before and after the change.",
  ]
  static let tagWords = [
    "Bug", "Feature", "UI", "Docs", "Performance", "Sync", "CLI", "Terminal", "Search", "Release",
    "Security", "Accessibility", "Translation", "Backend", "Design", "Testing", "Build", "Storage",
  ]

  /// Writes the tags and issues in one transaction; returns the tags made.
  @discardableResult
  public func insert(into db: Connection) throws -> [Tag] {
    var random = SplitMix64(seed: seed)
    return try db.transaction {
      var tags: [Tag] = []
      var tagRows: [Int64] = []
      for index in 0..<tagCount {
        let base = Self.tagWords[index % Self.tagWords.count]
        let name = index < Self.tagWords.count ? base : "\(base) \(index / Self.tagWords.count + 1)"
        let tag = Tag(id: random.uuid(), name: name)
        try db.execute("INSERT INTO tags (id, name) VALUES (?, ?)", [tag.id, tag.name])
        tags.append(tag)
        tagRows.append(
          try db.fetchOne("SELECT seq FROM tags WHERE id = ?", [tag.id], as: Int64.self) ?? 0)
      }
      let twoYears: Double = 2 * 365 * 24 * 60 * 60
      for _ in 0..<issueCount {
        let title = [random.pick(Self.verbs), random.pick(Self.subjects), random.pick(Self.places)]
          .joined(separator: " ")
        let detail = (0..<random.int(below: 4)).map { _ in random.pick(Self.sentences) }
          .joined(separator: " ")
        let created = now.addingTimeInterval(-random.double() * twoYears)
        let edited = random.int(below: 2) == 0
        let modified =
          edited
          ? created.addingTimeInterval(random.double() * now.timeIntervalSince(created)) : nil
        let roll = random.int(below: 10)
        let priority: Priority = roll < 5 ? .low : roll < 8 ? .medium : .high
        let completed = random.int(below: 4) == 0
        let id = random.uuid()
        let issueRow = Int64(
          try db.fetchOne("SELECT coalesce(max(seq), 0) + 1 FROM issues", as: Int.self) ?? 1)
        try db.execute(
          """
          INSERT INTO issues (seq, id, title, detail, priority, completed, created, modified)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """, [issueRow, id, title, detail, priority.rawValue, completed, created, modified])
        // Tag use is skewed: the first tags are common, the later ones rare.
        if !tags.isEmpty {
          var chosen = Set<Int>()
          for _ in 0..<random.int(below: 4) {
            let skewed = Int(Double(tags.count) * pow(random.double(), 2))
            chosen.insert(min(skewed, tags.count - 1))
          }
          for index in chosen {
            try db.execute(
              "INSERT INTO issue_tags (issue_seq, tag_seq) VALUES (?, ?)",
              [issueRow, tagRows[index]])
          }
        }
      }
      return tags
    }
  }
}

/// A small, fast, seedable random number generator (SplitMix64), so synthetic data is the same on
/// every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }

  mutating func int(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
  mutating func double() -> Double { Double(next() >> 11) / Double(1 << 53) }
  mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[int(below: elements.count)]
  }

  /// A version-4 UUID from the generator.
  public mutating func uuid() -> UUID {
    var bytes = [UInt8](repeating: 0, count: 16)
    for half in 0..<2 {
      let word = next()
      for byte in 0..<8 { bytes[half * 8 + byte] = UInt8(truncatingIfNeeded: word >> (8 * byte)) }
    }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}
