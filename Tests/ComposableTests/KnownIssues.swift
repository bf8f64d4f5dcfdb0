import Locking
import Testing

/// A failure the test store reported: its text and the line it points at.
struct ReportedIssue: Sendable, Equatable {
  var text: String
  var line: Int?
}

/// Runs `body`, which must fail, and returns every failure it reported (expected, so the test
/// itself does not fail). The test then checks that exactly the right ones were reported.
///
/// The body runs on the main actor, as the tests of features do, so a test store created in it
/// is released (and makes its end-of-test checks) before this returns.
@MainActor
func reportedIssues(_ body: @MainActor () async -> Void) async -> [ReportedIssue] {
  let log = Locked<[ReportedIssue]>([])
  await withKnownIssue(isIntermittent: true) {
    await body()
  } matching: { issue in
    let reported = ReportedIssue(
      text: issue.comments.map(\.rawValue).joined(separator: "\n"), line: issue.sourceLocation?.line
    )
    log.withLock { $0.append(reported) }
    return true
  }
  return log.withLock { $0 }
}

/// The body of an effect that must still be running when a test looks: it ends only when
/// cancelled. A long sleep would not do, since on a busy machine a test can be kept waiting
/// for longer than any sleep before it gets to look.
func sleepUntilCancelled() async {
  while !Task.isCancelled {
    try? await Task.sleep(for: .seconds(1))
  }
}
