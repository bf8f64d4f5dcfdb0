import Database

/// What undo and the conflicts view read.
///
/// `undo_steps` keeps this device's own actions, one a write: the range of its changes each
/// made (`first`...`last`, rows of `changes`), newest last. It never syncs: an undo is made of
/// new changes, which do. `kind` is `do` (an action), `undo` (it put back the changes of the
/// step `target`) or `redo` (it put back those of the undo `target`); `root` is the action an
/// undo or redo goes back to, which names it. `undone` is set on a step once undone (an undo
/// once redone), so that it is offered no more.
///
/// The conflicts view reads the values that lost a merge (`lost`) straight from an index that
/// holds nothing else.
extension Schema {
  static func v10(_ db: Connection) throws {
    try db.executeScript(
      """
      CREATE TABLE undo_steps (
        seq INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('do', 'undo', 'redo')),
        first INTEGER NOT NULL,
        last INTEGER NOT NULL,
        target INTEGER,
        root INTEGER,
        undone INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL
      );
      CREATE INDEX changes_lost ON changes (row_id) WHERE lost = 1 AND held = 0 AND entity = 'issue';
      -- Conflicts looked at: counted for the award.
      CREATE INDEX changes_dismissals ON changes (row_id) WHERE field = 'dismiss';
      """)
  }

  /// How many steps are kept: older ones can no longer be undone.
  public static let keptUndoSteps = 200

  /// Records each write that made changes of this device's as one undo step, unless the write
  /// recorded its own (an undo or a redo). A dismissed conflict is no step of its own (it changes
  /// no value; the conflict stays dealt with), and a write that deletes for good is none (nothing
  /// brings its issues back). Before the schema has the table (a migration running) it does
  /// nothing.
  static let undoStepBracket = TransactionBracket(
    begin: { connection in
      (try? connection.fetchOne(
        "SELECT coalesce(max(seq), 0) FROM changes WHERE NOT EXISTS (SELECT 1 FROM undo_steps WHERE 0)",
        as: Int64.self)) ?? nil
    },
    end: { connection, mark in
      guard
        let latest = try connection.fetchOne(
          "SELECT coalesce(max(seq), 0) FROM changes", as: Int64.self), latest > mark
      else { return }
      try connection.execute(
        """
        INSERT INTO undo_steps (kind, first, last, at)
        SELECT 'do', min(seq), max(seq), docket_now() FROM changes
        WHERE seq > ?1 AND device = (SELECT device FROM sync_clock) AND entity != 'device'
          AND field NOT IN ('dismiss', 'purge') AND held = 0
        HAVING count(*) > 0 AND NOT EXISTS (SELECT 1 FROM undo_steps WHERE last > ?1)
          AND NOT EXISTS (
            SELECT 1 FROM changes WHERE seq > ?1 AND field = 'purge'
              AND device = (SELECT device FROM sync_clock))
        """, [mark])
      guard connection.changedRowCount > 0 else { return }
      try connection.execute(
        "DELETE FROM undo_steps WHERE seq <= (SELECT max(seq) FROM undo_steps) - ?",
        [keptUndoSteps])
    })
}
