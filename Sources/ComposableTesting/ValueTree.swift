import Foundation

/// Writes values out as indented trees and compares two of them, for failure messages a person
/// can read: only what differs is shown, as `−` expected and `+` actual lines.
enum ValueTree {
  /// The value as lines of text, one field per line, nested values indented.
  static func lines(_ value: Any, label: String? = nil, indent: Int = 0) -> [String] {
    let pad = String(repeating: "  ", count: indent)
    let prefix = pad + (label.map { "\($0): " } ?? "")
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first else { return [prefix + "nil"] }
      return lines(wrapped.value, label: label, indent: indent)
    }
    if value is Date || value is URL {
      return [prefix + String(describing: value)]
    }
    switch mirror.displayStyle {
    case .struct?, .class?:
      // A value type that shows no fields (UUID, for one) reads best as its description.
      if mirror.children.isEmpty { return [prefix + leaf(value)] }
      return [prefix + typeName(value) + "("]
        + mirror.children.flatMap { lines($0.value, label: $0.label, indent: indent + 1) }
        + [pad + ")"]
    case .enum?:
      guard let payload = mirror.children.first else {
        return [prefix + "." + String(describing: value)]
      }
      let name = payload.label ?? String(describing: value)
      let inner = lines(payload.value, indent: indent + 1)
      if inner.count == 1 {
        return [prefix + ".\(name)(" + inner[0].trimmingLeadingSpaces() + ")"]
      }
      return [prefix + ".\(name)("] + inner + [pad + ")"]
    case .optional?:
      guard let wrapped = mirror.children.first else { return [prefix + "nil"] }
      return lines(wrapped.value, label: label, indent: indent)
    case .collection?, .set?:
      if mirror.children.isEmpty { return [prefix + "[]"] }
      var elements = mirror.children.map { lines($0.value, indent: indent + 1) }
      if mirror.displayStyle == .set { elements.sort { $0.joined() < $1.joined() } }
      return [prefix + "["] + elements.flatMap { $0 } + [pad + "]"]
    case .dictionary?:
      if mirror.children.isEmpty { return [prefix + "[:]"] }
      let pairs = mirror.children.map { pair -> (String, Any) in
        let parts = Array(Mirror(reflecting: pair.value).children)
        return (leaf(parts[0].value), parts[1].value)
      }.sorted { $0.0 < $1.0 }
      return [prefix + "["] + pairs.flatMap { lines($0.1, label: $0.0, indent: indent + 1) } + [
        pad + "]"
      ]
    case .tuple?:
      return [prefix + "("]
        + mirror.children.flatMap {
          lines(
            $0.value, label: $0.label.flatMap { $0.hasPrefix(".") ? nil : $0 }, indent: indent + 1)
        }
        + [pad + ")"]
    default:
      return [prefix + leaf(value)]
    }
  }

  static func leaf(_ value: Any) -> String {
    if let string = value as? String { return string.debugDescription }
    return String(describing: value)
  }

  static func typeName(_ value: Any) -> String {
    let full = String(reflecting: type(of: value))
    // Drop the module name: `CounterTests.Counter.State` reads as `Counter.State`.
    guard let dot = full.firstIndex(of: "."), !full.contains("<") else { return full }
    return String(full[full.index(after: dot)...])
  }

  /// The differences between two values as marked lines, or nil when they print the same.
  static func diff(_ expected: Any, _ actual: Any) -> String? {
    guard let lines = diffLines(expected, actual, label: nil, indent: 1) else { return nil }
    return lines.joined(separator: "\n")
  }

  private static func diffLines(_ expected: Any, _ actual: Any, label: String?, indent: Int)
    -> [String]?
  {
    let expectedLines = lines(expected, label: label, indent: indent)
    let actualLines = lines(actual, label: label, indent: indent)
    if expectedLines == actualLines { return nil }
    let pad = String(repeating: "  ", count: indent)
    let prefix = pad + (label.map { "\($0): " } ?? "")
    let left = Mirror(reflecting: expected)
    let right = Mirror(reflecting: actual)
    let sameType = type(of: expected) == type(of: actual)

    if sameType, left.displayStyle == .struct || left.displayStyle == .class,
      left.children.map(\.label) == right.children.map(\.label)
    {
      var result = [prefix + typeName(expected) + "("]
      var unchanged = 0
      for (leftChild, rightChild) in zip(left.children, right.children) {
        if let changed = diffLines(
          leftChild.value, rightChild.value, label: leftChild.label, indent: indent + 1)
        {
          result += changed
        } else {
          unchanged += 1
        }
      }
      if unchanged > 0 { result.append(pad + "  … \(unchanged) unchanged") }
      return result + [pad + ")"]
    }
    if sameType, left.displayStyle == .enum, let leftPayload = left.children.first,
      let rightPayload = right.children.first, leftPayload.label == rightPayload.label,
      let inner = diffLines(leftPayload.value, rightPayload.value, label: nil, indent: indent + 1)
    {
      return [prefix + ".\(leftPayload.label ?? "")("] + inner + [pad + ")"]
    }
    if sameType, left.displayStyle == .optional, let leftWrapped = left.children.first,
      let rightWrapped = right.children.first
    {
      return diffLines(leftWrapped.value, rightWrapped.value, label: label, indent: indent)
    }
    if sameType, left.displayStyle == .collection, left.children.count == right.children.count {
      var result = [prefix + "["]
      for (index, pair) in zip(left.children, right.children).enumerated() {
        if let changed = diffLines(
          pair.0.value, pair.1.value, label: "[\(index)]", indent: indent + 1)
        {
          result += changed
        }
      }
      return result + [pad + "]"]
    }
    // Different shapes or a leaf: both in full.
    return expectedLines.map { "−" + $0.dropFirst() } + actualLines.map { "+" + $0.dropFirst() }
  }
}

extension String {
  fileprivate func trimmingLeadingSpaces() -> String {
    String(drop { $0 == " " })
  }
}
