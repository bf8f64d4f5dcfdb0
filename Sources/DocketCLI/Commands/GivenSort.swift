import Database
import DocketCore

extension CommandContext {
  /// The order a listing command was given for this run (`--sort`, `--asc`, `--desc`), over the
  /// one kept at `kept`; nil when none was given. A sort given here is for this list alone (a
  /// script's `--sort title` must not change what the next plain run shows); `--remember` keeps
  /// it, for the apps and later lists alike, and only then does listing write. `--sort FIELD`
  /// starts in the field's own direction; `--asc` and `--desc` set it. A mistake in these
  /// options is reported before the database is opened.
  func givenSort<Key: SortField>(
    kept: WritableKeyPath<DeviceSettings, SortChoice<Key>>
  ) throws -> SortChoice<Key>? {
    if arguments.has("asc"), arguments.has("desc") {
      throw CommandFailure.usage(
        UsageText.message(for: .conflictingOptions("--asc", "--desc"), l10n))
    }
    let field = try arguments.value("sort").map { text -> Key in
      guard let field = Key(rawValue: text.lowercased()) else {
        throw UsageText.badValue(option: "sort", value: text, in: arguments, l10n)
      }
      return field
    }
    guard field != nil || arguments.has("asc") || arguments.has("desc") else {
      if arguments.has("remember") { throw CommandFailure.usage(l10n("error.list.rememberWhat")) }
      return nil
    }
    let database = try database()
    let stored = try database.read { try $0.fetchSettings() }[keyPath: kept]
    var sort = field.map { SortChoice(field: $0) } ?? stored
    if arguments.has("asc") { sort.ascending = true }
    if arguments.has("desc") { sort.ascending = false }
    if arguments.has("remember"), sort != stored {
      try database.write { db in try db.updateSettings { $0[keyPath: kept] = sort } }
    }
    return sort
  }
}
