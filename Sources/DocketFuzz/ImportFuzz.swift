import Database
import DocketCore
import DocketTransfer
import Foundation

@testable import DocketCLI

/// A file given to `docket import`: its format found from the content and each format forced,
/// and what reads imported into a database as a dry run (rolled back). A file that reads must
/// import: a database error there is a fault of the import, not of the file. A refusal must name
/// a record or a line where the file has them.
enum ImportFuzz {
  static let database: DatabaseQueue = {
    do {
      let queue = try DocketDatabase.inMemory(now: { SearchFuzz.now })
      try queue.write { db in
        _ = try db.createIssue(
          id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, title: "Already here",
          tagNames: ["bug"], now: SearchFuzz.now)
      }
      return queue
    } catch {
      fatalError("the fuzzer's database: \(error)")
    }
  }()

  static let l10n = DocketStrings.localizer(language: "en")

  static func run(_ bytes: [UInt8]) {
    var batches: [IncomingBatch] = []
    for format in [nil] + TransferFormat.allCases.map(Optional.some) {
      do {
        batches.append(try TransferReader.read(bytes, format: format, repository: "owner/repo"))
      } catch {
        let message = ImportText.describe(error, l10n)
        require(isExplained(message, input: bytes), "an import refusal unexplained: \(message)")
      }
    }
    for batch in batches {
      do {
        let summary = try database.importBatch(batch, dryRun: true)
        require(summary.dryRun, "a dry run that was not one")
      } catch let error as SQLiteError {
        fatalError("a file that read could not be imported: \(error)")
      } catch {
        require(
          isExplained(l10n.message(for: error), input: bytes),
          "an import error unexplained: \(error)")
      }
    }
  }
}
