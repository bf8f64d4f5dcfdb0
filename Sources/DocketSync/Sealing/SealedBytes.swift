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
/// Each part is at most 1 MiB of the plain bytes, padded to a multiple of 256 bytes (the size
/// tells no length of a title or a name to the byte); a package's first part is its header line
/// alone, so that a header is read without the rest. The first part is bound to the name it is
/// written under, and the stream binds each part to the one before it: a file renamed, cut short,
/// with parts reordered, dropped or changed, or sealed with another remote's key, does not open.
enum SealedBytes {
  static let magic = Array("docket-sealed 1\n".utf8)
  static let partSize = 1 << 20
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
    var sealer = Sealer(name: name, key: key)
    var out = magic + sealer.header
    out.reserveCapacity(sealedCount(plain))
    var start = 0
    var headerEnd = 0
    repeat {
      var end = min(start + partSize, plain.count)
      if start == 0, headerFirst, let newline = plain.firstIndex(of: 0x0A) {
        end = min(newline + 1, plain.count)
      }
      sealer.seal(plain[start..<end], last: end == plain.count) { out += $0 }
      if start == 0 { headerEnd = out.count }
      start = end
    } while start < plain.count
    return (out, headerEnd)
  }

  /// A file sealed as it is read, a part at a time, each handed to `write`: an image that may be
  /// as large as the database.
  static func seal(
    file descriptor: Int32, name: PackageName, key: SyncKey,
    _ write: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    var sealer = Sealer(name: name, key: key)
    try (magic + sealer.header).withUnsafeBytes { try write($0) }
    // Two buffers: the part read is sealed once the next read says whether it is the last.
    var held = [UInt8](repeating: 0, count: partSize)
    var next = [UInt8](repeating: 0, count: partSize)
    var heldCount = try readFull(descriptor, into: &held)
    while true {
      let count = heldCount == 0 ? 0 : try readFull(descriptor, into: &next)
      try sealer.seal(held[..<heldCount], last: count == 0, write)
      if count == 0 { return }
      swap(&held, &next)
      heldCount = count
    }
  }

  /// Seals part after part into buffers of its own, each handed on with its length before it.
  struct Sealer {
    private var pusher: Sodium.Pusher
    private let label: [UInt8]
    private var first = true
    private var padded: [UInt8] = []
    private var sealed: [UInt8] = []
    var header: [UInt8] { pusher.header }

    init(name: PackageName, key: SyncKey) {
      pusher = Sodium.Pusher(key: key.bytes)
      label = SealedBytes.label(name)
    }

    mutating func seal(
      _ plain: ArraySlice<UInt8>, last: Bool, _ write: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
      let length = (plain.count / block + 1) * block
      if padded.count < length { padded = [UInt8](repeating: 0, count: length) }
      padded.withUnsafeMutableBufferPointer { out in
        plain.withUnsafeBufferPointer { input in
          if let base = input.baseAddress {
            out.baseAddress!.update(from: base, count: input.count)
          }
        }
        out[plain.count] = 0x80
        for index in (plain.count + 1)..<length { out[index] = 0 }
      }
      let count = length + Sodium.streamTagBytes
      if sealed.count < count + 4 { sealed = [UInt8](repeating: 0, count: count + 4) }
      sealed[0] = UInt8(count >> 24 & 0xFF)
      sealed[1] = UInt8(count >> 16 & 0xFF)
      sealed[2] = UInt8(count >> 8 & 0xFF)
      sealed[3] = UInt8(count & 0xFF)
      pusher.push(padded[..<length], into: &sealed, at: 4, data: first ? label : [], last: last)
      first = false
      try sealed.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[..<(count + 4)])) }
    }
  }

  /// Reads until `buffer` is full (its first `count` bytes, when given) or the file ends: how
  /// many bytes were read.
  static func readFull(_ descriptor: Int32, into buffer: inout [UInt8], count wanted: Int? = nil)
    throws -> Int
  {
    let size = min(wanted ?? buffer.count, buffer.count)
    var filled = 0
    while filled < size {
      let count = buffer.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress! + filled, size - filled)
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
    do { try opener.feed(prefix, firstOnly: true) { first = Array($0) } } catch {
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
    /// Where each part is opened: one buffer for every part, handed on as a slice of it.
    private var opened: [UInt8] = []

    init(name: PackageName, key: SyncKey) {
      self.name = name
      self.key = key
    }

    /// Takes in `bytes`; a fault of the sealed bytes is thrown as a `PackageProblem`, and what
    /// `each` throws as it is.
    mutating func feed(
      _ bytes: ArraySlice<UInt8>, firstOnly: Bool = false,
      _ each: (ArraySlice<UInt8>) throws -> Void
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
        if opened.count < length { opened = [UInt8](repeating: 0, count: length) }
        guard
          let last = puller!.pull(sealed, into: &opened, data: parts == 0 ? label(name) : []),
          let plainLength = unpaddedLength(opened[..<(length - Sodium.streamTagBytes)])
        else { throw PackageProblem.unsealable }
        offset += 4 + length
        parts += 1
        try each(opened[..<plainLength])
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

  /// How many bytes of padded `bytes` (from its start) are not padding; nil when it is not
  /// padded as sealing pads it (ISO/IEC 7816-4: 0x80, then zeros up to a multiple of `block`).
  static func unpaddedLength(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count % block == 0 else { return nil }
    var end = bytes.endIndex
    while end > bytes.startIndex, bytes[end - 1] == 0, bytes.endIndex - end < block { end -= 1 }
    guard end > bytes.startIndex, bytes[end - 1] == 0x80 else { return nil }
    return end - 1 - bytes.startIndex
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

  /// Opens the sealed file open at `input` into `output`, a part at a time, each read straight
  /// into a buffer of its own: an image as large as the database is copied no more than it must
  /// be. A fault of the sealed bytes is the package skipped.
  static func open(file input: Int32, name: PackageName, key: SyncKey, into output: Int32) throws {
    do {
      var head = [UInt8](repeating: 0, count: magic.count + Sodium.streamHeaderBytes)
      let got = try readFull(input, into: &head)
      guard head[..<min(got, magic.count)].elementsEqual(magic.prefix(min(got, magic.count)))
      else { throw PackageProblem.notSealed }
      guard got == head.count else { throw PackageProblem.partial }
      guard var puller = Sodium.Puller(header: Array(head[magic.count...]), key: key.bytes) else {
        throw PackageProblem.unsealable
      }
      let largest = max(largestPart, largestHeader + block + Sodium.streamTagBytes)
      var frame = [UInt8](repeating: 0, count: largest)
      var opened = [UInt8](repeating: 0, count: largest)
      var length = [UInt8](repeating: 0, count: 4)
      var parts = 0
      while true {
        guard try readFull(input, into: &length) == 4 else { throw PackageProblem.partial }
        let count = length.reduce(0) { $0 << 8 | Int($1) }
        guard count >= Sodium.streamTagBytes, count <= (parts == 0 ? largest : largestPart) else {
          throw PackageProblem.unsealable
        }
        guard try readFull(input, into: &frame, count: count) == count else {
          throw PackageProblem.partial
        }
        guard
          let last = puller.pull(
            frame[..<count], into: &opened, data: parts == 0 ? label(name) : []),
          let plainLength = unpaddedLength(opened[..<(count - Sodium.streamTagBytes)])
        else { throw PackageProblem.unsealable }
        parts += 1
        if let failure = opened.withUnsafeBytes({
          FileWriting.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<plainLength]))
        }) {
          throw RemoteError(
            location: name.description, problem: .system(FileWriting.reason(failure)))
        }
        if last {
          // Nothing may follow the last part.
          var extra = [UInt8](repeating: 0, count: 1)
          guard try readFull(input, into: &extra) == 0 else { throw PackageProblem.unsealable }
          return
        }
      }
    } catch let problem as PackageProblem {
      throw SkippedPackage(path: name.description, problem: .package(problem))
    }
  }
}
