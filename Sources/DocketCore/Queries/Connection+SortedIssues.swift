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
        i.modified, i.tag_seqs, \(request.sort.field == .title ? "i.title_key" : "''"), i.activity,
        i.seq
      FROM issues i WHERE \(clause.condition)
      """
    // A list of a tag, a search or Recent is counted first (for a search, a second answer from
    // the index, which costs more the commoner the words), and a short one finds its references
    // one by one.
    try references.decide(for: request, clause, limit: nil)
    let sorter = ExternalSorter(chunkBytes: chunkBytes)
    let sort = request.sort
    // A list counted past a twentieth of the issues reads each reference's length from the pass
    // over every id; a shorter one asks `ListReferences`, which looks at the id's neighbours.
    let pass = references.madeWhole ? try references.whole() : nil
    try withoutActuallyEscaping(encode) { encode in
      // Making issues of the rows, encoding and sorting them run beside the reading, so the
      // list takes about as long as stepping through the rows and copying out their bytes,
      // the longer of the two halves.
      var payload = OutputBytes.record()
      let pipeline = BatchPipeline<SortBatch> { batch in
        try batch.keys.withUnsafeBytes { keys in
          try batch.text.withUnsafeBufferPointer { text in
            var keyStart = 0
            var textStart = 0
            for row in batch.rows {
              let listed = try row.listed(text: text, from: textStart)
              textStart = row.detailEnd
              payload.removeAll()
              try encode(listed, &payload)
              try payload.bytes.withUnsafeBytes { bytes in
                try sorter.add(
                  key: UnsafeRawBufferPointer(rebasing: keys[keyStart..<row.keyEnd]),
                  payload: bytes)
              }
              keyStart = row.keyEnd
            }
          }
        }
      }
      var batch = SortBatch()
      var tagLists = TagLists(catalogue)
      try pipeline.feed {
        try forEachRow(sql, clause.arguments) { row in
          // An id that is no text is refused as reading it as a UUID refuses it, and before
          // its bytes are read for the key, which would make SQLite's copy of it text.
          if !row.isText(0) { _ = try row.get(0, as: UUID.self) }
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
          let seq = try row.get(10, as: Int64.self)
          var read = CopiedRow(
            keyEnd: batch.keys.count, priority: Priority(rawValue: priority) ?? .low,
            completed: completed != 0, created: try row.get(5), modified: try row.get(6),
            tags: row.withTextBytes(7) { tagLists.tags(inList: $0) },
            referenceLength: try pass?.length(row: seq)
              ?? references.referenceLength(for: try row.get(0), row: seq))
          try row.appendText(0, to: &batch.text)
          read.idEnd = batch.text.count
          try row.appendText(1, to: &batch.text)
          read.titleEnd = batch.text.count
          try row.appendText(2, to: &batch.text)
          read.detailEnd = batch.text.count
          batch.rows.append(read)
          if batch.rows.count == SortBatch.size || batch.text.count >= SortBatch.textBytes {
            try pipeline.submit(batch)
            batch = SortBatch()
          }
        }
        if !batch.rows.isEmpty { try pipeline.submit(batch) }
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

/// Rows read, with their sort keys and their text end to end, on their way to be made into
/// issues, encoded and sorted.
private struct SortBatch {
  static let size = 512
  /// A batch is handed on at this much text however few issues it holds (details have no limit),
  /// so the batches waiting stay a few MiB.
  static let textBytes = 1 << 20
  var keys: [UInt8] = []
  /// Each row's id, title and detail, as SQLite holds them.
  var text: [UInt8] = []
  var rows: [CopiedRow] = []

  init() {
    keys.reserveCapacity(Self.size * 64)
    text.reserveCapacity(Self.size * 96)
    rows.reserveCapacity(Self.size)
  }
}

/// One row of a `SortBatch`: where its key and text end, and the columns that are no text.
private struct CopiedRow {
  var keyEnd: Int
  var idEnd = 0
  var titleEnd = 0
  var detailEnd = 0
  var priority: Priority
  var completed: Bool
  var created: Date
  var modified: Date?
  var tags: [Tag]
  /// How many of the id's hex digits its reference has.
  var referenceLength: Int

  /// The issue, made from the batch's text: the row's starts at `start`.
  func listed(text: UnsafeBufferPointer<UInt8>, from start: Int) throws -> ListedIssue {
    let idBytes = UnsafeBufferPointer(rebasing: text[start..<idEnd])
    guard let id = UUID(textBytes: idBytes) else {
      throw RowDecodingError.notUUID(idBytes, column: 0, columnName: "id")
    }
    let issue = Issue(
      id: id,
      title: String(decoding: UnsafeBufferPointer(rebasing: text[idEnd..<titleEnd]), as: UTF8.self),
      detail: String(
        decoding: UnsafeBufferPointer(rebasing: text[titleEnd..<detailEnd]), as: UTF8.self),
      priority: priority, completed: completed, created: created, modified: modified, tags: tags)
    return ListedIssue(issue: issue, reference: id.hexPrefix(referenceLength))
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

  /// Most significant byte first, the eight at once.
  static func append(bits: UInt64, to key: inout [UInt8]) {
    withUnsafeBytes(of: bits.bigEndian) { key.append(contentsOf: $0) }
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
