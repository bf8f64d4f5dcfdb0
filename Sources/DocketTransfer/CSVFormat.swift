import Database
import DocketCore
import Foundation

/// Issues for a spreadsheet: RFC 4180 (a header row, fields in double quotes where they need
/// them, lines ended by CR LF), UTF-8 with a byte order mark (so that spreadsheets read it as
/// UTF-8), dates in UTC. A cell that a spreadsheet would take for a formula (it starts with `=`,
/// `+`, `-`, `@`, a tab or a carriage return) is made inert by a leading apostrophe.
public enum CSVFormat {
  static let header = [
    "id", "title", "detail", "priority", "completed", "created", "modified", "tags",
  ]

  public static func write(_ issues: IssueSource, to output: inout OutputBytes) throws {
    output.append("\u{FEFF}")
    row(header, to: &output)
    try issues { issue in
      row(
        [
          issue.id.lowercasedText, issue.title, issue.detail, issue.priority.name,
          issue.completed ? "yes" : "no", DateText.spreadsheet(issue.created),
          issue.modified.map(DateText.spreadsheet) ?? "",
          issue.tags.map(\.name).joined(separator: ", "),
        ], to: &output)
      output.flushIfFull()
    }
  }

  static func row(_ cells: [String], to output: inout OutputBytes) {
    for (index, cell) in cells.enumerated() {
      if index > 0 { output.append(byte: UInt8(ascii: ",")) }
      output.append(field(cell))
    }
    output.append("\r\n")
  }

  /// One cell, inert and quoted where it needs to be.
  static func field(_ text: String) -> String {
    let bytes = text.utf8
    let inert =
      bytes.first.map { [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains($0) } == true
      ? "'" + text : text
    guard inert.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D })
    else { return inert }
    var quoted: [UInt8] = [0x22]
    quoted.reserveCapacity(inert.utf8.count + 8)
    for byte in inert.utf8 {
      quoted.append(byte)
      if byte == 0x22 { quoted.append(0x22) }
    }
    quoted.append(0x22)
    return String(decoding: quoted, as: UTF8.self)
  }
}
