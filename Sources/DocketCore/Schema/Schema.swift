import Database

/// Docket's schema, built by numbered migrations: v1–v4, v6 and v7 in this file in their order,
/// v5 (sync) in `Schema+Sync.swift`, v8 (what sync trusts) in `Schema+Trust.swift`, v9 (the
/// deletes Recently deleted lists) in `Schema+Deleted.swift`.
///
/// Designed for sync from the start: rows are identified by UUIDs (the integer `seq` columns are
/// local row numbers that only the full-text index refers to, never synced), and no UNIQUE
/// constraint exists that a merge of two devices could break: tag names are kept unique ignoring
/// case by the code that writes them.
public enum Schema {
  /// "DKT1": marks a database as Docket's in its header.
  public static let applicationID: Int32 = 0x444B_5431

  public static let migrator = Migrator(
    applicationID: applicationID,
    migrations: [
      Migration(version: 1, name: "issues, tags, links, full-text index, settings", migrate: v1),
      Migration(version: 2, name: "open and completed counts kept by the database", migrate: v2),
      Migration(version: 3, name: "each issue's tag rows kept on the issue", migrate: v3),
      Migration(version: 4, name: "tag rows kept a link at a time", migrate: v4),
      Migration(version: 5, name: "changes recorded for sync, devices, clock", migrate: v5),
      Migration(version: 6, name: "issues counted by day of activity", migrate: v6),
      Migration(version: 7, name: "sort indexes that end on the issue's tag rows", migrate: v7),
      Migration(
        version: 8, name: "held changes, tags one by name, what sync was told", migrate: v8),
      Migration(version: 9, name: "issue deletes indexed for Recently deleted", migrate: v9),
      Migration(version: 10, name: "undo steps, lost values indexed for conflicts", migrate: v10),
    ])

  /// The day the activity of `row` (`new`, `old`, a table's alias) falls on, as
  /// `activity_days` counts it: whole seconds since 1970 divided by a day's, in integers, so that
  /// a day begins exactly at a multiple of 86 400 seconds (dates before 1970 fall on day 0 or
  /// below, and are never in Recent's week). The triggers keep the expression as it was when
  /// they were made: a change to it needs a migration.
  static func activityDay(_ row: String) -> String { "CAST(\(row).activity AS INTEGER) / 86400" }

  static func v1(_ db: Connection) throws {
    try db.executeScript(
      """
      CREATE TABLE issues (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT '',
        priority INTEGER NOT NULL DEFAULT 0 CHECK (priority IN (0, 1, 2)),
        completed INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1)),
        created REAL NOT NULL,
        modified REAL,
        title_key TEXT NOT NULL DEFAULT '',
        activity REAL GENERATED ALWAYS AS (coalesce(modified, created)) VIRTUAL
      );

      -- One index per sort and direction, each led by completed (completed issues sort last) and
      -- ending in the tie-breaks, so a first page is read in order without sorting.
      CREATE INDEX issues_by_priority_desc ON issues (completed, priority DESC, activity, id);
      CREATE INDEX issues_by_priority_asc ON issues (completed, priority, activity, id);
      CREATE INDEX issues_by_activity_desc ON issues (completed, activity DESC, id);
      CREATE INDEX issues_by_activity_asc ON issues (completed, activity, id);
      CREATE INDEX issues_by_title_asc ON issues (completed, title_key, activity, id);
      CREATE INDEX issues_by_title_desc ON issues (completed, title_key DESC, activity, id);

      CREATE TABLE tags (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL DEFAULT '',
        -- Derived, kept by the triggers below: how many issues carry the tag, and how many of
        -- those are open. Never synced.
        open_count INTEGER NOT NULL DEFAULT 0,
        total_count INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX tags_by_name_key ON tags (name_key);

      -- Links name rows by their local numbers: small, and quick to probe while a page is read
      -- in sort order. Sync names links by the UUIDs of both ends.
      CREATE TABLE issue_tags (
        issue_seq INTEGER NOT NULL REFERENCES issues (seq) ON DELETE CASCADE,
        tag_seq INTEGER NOT NULL REFERENCES tags (seq) ON DELETE CASCADE,
        -- Derived: 1 while the issue is open, so a link that goes away knows what it counted.
        issue_open INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (issue_seq, tag_seq)
      ) WITHOUT ROWID;
      CREATE INDEX issue_tags_by_tag ON issue_tags (tag_seq, issue_seq);

      -- Per device, never synced.
      CREATE TABLE settings (
        key TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL
      );

      CREATE VIRTUAL TABLE issue_fts USING fts5 (
        title, detail,
        content = 'issues', content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '1 2 3'
      );

      CREATE TRIGGER issues_after_insert AFTER INSERT ON issues BEGIN
        INSERT INTO issue_fts (rowid, title, detail) VALUES (new.seq, new.title, new.detail);
        UPDATE issues SET title_key = docket_sort_key(new.title) WHERE seq = new.seq;
      END;

      CREATE TRIGGER issues_after_delete AFTER DELETE ON issues BEGIN
        INSERT INTO issue_fts (issue_fts, rowid, title, detail)
          VALUES ('delete', old.seq, old.title, old.detail);
      END;

      CREATE TRIGGER issues_after_text_update AFTER UPDATE OF title, detail ON issues BEGIN
        INSERT INTO issue_fts (issue_fts, rowid, title, detail)
          VALUES ('delete', old.seq, old.title, old.detail);
        INSERT INTO issue_fts (rowid, title, detail) VALUES (new.seq, new.title, new.detail);
        UPDATE issues SET title_key = docket_sort_key(new.title) WHERE seq = new.seq;
      END;

      -- The database, not the code that edits, stamps every edit. A writer that sets modified
      -- itself (sync, carrying the sender's time) keeps its value.
      CREATE TRIGGER issues_stamp_modified AFTER UPDATE OF title, detail, priority, completed ON issues
      WHEN new.modified IS old.modified BEGIN
        UPDATE issues SET modified = docket_now() WHERE seq = new.seq;
      END;

      CREATE TRIGGER issue_tags_after_insert AFTER INSERT ON issue_tags BEGIN
        UPDATE issue_tags SET issue_open = (SELECT 1 - completed FROM issues WHERE seq = new.issue_seq)
          WHERE issue_seq = new.issue_seq AND tag_seq = new.tag_seq;
        UPDATE tags SET total_count = total_count + 1,
          open_count = open_count + (SELECT 1 - completed FROM issues WHERE seq = new.issue_seq)
          WHERE seq = new.tag_seq;
      END;

      CREATE TRIGGER issue_tags_after_delete AFTER DELETE ON issue_tags BEGIN
        UPDATE tags SET total_count = total_count - 1, open_count = open_count - old.issue_open
          WHERE seq = old.tag_seq;
      END;

      CREATE TRIGGER issues_after_completion AFTER UPDATE OF completed ON issues
      WHEN new.completed != old.completed BEGIN
        UPDATE issue_tags SET issue_open = 1 - new.completed WHERE issue_seq = new.seq;
        UPDATE tags SET open_count = open_count + (CASE new.completed WHEN 1 THEN -1 ELSE 1 END)
          WHERE seq IN (SELECT tag_seq FROM issue_tags WHERE issue_seq = new.seq);
      END;

      CREATE TRIGGER tags_after_write AFTER INSERT ON tags BEGIN
        UPDATE tags SET name_key = docket_tag_key(new.name) WHERE seq = new.seq;
      END;

      CREATE TRIGGER tags_after_rename AFTER UPDATE OF name ON tags BEGIN
        UPDATE tags SET name_key = docket_tag_key(new.name) WHERE seq = new.seq;
      END;
      """)
  }

