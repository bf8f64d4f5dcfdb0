import DocketCore
import Foundation

/// `docket sample-data`: a small varied sample in an empty database.
struct SampleDataCommand {
  let context: CommandContext

  func run() throws {
    let database = try context.database()
    let now = context.now
    let count = try database.write { try SampleData.insert(into: $0, now: now, makeID: { UUID() }) }
    let tags = try database.read { try $0.fetchTags().count }
    context.console.line(context.l10n("sample.added", .integer(count), .integer(tags)))
  }
}
