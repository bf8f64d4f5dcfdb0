import Database

/// What sync keeps in the database: the devices it has heard of, this device's clock, and every
/// change to issues, tags and links, recorded by triggers in the transaction that makes it.
///
/// A change names its row by UUID, its field, the old and new value, the issue's `modified` after
/// it, the device and a hybrid-logical-clock stamp (`hlc`: milliseconds since 1970 shifted left 16
/// bits, plus a counter in the low bits). Fields of an issue: `create` (every field at once, as a
/// JSON object), `title`, `detail`, `priority`, `completed`, `created`, `delete`; of a tag:
/// `create` (`{"name", "key"}`), `name`, `delete`; a link is kept on its issue's row with the
/// tag's id as its field, 1 when added and 0 when taken off.
///
/// While sync applies changes from other devices, `sync_clock.applying` is 1 and the triggers
/// record nothing (the applier records what it applied itself) and stamp nothing (an edit that
/// arrives through sync keeps the sender's `modified`). It is set and cleared inside one
/// transaction, so no other connection ever sees it set.
extension Schema {
  /// The fields of an issue a change can carry, in the order a create lists them.
  public static let syncedIssueFields = ["title", "detail", "priority", "completed", "created"]

  static let capturing = "(SELECT applying FROM sync_clock) = 0"
  static let tick = "UPDATE sync_clock SET hlc = docket_hlc_tick(hlc);"

  /// A create's value: every field of the issue `row` (`new` or an alias of `issues`). The time
  /// is text, exact (`docket_real_text`): SQLite writes a real in JSON with only 15 digits.
  static func issueJSON(_ row: String) -> String {
    "json_object('title', \(row).title, 'detail', \(row).detail, 'priority', \(row).priority, "
      + "'completed', \(row).completed, 'created', docket_real_text(\(row).created))"
  }

