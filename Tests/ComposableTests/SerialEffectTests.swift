import Composable
import ComposableTesting
import Foundation
import Locking
import Testing

/// Effects in one serial lane run one after another in the order their actions were sent, on the
/// executor the app uses (Swift's shared threads), whichever task happens to start first.
@MainActor
@Suite struct SerialEffectTests {
  /// Each action appends its number after a delay that shrinks as numbers grow, so that without
  /// the lane the later, shorter ones would finish first.
  struct Writer: Reducer {
    struct State: Equatable {}
    enum Action: Equatable, Sendable {
      case write(Int, serial: Bool)
      case waitUntilCancelled
    }
    let log: Log

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .waitUntilCancelled:
        return .run { _ in await sleepUntilCancelled() }
      case .write(let number, let serial):
        let work = Effect<Action>.run { [log] _ in
          try await Task.sleep(for: .milliseconds(max(0, 8 - number)))
          log.append(number)
        }
        return serial ? work.serial(in: "writes") : work
      }
    }
  }

  final class Log: Sendable {
    private let entries = Locked<[Int]>([])
    func append(_ number: Int) { entries.withLock { $0.append(number) } }
    var all: [Int] { entries.withLock { $0 } }
  }

  @Test func serialEffectsLandInTheOrderSentEveryTime() async {
    for _ in 0..<25 {
      let log = Log()
      let store = Store(initialState: Writer.State(), reducer: Writer(log: log))
      for number in 0..<8 { store.send(.write(number, serial: true)) }
      await store.waitForEffects(in: "writes")
      #expect(log.all == Array(0..<8))
    }
  }

  /// The control: the same effects outside a lane finish in whatever order their delays allow,
  /// which is what the lane prevents.
  @Test func withoutTheLaneTheyOvertakeEachOther() async throws {
    let log = Log()
    let store = Store(initialState: Writer.State(), reducer: Writer(log: log))
    for number in 0..<8 { store.send(.write(number, serial: false)) }
    for _ in 0..<500 where log.all.count < 8 { try await Task.sleep(for: .milliseconds(2)) }
    #expect(log.all.count == 8)
    #expect(log.all != Array(0..<8))
  }

  /// The test store waits for a lane the same way, while an effect outside it keeps running
  /// (one that would end only when cancelled).
  @Test func theTestStoreFinishesALaneAndLeavesTheRest() async {
    let log = Log()
    let store = TestStore(initialState: Writer.State()) { Writer(log: log) }
    store.exhaustivity = .off
    await store.send(.waitUntilCancelled)
    for number in 0..<4 { await store.send(.write(number, serial: true)) }
    await store.finishEffects(in: "writes")
    #expect(log.all == [0, 1, 2, 3])
    await store.skipInFlightEffects()
  }

  /// Waiting for a lane also waits for what is put in it meanwhile.
  @Test func waitingForALaneWaitsForEffectsAddedWhileWaiting() async {
    let log = Log()
    let store = Store(initialState: Writer.State(), reducer: Writer(log: log))
    store.send(.write(0, serial: true))
    Task { @MainActor in store.send(.write(1, serial: true)) }
    await store.waitForEffects(in: "writes")
    #expect(log.all == [0, 1])
  }
}
