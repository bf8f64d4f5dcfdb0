import Foundation
import Localization
import Testing

@testable import DocketCore

@Suite struct AwardTests {
  @Test func everyAwardHasItsID() {
    #expect(Award.all.map(\.id).prefix(3) == ["issues-1", "issues-10", "issues-20"])
    #expect(Award.all.count == 8 + 8 + 3 + 1)
    #expect(Award.all.last?.id == "resolved-1")
  }

  /// The thresholds of SPEC §6, written out: a changed or missing threshold fails here, not only
  /// a wrong comparison.
  @Test func everyThresholdIsTheSpecs() {
    #expect(Award.Criterion.issues.thresholds == [1, 10, 20, 50, 100, 250, 500, 1000])
    #expect(Award.Criterion.closed.thresholds == [1, 10, 20, 50, 100, 250, 500, 1000])
    #expect(Award.Criterion.tags.thresholds == [1, 10, 50])
    // The first conflict dealt with (issue 36), beyond the seed's awards.
    #expect(Award.Criterion.resolved.thresholds == [1])
    #expect(
      Award.all.map(\.id) == [
        "issues-1", "issues-10", "issues-20", "issues-50", "issues-100", "issues-250",
        "issues-500", "issues-1000", "closed-1", "closed-10", "closed-20", "closed-50",
        "closed-100", "closed-250", "closed-500", "closed-1000", "tags-1", "tags-10", "tags-50",
        "resolved-1",
      ])
  }

  @Test(arguments: Award.Criterion.allCases)
  func eachThresholdUnlocksExactlyAtItsValue(criterion: Award.Criterion) {
    for threshold in criterion.thresholds {
      let award = Award(criterion: criterion, value: threshold)
      var below = AwardCounts()
      var at = AwardCounts()
      switch criterion {
      case .issues:
        below.issues = threshold - 1
        at.issues = threshold
      case .closed:
        below.closed = threshold - 1
        at.closed = threshold
      case .tags:
        below.tags = threshold - 1
        at.tags = threshold
      case .resolved:
        below.resolved = threshold - 1
        at.resolved = threshold
      }
      #expect(!award.isUnlocked(by: below), "\(award.id) unlocked at \(threshold - 1)")
      #expect(award.isUnlocked(by: at), "\(award.id) locked at \(threshold)")
    }
  }

  @Test func awardsUnlockAndLockAgainWithTheData() throws {
    let db = try TestDatabase()
    func unlocked() throws -> [String] {
      let counts = try db.queue.read { try $0.awardCounts() }
      return AwardStatus.all(for: counts).filter(\.unlocked).map(\.id)
    }
    #expect(try unlocked() == [])
    var issues: [Issue] = []
    for index in 0..<10 { issues.append(try db.issue("issue \(index)", completed: index == 0)) }
    let tag = try db.tag("Only")
    #expect(try unlocked() == ["issues-1", "issues-10", "closed-1", "tags-1"])
    try db.queue.write { try $0.deleteIssues([issues[0].id]) }
    #expect(try unlocked() == ["issues-1", "tags-1"])
    try db.queue.write { try $0.deleteTag(id: tag.id) }
    #expect(try unlocked() == ["issues-1"])
  }

  @Test func namesAndDescriptionsInBothLanguages() {
    let english = DocketStrings.localizer(language: "en")
    let german = DocketStrings.localizer(language: "de")
    #expect(english.name(of: Award(criterion: .issues, value: 1)) == "First Issue")
    #expect(english.name(of: Award(criterion: .issues, value: 10)) == "10 Issues")
    #expect(german.name(of: Award(criterion: .issues, value: 10)) == "10 Vorgänge")
    #expect(
      german.description(of: Award(criterion: .closed, value: 1))
        == "Schließe deinen ersten Vorgang ab.")
    for award in Award.all {
      #expect(english.name(of: award) != german.name(of: award) || award.criterion == .tags)
      #expect(!german.description(of: award).contains("award."))
    }
  }
}
