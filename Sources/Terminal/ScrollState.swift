/// The window of a list longer than its room: the first row shown. It is kept with the list's
/// state and moved as little as possible, so that the rows stay where they are while the
/// selection moves within the window (and a click lands on the row that was under the pointer).
public struct ScrollState: Equatable, Sendable {
  public var first: Int

  public init(first: Int = 0) { self.first = first }

  /// Moves the window the least that brings row `selected` into `height` rows, and keeps it
  /// within the `count` rows there are (no empty rows at the end while rows above are hidden).
  public mutating func reveal(_ selected: Int?, height: Int, count: Int) {
    guard height > 0, count > 0 else {
      first = 0
      return
    }
    if let selected, selected >= 0, selected < count {
      if selected < first { first = selected }
      if selected >= first + height { first = selected - height + 1 }
    }
    first = max(0, min(first, count - height))
  }

  /// The rows shown: `first` and those after it that fit.
  public func shown(height: Int, count: Int) -> Range<Int> {
    let start = min(max(0, first), count)
    return start..<min(count, start + max(0, height))
  }
}
