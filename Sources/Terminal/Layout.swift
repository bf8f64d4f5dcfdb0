/// How much of a row or column a part of a layout takes.
public enum LayoutSize: Equatable, Sendable {
  /// Exactly this many cells (less if there is not room).
  case fixed(Int)
  /// A share of what is left after the fixed parts, in proportion to the weights.
  case weight(Int)
  /// A share like `weight(1)`, but never fewer than this many cells while there is room.
  case atLeast(Int)
}

/// Layout as a pure function: a rectangle and a list of sizes in, rectangles out.
public enum Layout {
  public enum Axis: Sendable {
    /// Side by side, left to right.
    case horizontal
    /// One above the other, top to bottom.
    case vertical
  }

  /// Splits `rect` along `axis`; the parts touch and together cover `rect` (when the sizes use
  /// all of it), the rounding remainder going to the last weighted part.
  public static func split(_ rect: Rect, _ axis: Axis, _ sizes: [LayoutSize]) -> [Rect] {
    let total = axis == .horizontal ? rect.width : rect.height
    var lengths = Array(repeating: 0, count: sizes.count)
    var remaining = total
    for (index, size) in sizes.enumerated() {
      switch size {
      case .fixed(let length):
        lengths[index] = min(max(0, length), remaining)
        remaining -= lengths[index]
      case .atLeast(let minimum):
        lengths[index] = min(max(0, minimum), remaining)
        remaining -= lengths[index]
      case .weight:
        break
      }
    }
    let weights = sizes.map { size -> Int in
      switch size {
      case .weight(let weight): return max(0, weight)
      case .atLeast: return 1
      case .fixed: return 0
      }
    }
    let totalWeight = weights.reduce(0, +)
    if totalWeight > 0, remaining > 0 {
      var handedOut = 0
      let lastWeighted = weights.lastIndex { $0 > 0 }!
      for index in sizes.indices where weights[index] > 0 {
        let share =
          index == lastWeighted ? remaining - handedOut : remaining * weights[index] / totalWeight
        lengths[index] += share
        handedOut += share
      }
    }
    var offset = axis == .horizontal ? rect.x : rect.y
    return lengths.map { length in
      defer { offset += length }
      return axis == .horizontal
        ? Rect(x: offset, y: rect.y, width: length, height: rect.height)
        : Rect(x: rect.x, y: offset, width: rect.width, height: length)
    }
  }
}
