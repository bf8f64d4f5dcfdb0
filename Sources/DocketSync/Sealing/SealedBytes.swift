import DocketCore
import Files
import Foundation

/// The sealed form of what an encrypted remote holds (a package, a snapshot's image): nothing in
/// it but its length says anything of what it holds.
///
///     docket-sealed 1\n                16 bytes, so that a reader knows it for what it is
///     stream header                    24 bytes (libsodium's secret stream)
///     length, part                     4 bytes big-endian, then a part sealed
///     …                                the last part marked as the last
///
/// Each part is at most 64 KiB of the plain bytes, padded to a multiple of 256 bytes (the size
/// tells no length of a title or a name to the byte); a package's first part is its header line
/// alone, so that a header is read without the rest. The first part is bound to the name it is
/// written under, and the stream binds each part to the one before it: a file renamed, cut short,
/// with parts reordered, dropped or changed, or sealed with another remote's key, does not open.
enum SealedBytes {
  static let magic = Array("docket-sealed 1\n".utf8)
  static let partSize = 64 << 10
  static let block = 256
  /// The longest sealed part a reader takes: a part of `partSize` padded, and its tag.
  static let largestPart = partSize + block + Sodium.streamTagBytes
  /// The longest header a package's first part holds (a snapshot's names every device).
  static let largestHeader = 1 << 20

  static func isSealed(_ prefix: some Collection<UInt8>) -> Bool { prefix.starts(with: magic) }

  /// The size of a package of the bytes `plain` sealed, cut as `seal` cuts it.
  static func sealedCount(_ plain: [UInt8]) -> Int {
    func part(_ length: Int) -> Int { 4 + (length / block + 1) * block + Sodium.streamTagBytes }
    let count = plain.count
    let header = plain.firstIndex(of: 0x0A).map { $0 + 1 } ?? min(count, partSize)
    var total = magic.count + Sodium.streamHeaderBytes + part(header)
    var left = count - header
    while left > 0 {
      total += part(min(left, partSize))
      left -= min(left, partSize)
    }
    return total
  }

  /// What the first part is bound to: the name the package is written under.
  static func label(_ name: PackageName) -> [UInt8] { Array(("docket " + name.description).utf8) }

  /// `plain` sealed: with `headerFirst`, its first line is a part of its own. Also says where
  /// the first part ends in what it returns.
  static func seal(_ plain: [UInt8], name: PackageName, key: SyncKey, headerFirst: Bool = true)
    -> (bytes: [UInt8], headerEnd: Int)
  {
    var pusher = Sodium.Pusher(key: key.bytes)
    var out = magic + pusher.header
    out.reserveCapacity(plain.count + plain.count / 64 + 1024)
    var start = 0
    var headerEnd = 0
    var first = true
    repeat {
      var end = min(start + partSize, plain.count)
      if first, headerFirst, let newline = plain.firstIndex(of: 0x0A) {
        end = min(newline + 1, plain.count)
      }
      let last = end == plain.count
      let part = pusher.push(
        pad(plain[start..<end]), data: first ? label(name) : [], last: last)
      appendLength(part.count, to: &out)
      out += part
      if first { headerEnd = out.count }
      first = false
      start = end
    } while start < plain.count
    return (out, headerEnd)
  }

  /// A file sealed as it is read, a part at a time, each handed to `write`: an image that may be
  /// as large as the database.
  static func seal(
    file descriptor: Int32, name: PackageName, key: SyncKey, _ write: ([UInt8]) throws -> Void
  ) throws {
    var pusher = Sodium.Pusher(key: key.bytes)
    try write(magic + pusher.header)
    var buffer = [UInt8](repeating: 0, count: partSize)
    var pending: [UInt8]?
    var first = true
    while true {
      let count = try readFull(descriptor, into: &buffer)
      let next = Array(buffer[..<count])
      if let held = pending {
        // The part before is the last when nothing follows it.
        let part = pusher.push(pad(held[...]), data: first ? label(name) : [], last: count == 0)
        var framed: [UInt8] = []
        appendLength(part.count, to: &framed)
        try write(framed + part)
        first = false
        if count == 0 { return }
      } else if count == 0 {
        // An empty file: one empty part, the last.
        let part = pusher.push(pad([][...]), data: label(name), last: true)
        var framed: [UInt8] = []
        appendLength(part.count, to: &framed)
        try write(framed + part)
        return
      }
      pending = next
    }
  }

