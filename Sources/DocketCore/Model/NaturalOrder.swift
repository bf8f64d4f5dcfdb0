import Foundation

/// The one order of tag names, everywhere a list of them is shown (the filter pane, the `#`
/// suggestions, an issue's tags, `tag list`, exports): ignoring case and accents, and with the
/// numbers in names compared as numbers, so "Tag 6" comes before "Tag 10". Names equal in that
/// order are ordered by their text, so the order never depends on how a list was read.
public enum NaturalOrder {
  public static func precedes(_ a: String, _ b: String) -> Bool {
    let order = compare(SortKey.fold(a), SortKey.fold(b))
    return order == .orderedSame ? a < b : order == .orderedAscending
  }

  /// `items` in the order of their names, each name folded and split into scalars once (a sort
  /// compares each name a dozen times or more).
  public static func sorted<Item>(_ items: [Item], by name: (Item) -> String) -> [Item] {
    let keyed = items.map {
      (item: $0, name: name($0), folded: Array(SortKey.fold(name($0)).unicodeScalars))
    }
    return keyed.sorted { left, right in
      let order = compare(left.folded, right.folded)
      return order == .orderedSame ? left.name < right.name : order == .orderedAscending
    }.map(\.item)
  }

  /// Folded texts compared scalar by scalar, a run of digits as the number it writes (leading
  /// zeros aside; "7" and "07" are equal here and ordered by their text after).
  static func compare(_ a: String, _ b: String) -> ComparisonResult {
    compare(Array(a.unicodeScalars), Array(b.unicodeScalars))
  }

  static func compare(_ left: [Unicode.Scalar], _ right: [Unicode.Scalar]) -> ComparisonResult {
    var i = 0
    var j = 0
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }
    while i < left.count, j < right.count {
      if isDigit(left[i]), isDigit(right[j]) {
        var iEnd = i
        var jEnd = j
        while iEnd < left.count, isDigit(left[iEnd]) { iEnd += 1 }
        while jEnd < right.count, isDigit(right[jEnd]) { jEnd += 1 }
        // Leading zeros are left out; then the longer number is the larger.
        while i < iEnd - 1, left[i] == "0" { i += 1 }
        while j < jEnd - 1, right[j] == "0" { j += 1 }
        if iEnd - i != jEnd - j {
          return iEnd - i < jEnd - j ? .orderedAscending : .orderedDescending
        }
        while i < iEnd {
          if left[i] != right[j] {
            return left[i].value < right[j].value ? .orderedAscending : .orderedDescending
          }
          i += 1
          j += 1
        }
        continue
      }
      if left[i] != right[j] {
        return left[i].value < right[j].value ? .orderedAscending : .orderedDescending
      }
      i += 1
      j += 1
    }
    if i < left.count { return .orderedDescending }
    if j < right.count { return .orderedAscending }
    return .orderedSame
  }
}
