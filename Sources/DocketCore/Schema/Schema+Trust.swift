import Database

/// What sync keeps so that nothing that arrives can break it (`DocketSync`):
///
/// - `changes.held`: 0 for a change that counts, 1 for one held back (stamped further ahead of
///   this device's clock than `HybridClock.maxDrift` allows: applied once the time comes), 2 for
///   one void (made by a device that was retired for a clock that ran ahead, `retire`). Held and
///   void changes are in the history and never in the data.
/// - `sync_tag_names`: each tag id that lives, with its current name. Tags are one tag when their
///   names are (ignoring case): a rename takes an id out of one tag and into another. The tag row
///   of a name goes by the smallest id among those that bear it.
/// - `sync_warned`: the files that were warned about, as they were then, so that a file that
///   stays as it was is warned about once.
/// - `sync_own_files`: the packages this device wrote and their sizes, so that one it did not
///   write under its id (a copy of its database writing there) is seen.
extension Schema {
  static func v8(_ db: Connection) throws {
    try db.executeScript(
      """
      ALTER TABLE changes ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX changes_held ON changes (hlc) WHERE held != 0;

      CREATE TABLE sync_tag_names (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        hlc INTEGER NOT NULL,
        device TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX sync_tag_names_by_key ON sync_tag_names (name_key);
      INSERT INTO sync_tag_names (id, name, name_key, hlc, device)
        SELECT row_id, name, docket_tag_key(name), hlc, device_id FROM (
          SELECT c.row_id, CASE c.field WHEN 'create' THEN json_extract(c.new_value, '$.name')
              ELSE c.new_value END AS name, c.hlc, d.id AS device_id,
            row_number() OVER (PARTITION BY c.row_id ORDER BY c.hlc DESC, d.id DESC) AS rank
          FROM changes c JOIN sync_devices d ON d.seq = c.device
          WHERE c.entity = 'tag' AND c.field IN ('create', 'name')
            AND EXISTS (
              SELECT 1 FROM changes made WHERE made.row_id = c.row_id AND made.field = 'create')
            AND NOT EXISTS (
              SELECT 1 FROM changes gone WHERE gone.row_id = c.row_id AND gone.field = 'delete'))
        WHERE rank = 1 AND typeof(name) = 'text';

      -- Tags merged by the name they were made with, before names decided: an id of a tag that
      -- bears another name than its tag (renamed through its first id only) is renamed too, now.
      \(tick)
      INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value)
        SELECT c.hlc, c.device, 'tag', n.id, 'name', n.name, t.name
        FROM sync_tag_aliases a JOIN tags t ON t.id = a.canonical
          JOIN sync_tag_names n ON n.id = a.id, sync_clock c
        WHERE n.name IS NOT t.name;
      UPDATE sync_tag_names SET
        name = (SELECT t.name FROM sync_tag_aliases a JOIN tags t ON t.id = a.canonical
          WHERE a.id = sync_tag_names.id),
        name_key = (SELECT t.name_key FROM sync_tag_aliases a JOIN tags t ON t.id = a.canonical
          WHERE a.id = sync_tag_names.id),
        hlc = (SELECT hlc FROM sync_clock),
        device = (SELECT d.id FROM sync_clock c JOIN sync_devices d ON d.seq = c.device)
        WHERE EXISTS (
          SELECT 1 FROM sync_tag_aliases a JOIN tags t ON t.id = a.canonical
          WHERE a.id = sync_tag_names.id AND t.name IS NOT sync_tag_names.name);
      DROP TRIGGER tags_capture_insert;
      DROP TRIGGER tags_capture_rename;
      DROP TRIGGER tags_capture_delete;
      DROP TABLE sync_tag_aliases;
      DROP INDEX tags_by_sync_key;
      ALTER TABLE tags DROP COLUMN sync_key;

      CREATE TRIGGER tags_capture_insert AFTER INSERT ON tags WHEN \(capturing) BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, new_value)
          SELECT hlc, device, 'tag', new.id, 'create',
            json_object('name', new.name, 'key', docket_tag_key(new.name))
          FROM sync_clock;
        INSERT OR REPLACE INTO sync_tag_names (id, name, name_key, hlc, device)
          SELECT new.id, new.name, docket_tag_key(new.name), c.hlc, d.id
          FROM sync_clock c JOIN sync_devices d ON d.seq = c.device;
      END;

      -- A tag that is several ids (made with one name on several devices) is renamed through
      -- each of them, so that they stay one.
      CREATE TRIGGER tags_capture_rename AFTER UPDATE OF name ON tags
      WHEN \(capturing) AND old.name IS NOT new.name BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value)
          SELECT c.hlc, c.device, 'tag', m.id, 'name', old.name, new.name
          FROM sync_clock c, (
            SELECT old.id AS id UNION
            SELECT id FROM sync_tag_names WHERE name_key = docket_tag_key(old.name)) m;
        UPDATE sync_tag_names SET name = new.name, name_key = docket_tag_key(new.name),
          hlc = (SELECT hlc FROM sync_clock),
          device = (SELECT d.id FROM sync_clock c JOIN sync_devices d ON d.seq = c.device)
          WHERE id = old.id OR name_key = docket_tag_key(old.name);
      END;

      CREATE TRIGGER tags_capture_delete AFTER DELETE ON tags WHEN \(capturing) BEGIN
        \(tick)
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value)
          SELECT c.hlc, c.device, 'tag', m.id, 'delete', old.name
          FROM sync_clock c, (
            SELECT old.id AS id UNION
            SELECT id FROM sync_tag_names WHERE name_key = docket_tag_key(old.name)) m;
        DELETE FROM sync_tag_names WHERE id = old.id OR name_key = docket_tag_key(old.name);
      END;

      CREATE TABLE sync_warned (
        remote TEXT NOT NULL,
        path TEXT NOT NULL,
        identity TEXT NOT NULL,
        PRIMARY KEY (remote, path)
      ) WITHOUT ROWID;

      -- `after`: the row of this device's changes the package's own come after.
      CREATE TABLE sync_own_files (
        remote TEXT NOT NULL,
        kind TEXT NOT NULL,
        number INTEGER NOT NULL,
        size INTEGER NOT NULL,
        after INTEGER NOT NULL,
        PRIMARY KEY (remote, kind, number)
      ) WITHOUT ROWID;
      """)
    // A title is one line on every device now: one an older version stored with line breaks
    // is given spaces instead, as an edit of this device's, which the others take.
    try db.execute(
      """
      UPDATE issues SET title = docket_one_line(title)
      WHERE title GLOB ('*[' || char(10, 11, 12, 13, 133, 8232, 8233) || ']*')
      """)
  }
}
