import Database

/// What the "Recently deleted" lists read: each issue's deletes, newest first, straight from an
/// index that holds nothing else (a few rows among millions of changes).
extension Schema {
  static func v9(_ db: Connection) throws {
    try db.execute(
      """
      CREATE INDEX changes_issue_deletes ON changes (hlc)
        WHERE entity = 'issue' AND field = 'delete' AND held = 0
      """)
  }
}
