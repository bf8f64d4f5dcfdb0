import Database
import Foundation

/// The SQL that Docket runs for its commonest reads, written out whole, so that a benchmark can
/// hand the same work to another program (the `sqlite3` shell) and compare.
extension Connection {
  /// The statements a first page of `request` runs: the tag names, then the page.
  public func firstPageSQL(_ request: IssueRequest, limit: Int) throws -> String {
    let clause = try IssueRequestSQL(request, db: self, forPage: true)
    let page = """
      SELECT \(Self.issueColumns(detail: false)) FROM issues i
      WHERE \(clause.condition) ORDER BY \(clause.orderBy(request.sort)) LIMIT \(limit)
      """
    return "SELECT seq, id, name FROM tags ORDER BY name_key, id;\n"
      + Self.writingArguments(page, clause.arguments) + ";"
  }

  /// The statements `show` runs for the issue `id`: the tag names, then the issue.
  public func issueSQL(id: UUID) -> String {
    "SELECT seq, id, name FROM tags ORDER BY name_key, id;\n"
      + "SELECT \(Self.issueColumns(detail: true)) FROM issues i WHERE i.id = '\(id.uuidString.lowercased())';"
  }

  private static func writingArguments(_ sql: String, _ arguments: [any DatabaseValueConvertible])
    -> String
  {
    var parts = sql.split(separator: "?", omittingEmptySubsequences: false).map(String.init)
    var text = parts.removeFirst()
    for (part, argument) in zip(parts, arguments) {
      switch argument.databaseValue {
      case .integer(let number): text += String(number)
      case .real(let number): text += String(number)
      case .text(let string): text += "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
      case .null, .blob: text += "NULL"
      }
      text += part
    }
    return text
  }
}
