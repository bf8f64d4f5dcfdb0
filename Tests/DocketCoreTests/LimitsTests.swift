import Foundation
import Testing

@testable import DocketCore

/// What an older version stored beyond the limits, brought within them the same way on every
/// device: a value the migration makes is one every device's checks take.
@Suite struct LimitsTests {
  @Test func aValueBroughtWithinTheLimitsPassesTheirChecks() throws {
    let title = try #require(
      Limits.within("title", "two\nlines" + String(repeating: "t", count: 1_200)) as? String)
    #expect(Limits.problem(title: title, detail: "") == nil)
    #expect(title.hasPrefix("two lines"))
    // A tag cut at its limit may end on a space: the name made is normalized again.
    let long = String(repeating: "a", count: Limits.tagNameCharacters - 1) + " b"
    let tag = try #require(Limits.within("tag", long) as? String)
    #expect(tag == TagName.normalized(tag))
    #expect(tag.unicodeScalars.count <= Limits.tagNameCharacters)
    #expect(Limits.within("created", -5.0) as? Double == Limits.earliestDate)
    #expect(Limits.within("created text", "1e20") as? String == String(Limits.latestDate))
  }
}
