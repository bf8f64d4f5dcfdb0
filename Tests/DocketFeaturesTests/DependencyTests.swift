import ComposableTesting
import DocketCore
import Locking
import Testing

@testable import DocketFeatures

@MainActor
@Suite struct FeatureDependencyTests {
  /// A test that forgets the database fails naming it, and the run goes on (no crash).
  @Test func aMissingDatabaseIsAFailureNamingItNotACrash() async {
    let reported = Locked<[String]>([])
    await withKnownIssue {
      let store = TestStore(initialState: AwardsFeature.State()) {
        AwardsFeature()
      } withDependencies: {
        $0.locale = "en"
      }
      let task = await store.send(.task)
      await store.receive(.loaded(AwardCounts()))
      await task.cancel()
    } matching: { issue in
      reported.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    #expect(
      reported.withLock { $0 }.contains {
        $0.hasPrefix(#"@Dependency(\.database) was used without being overridden"#)
      })
  }
}
