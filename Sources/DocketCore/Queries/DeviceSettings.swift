import Database

/// What this device remembers between runs. Never synced.
public struct DeviceSettings: Equatable, Hashable, Sendable {
  public var issueSort: IssueSort
  public var tagSort: TagSort
  public var showCompleted: Bool
  /// The filter the terminal app opens on.
  public var lastFilter: IssueFilter

  public init(
    issueSort: IssueSort = .default, tagSort: TagSort = .default, showCompleted: Bool = false,
    lastFilter: IssueFilter = .open
  ) {
    self.issueSort = issueSort
    self.tagSort = tagSort
    self.showCompleted = showCompleted
    self.lastFilter = lastFilter
  }

  enum Key: String {
    case issueSort = "issue_sort"
    case tagSort = "tag_sort"
    case showCompleted = "show_completed"
    case lastFilter = "last_filter"
  }
}

extension Connection {
  /// The stored settings; anything missing or unreadable falls back to its default.
  public func fetchSettings() throws -> DeviceSettings {
    var values: [String: String] = [:]
    try forEachRow("SELECT key, value FROM settings") { row in
      values[try row.get(0)] = try row.get(1)
    }
    var settings = DeviceSettings()
    if let sort = values[DeviceSettings.Key.issueSort.rawValue].flatMap(
      IssueSort.init(storageValue:))
    {
      settings.issueSort = sort
    }
    if let sort = values[DeviceSettings.Key.tagSort.rawValue].flatMap(TagSort.init(storageValue:)) {
      settings.tagSort = sort
    }
    if let show = values[DeviceSettings.Key.showCompleted.rawValue] {
      settings.showCompleted = show != "0"
    }
    if let filter = values[DeviceSettings.Key.lastFilter.rawValue].flatMap(
      IssueFilter.init(storageValue:))
    {
      settings.lastFilter = filter
    }
    return settings
  }

  /// Stores every setting that differs from what is stored.
  public func saveSettings(_ settings: DeviceSettings) throws {
    let values: [(DeviceSettings.Key, String)] = [
      (.issueSort, settings.issueSort.storageValue),
      (.tagSort, settings.tagSort.storageValue),
      (.showCompleted, settings.showCompleted ? "1" : "0"),
      (.lastFilter, settings.lastFilter.storageValue),
    ]
    try transaction {
      for (key, value) in values {
        try execute(
          """
          INSERT INTO settings (key, value) VALUES (?, ?)
          ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value != excluded.value
          """, [key.rawValue, value])
      }
    }
  }

  /// Changes the stored settings as `change` says: what every face does when a choice is to be
  /// remembered. Run it inside a write, so that nothing lands between the read and the save.
  public func updateSettings(_ change: (inout DeviceSettings) -> Void) throws {
    var settings = try fetchSettings()
    change(&settings)
    try saveSettings(settings)
  }
}
