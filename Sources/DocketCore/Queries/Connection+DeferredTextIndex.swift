import Database

/// The full-text index kept once after many writes instead of row by row: for an import that
/// brings many known issues up to date, and for sync applying many edits.
///
/// Row by row, triggers take an edited issue's words out of the index and put the new ones in.
/// The index gathers words in memory in the order of the issues' rows and must write out what it
/// holds whenever a row comes again; an edit takes an issue's words out and puts them back under
/// the same row, so every edit writes a segment of its own and the index merges them as it goes,
/// which is most of the time of a large re-import.
///
/// Here the index's three triggers (new, deleted and edited issues) are set aside while `body`
/// runs, and temporary triggers note instead which rows were touched and what text the index has
/// for each (its text when first touched; none for a row made meanwhile; an update that leaves
/// the text as it was touches nothing). The sort key of an edited title is set by the temporary
/// trigger too, unless the update set it already. After `body`, the old
/// words of every touched row are taken out in one pass and the words of those still there put
/// in in another, each in the order of the rows.
extension Connection {
  /// The index's triggers on issues, set aside while `deferringTextIndex` runs.
  static let textIndexTriggers: Set<String> = [
    "issues_after_insert", "issues_after_delete", "issues_after_text_update",
  ]

  /// From how many writes the index is kept once after them. Fewer keep it row by row: setting
  /// the index's triggers aside and back changes the schema, which makes every other connection
  /// prepare its statements again (the app's live sync pulls a few changes at a time).
  public static let deferredTextIndexThreshold = 100

  /// `deferringTextIndex` for `count` writes or more (issues a file brings, changes a package
  /// holds); fewer run `body` as it is, the index kept row by row.
  public func deferringTextIndex<Value>(
    for count: Int, step: ((BulkStep) -> Void)? = nil, _ body: () throws -> Value
  ) throws -> Value {
    count >= Self.deferredTextIndexThreshold
      ? try deferringTextIndex(step: step, body) : try body()
  }

  /// Runs `body` inside the caller's transaction with the full-text index brought up to date
  /// once, after it (see above); the index's triggers are back after it, made again in the order
  /// they were made in, so that every trigger on issues fires in the order it did before. A
  /// failure is for the caller's transaction to roll back, triggers and all. `step` hears
  /// `.searchIndex` when there is text to index. Not for `insertIssuesInBulk`, which fills the
  /// index itself, nor nested.
  public func deferringTextIndex<Value>(
    step: ((BulkStep) -> Void)? = nil, _ body: () throws -> Value
  ) throws -> Value {
    precondition(isInTransaction, "inside the caller's transaction")
    let nested = try isDeferringTextIndex
    precondition(!nested, "not nested")
    var triggers: [(name: String, sql: String)] = []
    try forEachRow(
      """
      SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'issues'
        AND rowid >= (
          SELECT min(rowid) FROM sqlite_master
          WHERE type = 'trigger' AND name IN ('\(Self.textIndexTriggers.sorted().joined(separator: "', '"))'))
      ORDER BY rowid
      """
    ) { row in triggers.append((try row.get(0, as: String.self), try row.get(1, as: String.self))) }
    guard Self.textIndexTriggers.isSubset(of: triggers.map(\.name)) else {
      throw SQLiteError.damaged("the search index's triggers are missing from the database")
    }
    let kept = triggers.filter { !Self.textIndexTriggers.contains($0.name) }
    // Run as scripts: statements run once, kept out of the cache of prepared statements.
    try executeScript(dropping(triggers) + kept.map { $0.sql + ";\n" }.joined())
    // `indexed`: whether the index has words for the row (its text then, in `title`, `detail`).
    try executeScript(
      """
      CREATE TEMP TABLE docket_text_touched (
        seq INTEGER PRIMARY KEY, indexed INTEGER NOT NULL, title TEXT, detail TEXT
      );
      CREATE TEMP TRIGGER docket_text_after_insert AFTER INSERT ON main.issues BEGIN
        INSERT OR IGNORE INTO docket_text_touched (seq, indexed) VALUES (new.seq, 0);
        UPDATE issues SET title_key = docket_sort_key(new.title) WHERE seq = new.seq;
      END;
      CREATE TEMP TRIGGER docket_text_after_delete AFTER DELETE ON main.issues BEGIN
        INSERT OR IGNORE INTO docket_text_touched VALUES (old.seq, 1, old.title, old.detail);
      END;
      CREATE TEMP TRIGGER docket_text_after_update AFTER UPDATE OF title, detail ON main.issues
      WHEN old.title IS NOT new.title OR old.detail IS NOT new.detail BEGIN
        INSERT OR IGNORE INTO docket_text_touched VALUES (old.seq, 1, old.title, old.detail);
        UPDATE issues SET title_key = docket_sort_key(new.title)
          WHERE seq = new.seq AND title_key IS NOT docket_sort_key(new.title);
      END;
      """)
    let value = try body()
    if try fetchOne("SELECT count(*) FROM docket_text_touched", as: Int.self) ?? 0 > 0 {
      step?(.searchIndex)
    }
    try executeScript(
      """
      INSERT INTO issue_fts (issue_fts, rowid, title, detail)
        SELECT 'delete', seq, title, detail FROM docket_text_touched WHERE indexed ORDER BY seq;
      INSERT INTO issue_fts (rowid, title, detail)
        SELECT i.seq, i.title, i.detail FROM docket_text_touched t JOIN main.issues i ON i.seq = t.seq
        ORDER BY t.seq;
      """)
    try executeScript(
      """
      DROP TRIGGER docket_text_after_insert;
      DROP TRIGGER docket_text_after_delete;
      DROP TRIGGER docket_text_after_update;
      DROP TABLE docket_text_touched;
      """)
    try executeScript(dropping(kept) + triggers.map { $0.sql + ";\n" }.joined())
    return value
  }

  private func dropping(_ triggers: [(name: String, sql: String)]) -> String {
    triggers.map { "DROP TRIGGER \"\($0.name)\";\n" }.joined()
  }

  /// Whether `deferringTextIndex` is running on this connection.
  var isDeferringTextIndex: Bool {
    get throws {
      try fetchOne(
        "SELECT count(*) FROM sqlite_temp_master WHERE name = 'docket_text_touched'", as: Int.self)
        ?? 0 > 0
    }
  }
}
