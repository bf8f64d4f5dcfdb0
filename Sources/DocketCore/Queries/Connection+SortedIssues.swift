import Database
import Foundation

extension Connection {
  /// Reads the issues of `request` in the order SQLite finds them (storage order for a list
  /// without a tag or text, else from the tag's links or the text's matches), encodes each
  /// (`encode`, on a second thread while the rows are read), sorts the encodings with
  /// `ExternalSorter` by keys that order exactly as `IssueSort.orderBy` does, and delivers them
  /// in that order. Every issue is encoded before the first is delivered.
  func streamSorted(
    _ request: IssueRequest, detail: Bool, references: ListReferences,
    catalogue: [Int64: (tag: Tag, rank: Int)], chunkBytes: Int,
    encode: (ListedIssue, inout OutputBytes) throws -> Void,
    _ deliver: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let clause = try IssueRequestSQL(request, db: self, forPage: false, unordered: true)
    let sql = """
      SELECT i.id, i.title, \(detail ? "i.detail" : "''"), i.priority, i.completed, i.created,
        i.modified, i.tag_seqs, i.title_key, i.activity, i.seq
      FROM issues i WHERE \(clause.condition)
      """
    // A list of a tag, a search or Recent is counted first (for a search, a second answer from
    // the index, which costs more the commoner the words), and a short one finds its references
    // one by one.
    try references.decide(for: request, clause, limit: nil)
    let sorter = ExternalSorter(chunkBytes: chunkBytes)
    let sort = request.sort
    try withoutActuallyEscaping(encode) { encode in
      // The encoding and sorting run beside the reading: reading and decoding the rows takes
      // about as long as encoding and sorting them.
      var payload = OutputBytes.record()
      let pipeline = BatchPipeline<SortBatch> { batch in
        try batch.keys.withUnsafeBytes { keys in
          try batch.issues.withUnsafeBufferPointer { issues in
            for index in issues.indices {
              payload.removeAll()
              try encode(issues[index], &payload)
              let start = index == 0 ? 0 : batch.keyEnds[index - 1]
              try payload.bytes.withUnsafeBytes { bytes in
                try sorter.add(
                  key: UnsafeRawBufferPointer(rebasing: keys[start..<batch.keyEnds[index]]),
                  payload: bytes)
              }
            }
          }
        }
      }
      var batch = SortBatch()
      var tagLists = TagLists(catalogue)
      try pipeline.feed {
        try forEachRow(sql, clause.arguments) { row in
          let completed = try row.get(4, as: Int.self)
          let priority = try row.get(3, as: Int.self)
          let activity = row.double(at: 9) ?? 0
          batch.keys.append(UInt8(truncatingIfNeeded: completed))
          switch sort.field {
          case .priority:
            let byte = UInt8(truncatingIfNeeded: priority)
            batch.keys.append(sort.ascending ? byte : ~byte)
            SortKeyBytes.append(activity, descending: false, to: &batch.keys)
          case .date:
            SortKeyBytes.append(activity, descending: !sort.ascending, to: &batch.keys)
          case .title:
            row.withTextBytes(8) {
              SortKeyBytes.append(text: $0, descending: !sort.ascending, to: &batch.keys)
            }
            SortKeyBytes.append(activity, descending: false, to: &batch.keys)
          }
          row.withTextBytes(0) { batch.keys.append(contentsOf: $0) }
          batch.keyEnds.append(batch.keys.count)
          let issue = try Self.decodeIssue(row, tags: &tagLists)
          let seq = try row.get(10, as: Int64.self)
          let reference = try references.reference(for: issue.id, row: seq)
          batch.textBytes += issue.title.utf8.count + issue.detail.utf8.count
          // The issue's last use, so it is moved into the batch rather than copied.
          batch.issues.append(ListedIssue(issue: issue, reference: reference))
          if batch.issues.count == SortBatch.size || batch.textBytes >= SortBatch.textBytes {
            try pipeline.submit(batch)
            batch = SortBatch()
          }
        }
        if !batch.issues.isEmpty { try pipeline.submit(batch) }
      }
    }
    // The merge runs beside the delivery (a table's layout and the writing) the same way.
    try withoutActuallyEscaping(deliver) { deliver in
      let pipeline = BatchPipeline<RecordBatch> { batch in
        try batch.bytes.withUnsafeBytes { bytes in
          var start = 0
          for end in batch.ends {
            try deliver(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
          }
        }
      }
      var batch = RecordBatch()
      try pipeline.feed {
        try sorter.finish { _, payload in
          batch.bytes.append(contentsOf: payload)
          batch.ends.append(batch.bytes.count)
          if batch.ends.count == RecordBatch.size || batch.bytes.count >= RecordBatch.bytes {
            try pipeline.submit(batch)
            batch = RecordBatch()
          }
        }
        if !batch.ends.isEmpty { try pipeline.submit(batch) }
      }
    }
  }
}

/// Encoded issues in their order, end to end, on their way to be delivered.
private struct RecordBatch {
  static let size = 512
  /// A batch is handed on at this size however few records it holds (a list with its details).
  static let bytes = 1 << 20
  var bytes: [UInt8] = []
  var ends: [Int] = []
}

/// Rows read and decoded, with their sort keys end to end, on their way to be encoded and sorted.
private struct SortBatch {
  static let size = 512
  /// A batch is handed on at this much text however few issues it holds (details have no limit),
  /// so the batches waiting stay a few MiB.
  static let textBytes = 1 << 20
  var keys: [UInt8] = []
  var keyEnds: [Int] = []
  var issues: [ListedIssue] = []
  var textBytes = 0

  init() {
    keys.reserveCapacity(Self.size * 64)
    keyEnds.reserveCapacity(Self.size)
    issues.reserveCapacity(Self.size)
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
