import Database
import Foundation

/// How wide a list's columns of text are: measured by the caller's rules, as the list is read.
public struct ListWidths: Equatable, Sendable {
  public var references = 0
  public var titles = 0
  public var tags = 0
  /// The widest date, when dates are measured (their column's width matters only on a terminal).
  public var dates = 0
  public var rows = 0
  /// The priorities and completion states the list holds.
  public var priorities: Set<Priority> = []
  public var completion: Set<Bool> = []

  public init() {}

  init(
    references: Int, titles: Int, tags: Int, dates: Int, rows: Int, priorities: Set<Priority>,
    completion: Set<Bool>
  ) {
    (self.references, self.titles, self.tags, self.dates) = (references, titles, tags, dates)
    (self.rows, self.priorities, self.completion) = (rows, priorities, completion)
  }
}

extension ListWidths {
  /// Counts a row whose cells measured these widths.
  public mutating func add(
    reference: Int, priority: Priority, completed: Bool, title: Int, tags: Int, date: Int
  ) {
    rows += 1
    references = max(references, reference)
    priorities.insert(priority)
    completion.insert(completed)
    titles = max(titles, title)
    self.tags = max(self.tags, tags)
    dates = max(dates, date)
  }

  /// The widths of a list measured in two parts (or twice: widths are maxima). Rows are those of
  /// the part that counted more.
  public func including(_ other: ListWidths) -> ListWidths {
    ListWidths(
      references: max(references, other.references), titles: max(titles, other.titles),
      tags: max(tags, other.tags), dates: max(dates, other.dates), rows: max(rows, other.rows),
      priorities: priorities.union(other.priorities),
      completion: completion.union(other.completion))
  }
}

/// Measures the rows of a list before any is written, so a table written as it is read knows
/// its column widths. Display rules live with the display: titles and tag lists are measured by
/// the caller's functions. A title of printable ASCII is as wide as it is long and is not
/// decoded; each distinct set of tags is measured once.
public final class ListMeasurer {
  public private(set) var widths = ListWidths()
  private let title: (String) -> Int
  private let tags: ([Tag]) -> Int
  private let date: ((Date) -> Int)?
  private var tagWidths: [String: Int] = [:]

  /// `date`, when given, measures each issue's last activity.
  public init(
    title: @escaping (String) -> Int, tags: @escaping ([Tag]) -> Int,
    date: ((Date) -> Int)? = nil
  ) {
    self.title = title
    self.tags = tags
    self.date = date
  }

  func add(
    referenceLength: Int, title titleBytes: UnsafeBufferPointer<UInt8>,
    tagList: UnsafeBufferPointer<UInt8>, priority: Int, completed: Bool, activity: Double,
    catalogue: [Int64: (tag: Tag, rank: Int)]
  ) {
    widths.rows += 1
    widths.priorities.insert(Priority(rawValue: priority) ?? .low)
    widths.completion.insert(completed)
    if let date { widths.dates = max(widths.dates, date(Date(timeIntervalSince1970: activity))) }
    widths.references = max(widths.references, referenceLength)
    let titleWidth =
      !titleBytes.isEmpty && titleBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
      ? titleBytes.count : title(String(decoding: titleBytes, as: UTF8.self))
    widths.titles = max(widths.titles, titleWidth)
    guard !tagList.isEmpty else { return }
    let list = String(decoding: tagList, as: UTF8.self)
    if let known = tagWidths[list] {
      widths.tags = max(widths.tags, known)
    } else {
      let width = tags(Connection.tags(inList: tagList, catalogue: catalogue))
      tagWidths[list] = width
      widths.tags = max(widths.tags, width)
    }
  }
}