  /// The Open and Completed badges, kept by triggers as the tag counts are: counting them scans
  /// an index that grows with the database, where reading them takes one row. Recent is counted
  /// from the activity index, over the last week only.
  static func v2(_ db: Connection) throws {
    try db.executeScript(
      """
      CREATE TABLE issue_counts (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        open_count INTEGER NOT NULL,
        completed_count INTEGER NOT NULL
      );
      INSERT INTO issue_counts (id, open_count, completed_count) VALUES (
        1,
        (SELECT count(*) FROM issues WHERE completed = 0),
        (SELECT count(*) FROM issues WHERE completed = 1)
      );
      CREATE TRIGGER issue_counts_after_insert AFTER INSERT ON issues BEGIN
        UPDATE issue_counts SET open_count = open_count + 1 - new.completed,
          completed_count = completed_count + new.completed WHERE id = 1;
      END;
      CREATE TRIGGER issue_counts_after_delete AFTER DELETE ON issues BEGIN
        UPDATE issue_counts SET open_count = open_count - 1 + old.completed,
          completed_count = completed_count - old.completed WHERE id = 1;
      END;
      CREATE TRIGGER issue_counts_after_completion AFTER UPDATE OF completed ON issues
      WHEN old.completed != new.completed BEGIN
        UPDATE issue_counts SET open_count = open_count + old.completed - new.completed,
          completed_count = completed_count + new.completed - old.completed WHERE id = 1;
      END;
      -- Show completed starts off, as in the seed. Earlier Docket started it on and stored it
      -- with every other setting, chosen or not: that stored value is forgotten once.
      DELETE FROM settings WHERE key = 'show_completed';
      """)
  }