  static func v5(_ db: Connection) throws {
    let fieldChanges = syncedIssueFields.map {
      "SELECT '\($0)' AS field, old.\($0) AS old, new.\($0) AS new WHERE old.\($0) IS NOT new.\($0)"
    }.joined(separator: "\n        UNION ALL ")
    let userFields = ["title", "detail", "priority", "completed"]
    let edited = userFields.map { "old.\($0) IS NOT new.\($0)" }.joined(separator: " OR ")
    try db.executeScript(
      """
      CREATE TABLE sync_devices (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL DEFAULT ''
      );
      INSERT OR IGNORE INTO settings (key, value) VALUES ('device_id', \(randomUUIDSQL));
      INSERT INTO sync_devices (id) SELECT value FROM settings WHERE key = 'device_id';

      CREATE TABLE sync_clock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        hlc INTEGER NOT NULL,
        device INTEGER NOT NULL REFERENCES sync_devices (seq),
        applying INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO sync_clock (id, hlc, device)
        SELECT 1, 0, seq FROM sync_devices WHERE id = (SELECT value FROM settings WHERE key = 'device_id');

      CREATE TABLE changes (
        seq INTEGER PRIMARY KEY,
        hlc INTEGER NOT NULL,
        device INTEGER NOT NULL,
        entity TEXT NOT NULL,
        row_id TEXT NOT NULL,
        field TEXT NOT NULL,
        old_value,
        new_value,
        modified REAL,
        -- 1 for a value that lost a conflict: kept for the history, never applied.
        lost INTEGER NOT NULL DEFAULT 0
      );
      -- A change is known by its row, field, stamp and device: the same change twice is one.
      CREATE UNIQUE INDEX changes_by_row ON changes (row_id, field, hlc, device);
      -- Tags and links by field: the links waiting for a tag, the tags made with a name.
      CREATE INDEX changes_by_field ON changes (entity, field) WHERE entity != 'issue';
      -- A device's changes in order: this device's to push, its latest for the app to notice.
      CREATE INDEX changes_by_device ON changes (device, seq);

      -- The name key a tag was made with: tags made with the same key on two devices are one.
      ALTER TABLE tags ADD COLUMN sync_key TEXT NOT NULL DEFAULT '';
      UPDATE tags SET sync_key = name_key;
      CREATE INDEX tags_by_sync_key ON tags (sync_key);
      -- Tags merged into another: every id a tag has had, and the id it goes by now.
      CREATE TABLE sync_tag_aliases (
        id TEXT PRIMARY KEY NOT NULL,
        canonical TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX sync_tag_aliases_by_canonical ON sync_tag_aliases (canonical);

      -- What has been read from a remote: each device's change files up to `through` (read, or
      -- held by a snapshot that was read), and the packages read beyond that.
      CREATE TABLE sync_covered (
        remote TEXT NOT NULL,
        device TEXT NOT NULL,
        through INTEGER NOT NULL,
        PRIMARY KEY (remote, device)
      ) WITHOUT ROWID;
      CREATE TABLE sync_pulled (
        remote TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (remote, name)
      ) WITHOUT ROWID;

      DROP TRIGGER issues_stamp_modified;

      CREATE TRIGGER issues_capture_insert AFTER INSERT ON issues WHEN \(capturing) BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, new_value, modified)
          SELECT hlc, device, 'issue', new.id, 'create', \(issueJSON("new")), new.modified
          FROM sync_clock;
      END;

      -- The database, not the code that edits, stamps every edit with the time, unless the
      -- writer set modified itself (an import keeping the file's dates).
      CREATE TRIGGER issues_capture_update
      AFTER UPDATE OF \(syncedIssueFields.joined(separator: ", ")) ON issues WHEN \(capturing) BEGIN
        \(tick)
        UPDATE issues SET modified = docket_now()
          WHERE seq = new.seq AND new.modified IS old.modified AND (\(edited));
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value, modified)
          SELECT c.hlc, c.device, 'issue', new.id, f.field, f.old, f.new, i.modified
          FROM sync_clock c, issues i, (
            \(fieldChanges)) f
          WHERE i.seq = new.seq;
      END;

      CREATE TRIGGER issues_capture_delete AFTER DELETE ON issues WHEN \(capturing) BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value, modified)
          SELECT hlc, device, 'issue', old.id, 'delete', \(issueJSON("old")), old.modified
          FROM sync_clock;
      END;

      CREATE TRIGGER issue_tags_capture_insert AFTER INSERT ON issue_tags WHEN \(capturing) BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value, modified)
          SELECT c.hlc, c.device, 'link', i.id, t.id, 0, 1, i.modified
          FROM sync_clock c, issues i, tags t WHERE i.seq = new.issue_seq AND t.seq = new.tag_seq;
      END;

      -- A link that goes with its issue or its tag is not a change of its own: the delete is.
      CREATE TRIGGER issue_tags_capture_delete AFTER DELETE ON issue_tags WHEN \(capturing) BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value, modified)
          SELECT c.hlc, c.device, 'link', i.id, t.id, 1, 0, i.modified
          FROM sync_clock c, issues i, tags t WHERE i.seq = old.issue_seq AND t.seq = old.tag_seq;
      END;

      CREATE TRIGGER tags_capture_insert AFTER INSERT ON tags WHEN \(capturing) BEGIN
        \(tick)
        UPDATE tags SET sync_key = CASE
          WHEN EXISTS (SELECT 1 FROM tags WHERE sync_key = docket_tag_key(new.name) AND seq != new.seq)
          THEN docket_tag_key(new.name) || ' ' || new.id ELSE docket_tag_key(new.name) END
          WHERE seq = new.seq;
        INSERT INTO changes (hlc, device, entity, row_id, field, new_value)
          SELECT c.hlc, c.device, 'tag', new.id, 'create', json_object('name', t.name, 'key', t.sync_key)
          FROM sync_clock c, tags t WHERE t.seq = new.seq;
      END;

      CREATE TRIGGER tags_capture_rename AFTER UPDATE OF name ON tags
      WHEN \(capturing) AND old.name IS NOT new.name BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value)
          SELECT hlc, device, 'tag', new.id, 'name', old.name, new.name FROM sync_clock;
      END;

      -- A tag that is several merged says so for each of its ids.
      CREATE TRIGGER tags_capture_delete AFTER DELETE ON tags WHEN \(capturing) BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value)
          SELECT c.hlc, c.device, 'tag', m.id, 'delete', old.name
          FROM sync_clock c, (
            SELECT old.id AS id UNION SELECT id FROM sync_tag_aliases WHERE canonical = old.id) m;
      END;
      """)
    try db.recordCreations(issuesFrom: 1, tags: true)
  }

  /// A random (version 4) UUID in lower case, made by SQLite.
  static let randomUUIDSQL = """
    lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
      || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-'
      || hex(randomblob(6)))
    """
}
