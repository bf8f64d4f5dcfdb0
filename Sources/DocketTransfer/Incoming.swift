import DocketCore
import Foundation
import JSONText

/// The formats Docket reads and writes.
public enum TransferFormat: String, Sendable, CaseIterable {
  /// Docket's own: every issue, tag and link, ids and dates exact (`docket export`).
  case docket
  /// `task export` (a JSON array, or one object a line) and what `task import` reads.
  case taskwarrior
  /// `gh issue list --json number,title,body,labels,state,createdAt,updatedAt,closedAt`.
  case github
  /// A spreadsheet: one row per issue (written only).
  case csv
}

/// A tag as a file names it: by name, and by id where the file keeps ids (Docket's own format).
public struct IncomingTag: Hashable, Sendable {
  public var id: UUID?
  public var name: String

  public init(id: UUID? = nil, name: String) {
    self.id = id
    self.name = name
  }
}

/// An issue read from a file, before it is written. Its id decides whether it is new or an update:
/// Docket's own id, a task's uuid, or an id made from a GitHub repository and issue number.
public struct IncomingIssue: Equatable, Sendable {
  public var id: UUID
  public var title: String
  public var detail = ""
  public var priority = Priority.low
  public var completed = false
  public var created: Date
  public var modified: Date?
  public var tags: [IncomingTag] = []
  /// The file says nothing of priority (GitHub): a new issue is low, a known one keeps its own.
  public var priorityUnsaid = false
}

/// Why a record of a file was left out on purpose.
public enum SkipReason: String, Sendable, CaseIterable, Comparable {
  /// A task deleted in Taskwarrior.
  case deletedTask
  /// A recurring task's template (its instances are tasks of their own, and are imported).
  case recurringTemplate

  public static func < (lhs: SkipReason, rhs: SkipReason) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// What a file holds: its issues in file order, the tags it names that no issue carries (Docket's
/// format keeps those too), and what was left out on purpose.
public struct IncomingBatch: Equatable, Sendable {
  public var format: TransferFormat
  public var issues: [IncomingIssue] = []
  public var extraTags: [IncomingTag] = []
  public var skipped: [SkipReason: Int] = [:]
  /// GitHub issues whose repository the file does not name (no `url`, no `--repo`): matched by
  /// number alone, so that two repositories would meet. Said as a warning.
  public var unnamedRepository = false

  public init(format: TransferFormat) { self.format = format }

  /// This batch, leaving this one without its issues: the taker holds them alone and can let
  /// them go.
  public mutating func take() -> IncomingBatch {
    let taken = self
    issues = []
    return taken
  }
}

/// Why a file cannot be imported: it names the first bad record, so that it can be found and
/// mended. Nothing is imported from a file with one.
public struct ImportError: Error, Equatable, Sendable {
  public enum Problem: Equatable, Sendable {
    /// Not JSON where JSON was expected.
    case syntax(JSONSyntaxError.Problem)
    /// The file's shape is none Docket reads.
    case unknownFormat
    /// A record lacks a field it needs, or has one of the wrong kind.
    case missingField(String)
    case wrongType(field: String, expected: String)
    /// A field holds a value Docket cannot take (a date that is no date, an unknown priority).
    case badValue(field: String, value: String)
    /// A text longer than Docket keeps (`Limits`): so many characters at most.
    case tooLong(field: String, limit: Int)
    /// A Docket file written by a newer Docket.
    case newerVersion(Int)
    /// An issue that names a tag the file does not have.
    case unknownTag(String)
  }

  /// The list a record is in, where a file has more than one (Docket's tags and issues).
  public enum List: String, Equatable, Sendable {
    case tags, issues
  }

  public var problem: Problem
  /// Where: the line of the file, and the record's number (from 1) where records are counted.
  public var line: Int?
  public var record: Int?
  public var list: List?

  public init(_ problem: Problem, line: Int? = nil, record: Int? = nil, list: List? = nil) {
    self.problem = problem
    self.line = line
    self.record = record
    self.list = list
  }

  init(_ syntax: JSONSyntaxError, record: Int? = nil) {
    self.init(.syntax(syntax.problem), line: syntax.position.line, record: record)
  }
}