  /// Each issue's tag rows, kept on the issue by triggers (`1,4,9`, in no particular order; empty
  /// without tags). Reading them with the issue costs nothing; gathering them from the links
  /// takes a subquery per row, the largest cost of a long list. Never synced: links are.
  static func v3(_ db: Connection) throws {
    try db.executeScript(
      """
      ALTER TABLE issues ADD COLUMN tag_seqs TEXT NOT NULL DEFAULT '';
      UPDATE issues SET tag_seqs =
        (SELECT group_concat(tag_seq) FROM issue_tags WHERE issue_seq = issues.seq)
        WHERE seq IN (SELECT issue_seq FROM issue_tags);
      CREATE TRIGGER issue_tags_list_after_insert AFTER INSERT ON issue_tags BEGIN
        UPDATE issues SET tag_seqs = coalesce(
          (SELECT group_concat(tag_seq) FROM issue_tags WHERE issue_seq = new.issue_seq), '')
          WHERE seq = new.issue_seq;
      END;
      CREATE TRIGGER issue_tags_list_after_delete AFTER DELETE ON issue_tags BEGIN
        UPDATE issues SET tag_seqs = coalesce(
          (SELECT group_concat(tag_seq) FROM issue_tags WHERE issue_seq = old.issue_seq), '')
          WHERE seq = old.issue_seq;
      END;
      """)
  }

  /// The tag rows kept on an issue, changed a link at a time: v3's triggers gather the whole list
  /// again from the links for every link written, so that an issue with n tags takes n² steps to
  /// tag. These append a new link's row and take a removed one's row out of the text; the list
  /// stays in no particular order.
  static func v4(_ db: Connection) throws {
    try db.executeScript(
      """
      DROP TRIGGER issue_tags_list_after_insert;
      DROP TRIGGER issue_tags_list_after_delete;
      CREATE TRIGGER issue_tags_list_after_insert AFTER INSERT ON issue_tags BEGIN
        UPDATE issues SET tag_seqs = CASE tag_seqs WHEN '' THEN CAST(new.tag_seq AS TEXT)
          ELSE tag_seqs || ',' || new.tag_seq END
          WHERE seq = new.issue_seq;
      END;
      CREATE TRIGGER issue_tags_list_after_delete AFTER DELETE ON issue_tags BEGIN
        UPDATE issues SET tag_seqs =
          trim(replace(',' || tag_seqs || ',', ',' || old.tag_seq || ',', ','), ',')
          WHERE seq = old.issue_seq;
      END;
      """)
  }

  /// How many issues, open and completed, have their activity on each day, kept by triggers as
  /// the Open and Completed badges are. Counted on the activity index alone, Recent's week grows
  /// with the database; with these counts Recent adds up the week's whole days here and counts on
  /// the index only the part of the first day the week begins in.
  ///
  /// Every step is an upsert, taking away as well as adding: an edit fires these triggers and,
  /// through the stamp of `modified`, fires them again, in an order that depends on the order
  /// the triggers were made in; a step that took away from a day not yet counted would be lost.
  static func v6(_ db: Connection) throws {
    func add(_ row: String, _ step: Int) -> String {
      """
      INSERT INTO activity_days (completed, day, issue_count)
          VALUES (\(row).completed, \(activityDay(row)), \(step))
          ON CONFLICT (completed, day) DO UPDATE SET issue_count = issue_count + \(step);
      """
    }
    try db.executeScript(
      """
      CREATE TABLE activity_days (
        completed INTEGER NOT NULL,
        day INTEGER NOT NULL,
        issue_count INTEGER NOT NULL,
        PRIMARY KEY (completed, day)
      ) WITHOUT ROWID;
      INSERT INTO activity_days (completed, day, issue_count)
        SELECT completed, \(activityDay("issues")), count(*) FROM issues GROUP BY 1, 2;
      CREATE TRIGGER activity_days_after_insert AFTER INSERT ON issues BEGIN
        \(add("new", 1))
      END;
      CREATE TRIGGER activity_days_after_delete AFTER DELETE ON issues BEGIN
        \(add("old", -1))
      END;
      CREATE TRIGGER activity_days_after_update AFTER UPDATE OF created, modified, completed
      ON issues WHEN old.completed IS NOT new.completed OR \(activityDay("old")) IS NOT \(activityDay("new"))
      BEGIN
        \(add("old", -1))
        \(add("new", 1))
      END;
      """)
  }

  /// The sort indexes end on each issue's tag rows (`tag_seqs`), so that a page of a tag on a
  /// few percent of the issues is found by reading the sort index alone, each entry checked by
  /// the tag rows it holds instead of by a look-up in the links. The columns before them are
  /// those of the indexes they replace, so the order stays the same. The price: larger indexes,
  /// made again once, when a database is first opened by this version (a long wait on a large
  /// database), and six index entries moved for each tag put on or taken off an issue.
  static func v7(_ db: Connection) throws {
    let indexes = [
      ("issues_by_priority_desc", "completed, priority DESC, activity, id"),
      ("issues_by_priority_asc", "completed, priority, activity, id"),
      ("issues_by_activity_desc", "completed, activity DESC, id"),
      ("issues_by_activity_asc", "completed, activity, id"),
      ("issues_by_title_asc", "completed, title_key, activity, id"),
      ("issues_by_title_desc", "completed, title_key DESC, activity, id"),
    ]
    for (name, columns) in indexes {
      // A database whose index was dropped by hand is still brought up to date.
      try db.execute("DROP INDEX IF EXISTS \(name)")
      try db.execute("CREATE INDEX \(name) ON issues (\(columns), tag_seqs)")
    }
  }
}
