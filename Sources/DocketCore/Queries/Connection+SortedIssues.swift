import Database
import Foundation

extension Connection {
  /// Reads the issues of `request` in storage order, sorts them with `ExternalSorter` by keys
  /// that order exactly as `IssueSort.orderBy` does, and delivers them in that order.
  func streamSorted(
    _ request: IssueRequest, detail: Bool, catalogue: [Int64: (tag: Tag, rank: Int)],
    measuring: ListMeasurer?, chunkBytes: Int, _ deliver: (Issue, Int64) throws -> Void
  ) throws {
    let states = request.completionStates.map(String.init).joined(separator: ", ")
    let sql = """
      SELECT i.id, i.title, \(detail ? "i.detail" : "''"), i.priority, i.completed, i.created,
        i.modified, i.tag_seqs, i.title_key, i.activity, i.seq
      FROM issues i NOT INDEXED WHERE i.completed IN (\(states))
      """
    let sorter = ExternalSorter(chunkBytes: chunkBytes)
    var key: [UInt8] = []
    var payload: [UInt8] = []
    let sort = request.sort
    try forEachRow(sql) { row in
      key.removeAll(keepingCapacity: true)
      payload.removeAll(keepingCapacity: true)
      let completed = try row.get(4, as: Int.self)
      let priority = try row.get(3, as: Int.self)
      let activity = row.double(at: 9) ?? 0
      key.append(UInt8(truncatingIfNeeded: completed))
      switch sort.field {
      case .priority:
        let byte = UInt8(truncatingIfNeeded: priority)
        key.append(sort.ascending ? byte : ~byte)
        SortKeyBytes.append(activity, descending: false, to: &key)
      case .date:
        SortKeyBytes.append(activity, descending: !sort.ascending, to: &key)
      case .title:
        row.withTextBytes(8) {
          SortKeyBytes.append(text: $0, descending: !sort.ascending, to: &key)
        }
        SortKeyBytes.append(activity, descending: false, to: &key)
      }
      row.withTextBytes(0) { key.append(contentsOf: $0) }

      let id = try row.get(0, as: UUID.self)
      let seq = try row.get(10, as: Int64.self)
      SortKeyBytes.append(bits: UInt64(bitPattern: seq), to: &payload)
      withUnsafeBytes(of: id.uuid) { payload.append(contentsOf: $0) }
      payload.append(UInt8(truncatingIfNeeded: priority))
      payload.append(UInt8(truncatingIfNeeded: completed))
      SortKeyBytes.append(row.double(at: 5) ?? 0, to: &payload)
      if let modified = row.double(at: 6) {
        payload.append(1)
        SortKeyBytes.append(modified, to: &payload)
      } else {
        payload.append(0)
      }
      for column in [1, 2, 7] {
        row.withTextBytes(column) { bytes in
          ExternalSorter.append(UInt32(bytes.count), to: &payload)
          payload.append(contentsOf: bytes)
        }
      }
      if let measuring {
        row.withTextBytes(1) { title in
          row.withTextBytes(7) { list in
            measuring.add(
              row: seq, title: title, tagList: list, priority: priority, completed: completed != 0,
              activity: activity, catalogue: catalogue)
          }
        }
      }
      try sorter.add(key: key, payload: payload)
    }
    try sorter.finish { _, payload in
      var reader = PayloadReader(bytes: payload)
      let seq = Int64(bitPattern: reader.bits())
      var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &uuid) { reader.copy(into: $0) }
      let priority = Priority(rawValue: Int(reader.byte())) ?? .low
      let completed = reader.byte() != 0
      let created = Date(timeIntervalSince1970: reader.double())
      let modified = reader.byte() != 0 ? Date(timeIntervalSince1970: reader.double()) : nil
      let title = reader.text()
      let detail = reader.text()
      let tags = reader.withText { Self.tags(inList: $0, catalogue: catalogue) }
      try deliver(
        Issue(
          id: UUID(uuid: uuid), title: title, detail: detail, priority: priority,
          completed: completed, created: created, modified: modified, tags: tags), seq)
    }
  }
}

/// Sort keys as bytes that compare, byte by byte, as SQLite orders the values.
enum SortKeyBytes {
  /// A REAL: its bits, turned so that byte order is number order; inverted for a descending key.
  static func append(_ value: Double, descending: Bool, to key: inout [UInt8]) {
    let bits = value.bitPattern
    let ordered = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    append(bits: descending ? ~ordered : ordered, to: &key)
  }

  /// A double as it is stored in a payload (its plain bits).
  static func append(_ value: Double, to bytes: inout [UInt8]) {
    append(bits: value.bitPattern, to: &bytes)
  }

  static func append(bits: UInt64, to key: inout [UInt8]) {
    for shift in stride(from: 56, through: 0, by: -8) {
      key.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
  }

  /// TEXT in binary order: each zero byte written as 00 FF and the end as 00 00, so no key is
  /// the start of another and a shorter text sorts first; inverted for a descending key.
  static func append(
    text: UnsafeBufferPointer<UInt8>, descending: Bool, to key: inout [UInt8]
  ) {
    let flip: UInt8 = descending ? 0xFF : 0
    for byte in text {
      key.append(byte ^ flip)
      if byte == 0 { key.append(0xFF ^ flip) }
    }
    key.append(flip)
    key.append(flip)
  }
}

/// Reads back what `streamSorted` wrote in a record's payload, in the same order.
struct PayloadReader {
  let bytes: UnsafeRawBufferPointer
  var position = 0

  mutating func byte() -> UInt8 {
    defer { position += 1 }
    return bytes[position]
  }

  mutating func bits() -> UInt64 {
    var bits: UInt64 = 0
    for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
    return bits
  }

  mutating func double() -> Double { Double(bitPattern: bits()) }

  mutating func copy(into target: UnsafeMutableRawBufferPointer) {
    target.copyMemory(
      from: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + target.count)]))
    position += target.count
  }

  mutating func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    let length = ExternalSorter.readUInt32(bytes, at: position)
    position += 4
    defer { position += length }
    let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)])
    return body(slice.bindMemory(to: UInt8.self))
  }

  mutating func text() -> String { withText { String(decoding: $0, as: UTF8.self) } }
}
