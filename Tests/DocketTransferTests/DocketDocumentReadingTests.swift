import DocketCore
import Foundation
import Testing

@testable import DocketTransfer

/// Docket's own document is read once to find its format and its issues; one that is not whole
/// fails as it did when its format was found from its first value: at the same place, named or
/// not.
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
}
