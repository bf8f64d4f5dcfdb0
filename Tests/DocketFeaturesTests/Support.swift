import Composable
import ComposableTesting
import Database
import DocketCore
import DocketTestSupport
import Foundation
import Locking

@testable import DocketFeatures

// Swift Testing has types of these names too; in these tests they mean Docket's.
typealias Tag = DocketCore.Tag
typealias Issue = DocketCore.Issue

/// A database for one test, with fixtures whose ids start with `f` (the features' own new ids
/// come from the incrementing generator, starting at 0).
struct Fixture: IssueFixtures {
  static let defaultAge = day
  let time = TestTime()
  let queue: DatabaseQueue
  private let ids = TestUUIDs(prefix: "f0000000")
  /// The folder of an on-disk database, removed when the last copy of the fixture goes.
  private let directory: TemporaryDirectory?
  var folder: URL? { directory?.url }

  /// An in-memory database, or a file (for tests with a second connection).
  init(onDisk: Bool = false) throws {
    let time = self.time
    if onDisk {
      let directory = try TemporaryDirectory(prefix: "docket-features")
      self.directory = directory
      queue = try DocketDatabase.open(path: directory.path("docket.sqlite")) { time.now }
    } else {
      directory = nil
      queue = try DocketDatabase.inMemory { time.now }
    }
  }

  var now: Date { time.now }

  func nextID() -> UUID { ids.make() }

  func settings() throws -> DeviceSettings { try queue.read { try $0.fetchSettings() } }

  /// A second connection to the same file, standing in for another process.
  func otherProcess() throws -> Connection {
    let time = self.time
    return try DocketDatabase.connection(path: queue.path) { time.now }
  }
}

extension Fixture {
  /// Sets every dependency the features use: this database, its time, incrementing ids, a test
  /// clock and English.
  func dependencies(clock: TestClock = TestClock()) -> (inout DependencyValues) -> Void {
    let time = self.time
    let queue = self.queue
    return {
      $0.database = queue
      $0.date = DateGenerator { time.now }
      $0.uuid = .incrementing
      $0.clock = clock
      $0.locale = "en"
    }
  }
}

/// `00000000-0000-0000-0000-00000000000n`: the n-th id a feature makes in a test.
func generatedID(_ number: Int) -> UUID {
  UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", number))!
}
