import DocketCore
import Foundation
import JSONText
import Testing

@testable import DocketTransfer

/// Docket's own document is read once to find its format and its issues, each issue made as it
/// is read where the document goes as Docket writes it, and read whole otherwise, with the same
/// issues and the same errors either way; one that is not whole fails as it did when its format
/// was found from its first value: at the same place, named or not.
@Suite struct DocketDocumentReadingTests {
  @Test func aDocumentCutOffFailsWhereItEndsWithOrWithoutItsFormatNamed() throws {
    let whole = ReadProgressTests.docketDocument(20)
    #expect(try TransferReader.read(whole).issues.count == 20)
    let cut = Array(whole.prefix(whole.count * 2 / 3))
    func failure(_ format: TransferFormat?) -> ImportError? {
      do {
        _ = try TransferReader.read(cut, format: format)
        return nil
      } catch { return error }
    }
    let found = try #require(failure(nil))
    #expect(found.problem == .syntax(.unexpectedEnd), "\(found)")
    #expect(failure(.docket) == found)
    // A file of tasks one a line starts with an object too, and is no single document.
    let tasks = Array(
      (ReadProgressTests.task(1) + "\n" + ReadProgressTests.task(2) + "\n").utf8)
    #expect(try TransferReader.read(tasks).issues.count == 2)
  }

  /// A document of two tags and three issues, its members in the order given (each a member's
  /// text), for the variants below.
  static func document(_ members: [String]) -> [UInt8] {
    Array(("{" + members.joined(separator: ",") + "}\n").utf8)
  }

  static let format = #""format":"docket""#
  static let version = #""version":1"#
  static let exported = #""exported":"2026-11-30T06:40:30Z""#
  static let tags =
    #""tags":[{"id":"00000000-0000-4000-8000-0000000000a1","name":"Bug"},{"id":"00000000-0000-4000-8000-0000000000a2","name":"UI ✓"}]"#
  static func issues(_ third: String = #""priority":"high""#) -> String {
    let first =
      #"{"id":"00000000-0000-4000-8000-000000000001","title":"One","detail":"d","priority":"low","completed":false,"created":"2026-11-30T06:40:30Z","modified":null,"tags":["00000000-0000-4000-8000-0000000000a1"]}"#
    let second =
      #"{"id":"00000000-0000-4000-8000-000000000002","title":"Two ⚠︎","detail":"","priority":"medium","completed":true,"created":"2026-11-30T06:40:31Z","modified":"2026-11-30T07:00:00Z","tags":[]}"#
    let last =
      #"{"id":"00000000-0000-4000-8000-000000000003","title":"Three","created":"2026-11-30T06:40:32Z","tags":["00000000-0000-4000-8000-0000000000a2"],"#
      + third + "}"
    return #""issues":["# + [first, second, last].joined(separator: ",") + "]"
  }

  /// A member of an issue holding lists `depth` deep.
  static func nested(_ depth: Int) -> String {
    #""x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
  }

  /// What the document gives read whole, as any document may be.
  static func whole(_ bytes: [UInt8]) throws(ImportError) -> IncomingBatch {
    let document: JSON
    do { document = try JSONReader.document(bytes) } catch { throw ImportError(error) }
    return try DocketFormat.read(document)
  }

