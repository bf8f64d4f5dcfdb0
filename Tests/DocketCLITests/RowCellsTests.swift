import DocketCore
import Foundation
import Terminal
import Testing

@testable import DocketCLI

/// A whole list encodes each row through `RowCells.encode`, which keeps the cells that repeat;
/// what it writes is what the row's own cells encode to, however the rows' tags are shared.
@Suite struct RowCellsTests {
  @Test func encodedRowsAreTheRowsCellsWhateverTheirTagsShare() throws {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let output = IssueOutput(l10n: DocketStrings.localizer(language: "en"), now: now, colors: true)
    var cells = IssueOutput.RowCells(output)
    let tags = ["Bug", "UI Design", "日本", "Ünïcode", "b\u{1B}[31m"].map {
      Tag(id: UUID(), name: $0)
    }
    let shared = [tags[0], tags[2]]
    // Past the cache's limit of sets, so rows are also encoded once it is full.
    for index in 0..<(IssueOutput.RowCells.tagSetsKept + 1_000) {
      // A shared array, an equal one made anew, and a different set in a fresh array each
      // time, which the allocator may place where an earlier one was: a cache that did not
      // keep the arrays it is keyed by would then answer with another set's cell.
      let rowTags: [DocketCore.Tag]
      switch index % 3 {
      case 0: rowTags = shared
      case 1: rowTags = [tags[0], tags[2]]
      default: rowTags = tags.enumerated().filter { (index >> $0.offset) & 1 == 1 }.map(\.element)
      }
      let issue = Issue(
        id: UUID(), title: "Issue \(index)", detail: "", priority: Priority(rawValue: index % 3)!,
        completed: index % 4 == 0, created: now.addingTimeInterval(-Double(index) * 9_000),
        modified: nil, tags: rowTags)
      var encoded = OutputBytes.record()
      let widths = cells.encode(issue, reference: "abcd", to: &encoded)
      var expected = OutputBytes.record()
      let made = EncodedRow.append(
        cells(issue, reference: "abcd"), to: &expected, measure: DisplayWidth.of)
      #expect(encoded.bytes == expected.bytes, "row \(index): \(rowTags.map(\.name))")
      let measured: [Int] = [widths.reference, widths.title, widths.tags, widths.date]
      let madeWidths: [Int] = [made[0], made[3], made[4], made[5]]
      #expect(measured == madeWidths)
    }
  }
}
