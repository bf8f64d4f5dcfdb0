import Composable
import ComposableTesting
import Testing

/// The test store must fail when a test is wrong. Each test breaks one rule and checks that
/// exactly that failure was reported, with its text and the line it points at.
@MainActor
@Suite struct TestStoreFailureTests {
  @Test func aWrongStateExpectationFailsWithADiff() async {
    let sendLine = #line + 3
    let issues = await reportedIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.increment) { $0.count = 2 }
    }
    let expected = """
      State after sending .increment differs from what was expected (− expected, + actual):
        Counter.State(
      −   count: 2
      +   count: 1
          … 1 unchanged
        )
      """
    #expect(issues == [ReportedIssue(text: expected, line: sendLine)])
  }

  @Test func nestedDifferencesAreShownAsTrees() async {
    let issues = await reportedIssues {
      let store = TestStore(initialState: NameList.State()) { NameList() }
      await store.send(.editor(.draftChanged("Ada"))) { $0.editor.draft = "Bob" }
    }
    let expected = """
      State after sending .editor(.draftChanged("Ada")) differs from what was expected (− expected, + actual):
        NameList.State(
          editor: NameEditor.State(
      −     draft: "Bob"
      +     draft: "Ada"
          )
          … 1 unchanged
        )
      """
    #expect(issues.map(\.text) == [expected])
  }

  @Test func anUnexpectedReceivedActionFails() async {
    let receiveLine = #line + 4
    let issues = await reportedIssues {
      let store = TestStore(initialState: NameList.State()) { NameList() }
      await store.send(.editor(.cancelTapped))
      await store.receive(.editor(.delegate(.saved("x"))))
    }
    let expected = """
      Received an action that was not the one expected (− expected, + received):
        .editor(
          .delegate(
      −     .saved("x")
      +     .cancelled
          )
        )
      """
    #expect(issues == [ReportedIssue(text: expected, line: receiveLine)])
  }

  @Test func anActionThatNeverArrivesFails() async {
    let issues = await reportedIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.receive(.increment, timeout: .milliseconds(50))
    }
    #expect(
      issues.map(\.text) == [
        "Expected to receive .increment, but none arrived within 0.05 seconds (no effect is running)."
      ])
  }

  @Test func aLaneThatNeverFinishesFails() async {
    let finishLine = #line + 5
    let issues = await reportedIssues {
      let store = TestStore(initialState: Stuck.State()) { Stuck() }
      store.exhaustivity = .off
      await store.send(.start)
      await store.finishEffects(in: "stuck", timeout: .milliseconds(50))
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        ReportedIssue(
          text: "Effects in the lane stuck are still running after 0.05 seconds.", line: finishLine)
      ])
  }

  @Test func aReceivedActionNotAssertedBeforeTheNextSendFails() async {
    let secondSendLine = #line + 4
    let issues = await reportedIssues {
      let store = TestStore(initialState: NameList.State()) { NameList() }
      await store.send(.editor(.cancelTapped))
      await store.send(.editor(.draftChanged("x"))) { $0.editor.draft = "x" }
    }
    let expected = """
      1 received action(s) were not asserted before sending another action:
        .editor(.delegate(.cancelled))
      """
    #expect(issues == [ReportedIssue(text: expected, line: secondSendLine)])
  }

  @Test func aReceivedActionNotAssertedByTheEndFails() async {
    let sendLine = #line + 3
    let issues = await reportedIssues {
      let store = TestStore(initialState: NameList.State()) { NameList() }
      await store.send(.editor(.saveTapped))
    }
    let expected = """
      1 received action(s) were not asserted before the end of the test:
        .editor(.delegate(.saved("")))
      """
    #expect(issues == [ReportedIssue(text: expected, line: sendLine)])
  }

  @Test func anEffectStillRunningAtTheEndFailsNamingItsAction() async {
    let clock = TestClock()
    let sendLine = #line + 7
    let issues = await reportedIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.clock = clock
      }
      await store.send(.incrementLater) { $0.isWaiting = true }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.line == sendLine)
    #expect(
      issues.first?.text.hasPrefix("An effect returned for this action is still running") == true)
    #expect(issues.first?.text.contains("\n  .incrementLater\n") == true)
  }

  @Test func finishFailsWhenEffectsKeepRunning() async {
    let clock = TestClock()
    let issues = await reportedIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.clock = clock
      }
      await store.send(.incrementLater) { $0.isWaiting = true }
      await store.finish(timeout: .milliseconds(50))
      await store.skipInFlightEffects()
    }
    #expect(
      issues.map(\.text) == [
        "Effects are still running after 0.05 seconds, started by:\n  .incrementLater"
      ])
  }

  @Test func nonExhaustiveStoresStillCheckWhatIsAsserted() async {
    let issues = await reportedIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off
      await store.send(.increment) { $0.count = 5 }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.text.contains("−   count: 5\n+   count: 1") == true)
  }

  @Test func aCorrectTestReportsNothing() async {
    let issues = await reportedIssues {
      let store = TestStore(initialState: NameList.State()) { NameList() }
      await store.send(.editor(.saveTapped))
      await store.receive(.editor(.delegate(.saved("")))) { $0.names = [""] }
      // One deliberate failure, so that the known-issue block has something to match.
      Issue.record("the only failure")
    }
    #expect(issues.map(\.text) == ["the only failure"])
  }
}

/// The store's escape hatches, used correctly, report nothing.
@MainActor
@Suite struct TestStoreSkippingTests {
  @Test func skippingIsExplicitAndThenNothingFails() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.incrementLater) { $0.isWaiting = true }
    await clock.advance(by: .seconds(1))
    await store.skipReceivedActions()
    #expect(store.state.count == 1)
    await store.send(.incrementLater) { $0.isWaiting = true }
    await store.skipInFlightEffects()
  }

  @Test func finishWaitsForEffectsThatEnd() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    await store.send(.incrementLater) { $0.isWaiting = true }
    await store.finish()
    await store.receive(.increment) {
      $0.count = 1
      $0.isWaiting = false
    }
  }

  @Test func nonExhaustiveStoresCheckOnlyWhatIsAsserted() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.clock = clock
      $0.wordList = WordList { _ in ["apple"] }
    }
    store.exhaustivity = .off
    await store.send(.queryChanged("a"))
    await clock.advance(by: .seconds(1))
    // The search action is passed over; only the results and their field are asserted.
    await store.receive(.results(["apple"])) { $0.results = ["apple"] }
    #expect(store.state.searches == 1)
  }
}

/// An effect in a lane that waits until it is cancelled (a minute at most).
struct Stuck: Reducer {
  struct State: Equatable {}
  enum Action: Equatable, Sendable { case start }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in await sleepUntilCancelled() }
      .serial(in: "stuck")
  }
}
