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
      CREATE INDEX changes_held ON changes (hlc) WHERE held = 1;

      -- What an older version stored beyond the limits every device now holds to (a title of two
      -- lines, a date before 1970), brought within them in place, in the history and in the
      -- rows, the same way on every device: no change of its is refused by another.
      UPDATE changes SET new_value = json_set(new_value,
          '$.title', docket_within_limits('title', json_extract(new_value, '$.title')),
          '$.detail', docket_within_limits('detail', json_extract(new_value, '$.detail')),
          '$.created', docket_within_limits('created text', json_extract(new_value, '$.created')))
        WHERE entity = 'issue' AND field IN ('create', 'restore') AND json_valid(new_value)
          AND (json_extract(new_value, '$.title')
                IS NOT docket_within_limits('title', json_extract(new_value, '$.title'))
            OR json_extract(new_value, '$.detail')
                IS NOT docket_within_limits('detail', json_extract(new_value, '$.detail'))
            OR json_extract(new_value, '$.created')
                IS NOT docket_within_limits('created text', json_extract(new_value, '$.created')));
      UPDATE changes SET new_value = docket_within_limits(field, new_value)
        WHERE entity = 'issue' AND field IN ('title', 'detail', 'created')
          AND new_value IS NOT docket_within_limits(field, new_value);
      UPDATE changes SET new_value = json_set(new_value,
          '$.name', docket_within_limits('tag', json_extract(new_value, '$.name')))
        WHERE entity = 'tag' AND field = 'create' AND json_valid(new_value)
          AND json_extract(new_value, '$.name')
            IS NOT docket_within_limits('tag', json_extract(new_value, '$.name'));
      UPDATE changes SET new_value = docket_within_limits('tag', new_value)
        WHERE entity = 'tag' AND field = 'name'
          AND new_value IS NOT docket_within_limits('tag', new_value);
      UPDATE changes SET modified = NULL
        WHERE modified IS NOT NULL AND NOT (modified BETWEEN 0 AND \(Limits.latestDate));
      UPDATE sync_clock SET applying = 1;
      UPDATE issues SET title = docket_within_limits('title', title),
          detail = docket_within_limits('detail', detail),
          created = docket_within_limits('created', created),
          modified = CASE WHEN modified BETWEEN 0 AND \(Limits.latestDate) THEN modified END
        WHERE title IS NOT docket_within_limits('title', title)
          OR detail IS NOT docket_within_limits('detail', detail)
          OR created IS NOT docket_within_limits('created', created)
          OR (modified IS NOT NULL AND NOT (modified BETWEEN 0 AND \(Limits.latestDate)));
      UPDATE tags SET name = docket_within_limits('tag', name)
        WHERE name IS NOT docket_within_limits('tag', name);
      UPDATE sync_clock SET applying = 0;

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
          SELECT c.row_id, CASE c.field
              WHEN 'create' THEN CASE WHEN json_valid(c.new_value)
                THEN json_extract(c.new_value, '$.name') END
              ELSE c.new_value END AS name, c.hlc, d.id AS device_id,
            row_number() OVER (PARTITION BY c.row_id ORDER BY c.hlc DESC, d.id DESC) AS rank
          FROM changes c JOIN sync_devices d ON d.seq = c.device
          WHERE c.entity = 'tag' AND c.field IN ('create', 'name')
            AND EXISTS (
              SELECT 1 FROM changes made WHERE made.row_id = c.row_id AND made.field = 'create')
            AND NOT EXISTS (
              SELECT 1 FROM changes gone WHERE gone.row_id = c.row_id AND gone.field = 'delete'))
        WHERE rank = 1 AND typeof(name) = 'text';

      -- Tags merged by the name they were made with, before names decided: an id of a tag (its
      -- own, or one merged into it) that bears another name than its tag (a rename arrived
      -- through one id only) is renamed too, now.
      CREATE TEMPORARY TABLE members AS
        SELECT id, canonical FROM sync_tag_aliases UNION SELECT id, id FROM tags;
      \(tick)
      INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value)
        SELECT c.hlc, c.device, 'tag', n.id, 'name', n.name, t.name
        FROM members m JOIN tags t ON t.id = m.canonical
          JOIN sync_tag_names n ON n.id = m.id, sync_clock c
        WHERE n.name IS NOT t.name;
      UPDATE sync_tag_names SET
        name = (SELECT t.name FROM members m JOIN tags t ON t.id = m.canonical
          WHERE m.id = sync_tag_names.id),
        name_key = (SELECT t.name_key FROM members m JOIN tags t ON t.id = m.canonical
          WHERE m.id = sync_tag_names.id),
        hlc = (SELECT hlc FROM sync_clock),
        device = (SELECT d.id FROM sync_clock c JOIN sync_devices d ON d.seq = c.device)
        WHERE EXISTS (
          SELECT 1 FROM members m JOIN tags t ON t.id = m.canonical
          WHERE m.id = sync_tag_names.id AND t.name IS NOT sync_tag_names.name);
      DROP TABLE members;
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
  }
}
