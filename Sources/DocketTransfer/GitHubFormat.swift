import DocketCore
import Foundation
import JSONText

/// GitHub issues as `gh issue list --json number,title,body,labels,state,createdAt,updatedAt,closedAt`
/// writes them (with `url` too, when asked for: it names the repository).
///
/// An issue's id is made from its repository and number (`NameUUID`), so a second import of the
/// same repository updates what the first made, and issues of two repositories never meet. The
/// body is the detail, with a last line that names where the issue came from (`GitHub:
/// owner/name#12`); the labels are tags; closed is completed.
public enum GitHubFormat {
  static func read(
    _ bytes: [UInt8], repository given: String?, progress: ((Int) -> Void)? = nil
  ) throws(ImportError) -> IncomingBatch {
    var batch = IncomingBatch(format: .github)
    try TransferReader.forEachRecord(bytes, progress: progress) { record throws(ImportError) in
      guard let numberValue = record.value("number") else {
        throw record.fail(.missingField("number"))
      }
      guard let number = numberValue.number, number == number.rounded(), number > 0,
        number < 1e12
      else { throw record.fail(.wrongType(field: "number", expected: "whole number")) }
      let url = try record.string("url")
      let repository = given ?? repository(from: url)
      let state = try record.requiredString("state")
      guard ["open", "closed"].contains(state.lowercased()) else {
        throw record.fail(.badValue(field: "state", value: state))
      }
      let labels = try record.array("labels").map {
        (label: JSON) throws(ImportError) -> IncomingTag in
        guard let name = label["name"]?.string ?? label.string else {
          throw record.fail(.wrongType(field: "labels", expected: "labels with names"))
        }
        return IncomingTag(name: name)
      }
      let key = "#\(Int(number))"
      let source = "GitHub: " + (repository ?? "") + key
      let body = try record.string("body") ?? ""
      let created = try record.requiredDate("createdAt")
      batch.issues.append(
        try record.checked(
          IncomingIssue(
            id: NameUUID.make("github:" + (repository?.lowercased() ?? "") + key),
            title: try record.requiredString("title"),
            detail: body.isEmpty ? source : body + "\n\n" + source,
            completed: state.lowercased() == "closed", created: created,
            modified: try modified(record), tags: labels),
          title: "title", detail: "body", tags: "labels"))
      batch.issues[batch.issues.count - 1].priorityUnsaid = true
      if repository == nil { batch.unnamedRepository = true }
    }
    return batch
  }

  /// When the issue last changed: `updatedAt`, else when it was closed.
  static func modified(_ record: Record) throws(ImportError) -> Date? {
    if let updated = try record.date("updatedAt") { return updated }
    return try record.date("closedAt")
  }

  /// `owner/name` from an issue's address (`https://github.com/owner/name/issues/12`).
  static func repository(from url: String?) -> String? {
    guard let url, let components = URLComponents(string: url) else { return nil }
    let parts = components.path.split(separator: "/")
    guard parts.count >= 2 else { return nil }
    return parts[0] + "/" + parts[1]
  }
}