  /// Whether the document is read as it goes; the reader is left where it was when it is not.
  static func streams(_ bytes: [UInt8]) throws -> Bool {
    var reader = JSONReader(bytes: bytes)
    let read = try DocketFormat.stream(&reader)
    if read == nil { #expect(reader.position.description == "1:1") }
    return read != nil
  }

  @Test func readAsItGoesOrWholeTheIssuesAreTheSame() throws {
    let variants: [(members: [String], streams: Bool)] = [
      ([Self.format, Self.version, Self.exported, Self.tags, Self.issues()], true),
      ([Self.format, Self.tags, Self.version, Self.issues()], true),
      ([Self.format, Self.version, Self.tags, Self.issues(), #""later":{"a":[1,2]}"#], false),
      ([Self.format, Self.version, Self.issues(), Self.tags], false),
      ([Self.version, Self.format, Self.tags, Self.issues()], false),
      ([Self.format, Self.version, Self.tags, Self.issues(), Self.tags], false),
      ([Self.format, Self.version, Self.tags, #""issues":null"#], false),
      ([Self.format, Self.version, Self.tags], false),
      ([Self.format, Self.format, Self.version, Self.tags, Self.issues()], false),
      // The later list counts, read whole: the first one's fault is no fault.
      (
        [
          Self.format, Self.version, Self.tags, Self.issues(#""priority":"urgent""#),
          #""issues":[]"#,
        ], false
      ),
      // Nested as deep as a value may be, read either way.
      ([Self.format, Self.version, Self.tags, Self.issues(Self.nested(509))], true),
    ]
    for (members, streams) in variants {
      let bytes = Self.document(members)
      #expect(try Self.streams(bytes) == streams, "\(members)")
      let read = try TransferReader.read(bytes)
      #expect(read == (try Self.whole(bytes)), "\(members)")
      #expect(try TransferReader.read(bytes, format: .docket) == read)
    }
    let usual = try TransferReader.read(
      Self.document([Self.format, Self.version, Self.tags, Self.issues()]))
    #expect(usual.issues.map(\.title) == ["One", "Two ⚠︎", "Three"])
    #expect(usual.issues.map { $0.tags.map(\.name) } == [["Bug"], [], ["UI ✓"]])
    #expect(usual.extraTags.isEmpty)
  }

  @Test func readAsItGoesOrWholeTheErrorsAreTheSame() throws {
    let variants: [[String]] = [
      [Self.format, Self.version, Self.tags, Self.issues(#""priority":"urgent""#)],
      [Self.format, Self.version, Self.tags, Self.issues(#""completed":"yes""#)],
      [
        Self.format, Self.version, Self.tags,
        Self.issues(#""x":1,"tags":["00000000-0000-4000-8000-0000000000ff"]"#),
      ],
      [Self.format, #""version":2"#, Self.tags, Self.issues()],
      [Self.format, #""version":1.5"#, Self.tags, Self.issues()],
      [Self.format, Self.tags, Self.issues()],
      [#""format":"other""#, Self.version, Self.tags, Self.issues()],
      [Self.format, Self.version, #""tags":[{"id":"nope","name":"x"}]"#, Self.issues()],
      [Self.format, Self.version, Self.tags, #""issues":5"#],
      [Self.format, Self.version, Self.tags, #""issues":[1]"#],
      // One level deeper than a value may be.
      [Self.format, Self.version, Self.tags, Self.issues(Self.nested(510))],
    ]
    var documents = variants.map { (members: $0, bytes: Self.document($0)) }
    // A document cut off, or with something after it: the whole read finds that before the
    // fault of an issue or of the version.
    for members in [
      [Self.format, #""version":2"#, Self.tags, Self.issues()],
      [Self.format, Self.version, Self.tags, Self.issues(#""priority":"urgent""#)],
    ] {
      let bytes = Self.document(members)
      documents.append((members, Array(bytes.dropLast(3))))
      documents.append((members, bytes + Array("{}".utf8)))
    }
    for (members, bytes) in documents {
      let expected = #expect(throws: ImportError.self, "\(members)") { try Self.whole(bytes) }
      // Found from the content only where the document says it is Docket's.
      let formats: [TransferFormat?] = members[0] == Self.format ? [nil, .docket] : [.docket]
      for format in formats {
        let found = #expect(throws: ImportError.self, "\(members)") {
          try TransferReader.read(bytes, format: format)
        }
        #expect(found == expected, "\(members), \(String(describing: format))")
      }
    }
  }

  /// A document read as it goes that turns out unusual after its issues is read again whole:
  /// its reports of how far it is never go back.
  @Test func readAgainWholeTheReportsNeverGoBack() throws {
    var bytes = ReadProgressTests.docketDocument(8_000)
    // A member after the issues: read again whole.
    let end = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
    bytes.insert(contentsOf: Array(#","later":true"#.utf8), at: end)
    #expect(try !Self.streams(bytes))
    let (reports, count) = try ReadProgressTests.heard(bytes)
    #expect(count == 8_000)
    #expect(reports.count >= 2, "\(reports)")
    #expect(zip(reports, reports.dropFirst()).allSatisfy { $0 < $1 }, "\(reports)")
    #expect(reports.last.map { $0 <= bytes.count } == true)
  }
}