  /// Reads until `buffer` is full or the file ends: how many bytes were read.
  static func readFull(_ descriptor: Int32, into buffer: inout [UInt8]) throws -> Int {
    var filled = 0
    while filled < buffer.count {
      let count = buffer.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress! + filled, $0.count - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw RemoteError(location: "", problem: .system(String(cString: strerror(errno))))
      }
      if count == 0 { break }
      filled += count
    }
    return filled
  }

  /// The plain bytes of sealed `bytes`, whole.
  static func open(_ bytes: [UInt8], name: PackageName, key: SyncKey) throws(PackageProblem)
    -> [UInt8]
  {
    var opener = Opener(name: name, key: key)
    var plain: [UInt8] = []
    plain.reserveCapacity(bytes.count)
    do { try opener.feed(bytes[...]) { plain += $0 } } catch {
      throw error as? PackageProblem ?? .unsealable
    }
    try opener.finish()
    return plain
  }

  /// The first part alone of sealed bytes that begin with `prefix`: a package's header line.
  static func openFirst(_ prefix: ArraySlice<UInt8>, name: PackageName, key: SyncKey)
    throws(PackageProblem) -> [UInt8]
  {
    var opener = Opener(name: name, key: key)
    var first: [UInt8]?
    do { try opener.feed(prefix, firstOnly: true) { first = $0 } } catch {
      throw error as? PackageProblem ?? .unsealable
    }
    guard let first else { throw .partial }
    return first
  }

  /// How many bytes of a file hold its first part, from the 20 bytes after the magic and the
  /// stream header: at most `largestHeader` and its framing.
  static func firstPartLength(_ frame: ArraySlice<UInt8>) -> Int? {
    guard frame.count >= magic.count + Sodium.streamHeaderBytes + 4 else { return nil }
    let at = frame.startIndex + magic.count + Sodium.streamHeaderBytes
    let length = frame[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    guard length <= largestHeader + block + Sodium.streamTagBytes else { return nil }
    return magic.count + Sodium.streamHeaderBytes + 4 + length
  }

  /// Sealed bytes opened as they arrive, in pieces of any size: each part, once it is whole and
  /// opens, is handed on. A part that does not open, or anything after the last, is
  /// `.unsealable`; bytes that end before the last part, `.partial`.
  struct Opener {
    let name: PackageName
    let key: SyncKey
    private var held: [UInt8] = []
    private var offset = 0
    private var puller: Sodium.Puller?
    private var parts = 0
    private(set) var ended = false

    init(name: PackageName, key: SyncKey) {
      self.name = name
      self.key = key
    }

    /// Takes in `bytes`; a fault of the sealed bytes is thrown as a `PackageProblem`, and what
    /// `each` throws as it is.
    mutating func feed(
      _ bytes: ArraySlice<UInt8>, firstOnly: Bool = false, _ each: ([UInt8]) throws -> Void
    ) throws {
      if ended {
        if !bytes.isEmpty { throw PackageProblem.unsealable }
        return
      }
      held += bytes
      if puller == nil {
        let start = magic.count + Sodium.streamHeaderBytes
        guard held.count >= start else {
          if !held.elementsEqual(magic.prefix(held.count)) { throw PackageProblem.notSealed }
          return
        }
        guard isSealed(held) else { throw PackageProblem.notSealed }
        guard let made = Sodium.Puller(header: Array(held[magic.count..<start]), key: key.bytes)
        else { throw PackageProblem.unsealable }
        puller = made
        offset = start
      }
      while held.count - offset >= 4 {
        let length = held[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let limit =
          parts == 0
          ? max(largestPart, largestHeader + block + Sodium.streamTagBytes)
          : largestPart
        guard length >= Sodium.streamTagBytes, length <= limit else {
          throw PackageProblem.unsealable
        }
        guard held.count - offset - 4 >= length else { break }
        let sealed = held[offset + 4..<offset + 4 + length]
        guard let (padded, last) = puller!.pull(sealed, data: parts == 0 ? label(name) : []),
          let plain = unpad(padded)
        else { throw PackageProblem.unsealable }
        offset += 4 + length
        parts += 1
        try each(plain)
        if last {
          ended = true
          if offset != held.count { throw PackageProblem.unsealable }
        }
        if firstOnly || last { break }
      }
      // What was handed on is let go, now and then, not at each part.
      if offset > 1 << 20 || offset == held.count {
        held.removeFirst(offset)
        offset = 0
      }
    }

    /// Fails unless the last part was read.
    func finish() throws(PackageProblem) {
      guard ended else { throw .partial }
    }
  }

  /// ISO/IEC 7816-4 padding: 0x80, then zeros up to a multiple of `block`.
  static func pad(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var out = Array(bytes)
    out.append(0x80)
    let rest = (block - out.count % block) % block
    out += [UInt8](repeating: 0, count: rest)
    return out
  }

  static func unpad(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count % block == 0 else { return nil }
    var end = bytes.count
    while end > 0, bytes[end - 1] == 0, bytes.count - end < block { end -= 1 }
    guard end > 0, bytes[end - 1] == 0x80 else { return nil }
    return Array(bytes[..<(end - 1)])
  }

  private static func appendLength(_ count: Int, to out: inout [UInt8]) {
    out += [
      UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF),
      UInt8(count & 0xFF),
    ]
  }
}

