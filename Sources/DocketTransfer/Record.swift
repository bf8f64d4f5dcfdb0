import Database
import DocketCore
import Foundation
import JSONText

/// One record of a file (a JSON object), read field by field: a field that is missing or of the
/// wrong kind is an error that names the record and its line.
struct Record {
  let members: [(String, JSON)]
  let line: Int?
  let number: Int?
  let list: ImportError.List?

  init(_ value: JSON, line: Int?, number: Int?, list: ImportError.List? = nil) throws(ImportError) {
    guard let members = value.members else {
      throw ImportError(
        .wrongType(field: "record", expected: "object"), line: line, record: number, list: list)
    }
    self.members = members
    self.line = line
    self.number = number
    self.list = list
  }

  func value(_ key: String) -> JSON? {
    guard let found = members.last(where: { $0.0 == key })?.1, found != .null else { return nil }
    return found
  }

  func fail(_ problem: ImportError.Problem) -> ImportError {
    ImportError(problem, line: line, record: number, list: list)
  }

  func string(_ key: String) throws(ImportError) -> String? {
    guard let found = value(key) else { return nil }
    guard let text = found.string else { throw fail(.wrongType(field: key, expected: "text")) }
    return text
  }

  func requiredString(_ key: String) throws(ImportError) -> String {
    guard let text = try string(key) else { throw fail(.missingField(key)) }
    return text
  }

  func date(_ key: String) throws(ImportError) -> Date? {
    guard let text = try string(key) else { return nil }
    // A date Docket does not keep (before 1970) would be refused by every other device.
    guard let date = DateText.parse(text), date.isKept else {
      throw fail(.badValue(field: key, value: text))
    }
    return date
  }

  /// `issue` as Docket keeps it: its texts and tag names within `Limits`, the fields named as the
  /// file names them (its title is put on one line by the import, which counts them).
  func checked(_ issue: IncomingIssue, title: String, detail: String, tags: String)
    throws(ImportError) -> IncomingIssue
  {
    let issue = issue
    switch Limits.problem(title: Limits.oneLine(issue.title), detail: issue.detail) {
    case .titleTooLong(let limit)?: throw fail(.tooLong(field: title, limit: limit))
    case .detailTooLong(let limit)?: throw fail(.tooLong(field: detail, limit: limit))
    default: break
    }
    for tag in issue.tags where !Limits.fits(tag.name, Limits.tagNameCharacters) {
      throw fail(.tooLong(field: tags, limit: Limits.tagNameCharacters))
    }
    return issue
  }

  func requiredDate(_ key: String) throws(ImportError) -> Date {
    guard let date = try date(key) else { throw fail(.missingField(key)) }
    return date
  }

  func uuid(_ key: String) throws(ImportError) -> UUID {
    let text = try requiredString(key)
    guard let id = UUID(text: text) else { throw fail(.badValue(field: key, value: text)) }
    return id
  }

  func array(_ key: String) throws(ImportError) -> [JSON] {
    guard let found = value(key) else { return [] }
    guard let values = found.array else { throw fail(.wrongType(field: key, expected: "list")) }
    return values
  }

  func strings(_ key: String) throws(ImportError) -> [String] {
    try array(key).map { (element: JSON) throws(ImportError) -> String in
      guard let text = element.string else { throw fail(.wrongType(field: key, expected: "text")) }
      return text
    }
  }
}

extension Array {
  /// `map` with a typed error.
  func map<T, E: Error>(_ transform: (Element) throws(E) -> T) throws(E) -> [T] {
    var result: [T] = []
    result.reserveCapacity(count)
    for element in self { result.append(try transform(element)) }
    return result
  }
}