extension SealedBytes {
  /// The largest sealed file read for a package whose plain bytes may be up to `limit`: its
  /// padding and framing add less than one per cent.
  static func sealedLimit(_ limit: Int64) -> Int64 { limit + limit / 64 + 65_536 }

  /// A new file for opened bytes, for its owner only and already gone from the folder: the
  /// descriptor alone reads it, and nothing plain is left behind however the process ends.
  static func privateFile() throws -> Int32 {
    let file = NSTemporaryDirectory() + "docket-opened-\(UUID().lowercasedText)"
    let descriptor = FileWriting.createPrivate(file)
    guard descriptor >= 0 else {
      throw RemoteError(location: file, problem: .system(String(cString: strerror(errno))))
    }
    unlink(file)
    return descriptor
  }

  /// Opens the sealed bytes `feed` hands on, a piece at a time, writing the plain bytes to
  /// `output`; a fault of the sealed bytes is the package skipped.
  static func open(
    name: PackageName, key: SyncKey, into output: Int32,
    _ feed: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
  ) throws {
    var opener = Opener(name: name, key: key)
    do {
      try feed { piece in
        try opener.feed(piece) { plain in
          if let failure = plain.withUnsafeBytes({ FileWriting.writeAll(output, $0) }) {
            throw RemoteError(
              location: name.description, problem: .system(FileWriting.reason(failure)))
          }
        }
      }
      try opener.finish()
    } catch let problem as PackageProblem {
      throw SkippedPackage(path: name.description, problem: .package(problem))
    }
  }

  /// The pieces of the file open at `descriptor`, a mebibyte at a time, for `open`.
  static func pieces(of descriptor: Int32) -> ((ArraySlice<UInt8>) throws -> Void) throws -> Void {
    { take in
      var buffer = [UInt8](repeating: 0, count: 1 << 20)
      while true {
        let count = try readFull(descriptor, into: &buffer)
        if count == 0 { return }
        try take(buffer[..<count])
      }
    }
  }
}
