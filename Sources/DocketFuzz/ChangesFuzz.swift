import Database
import DocketCore
import DocketTransfer
import Foundation

@testable import DocketSync

/// What a remote holds: a change file or a snapshot, read as the file its header says it is (so
/// that the fuzzer reaches past the check of the name), and a file name as a folder lists it. A
/// package that reads must write back to the same bytes' meaning, and its changes must apply to
/// a database (rolled back after) or fail with words; a database error from a change that read
/// is a fault of the merge.
enum ChangesFuzz {
  struct RollBack: Error {}

  static let database: DatabaseQueue = {
    do { return try DocketDatabase.inMemory(now: { SearchFuzz.now }) } catch {
      fatalError("the fuzzer's database: \(error)")
    }
  }()

  static func run(_ bytes: [UInt8]) {
    let firstLine = bytes.prefix { $0 != 0x0A }
    _ = FolderRemote.packageName(String(decoding: firstLine, as: UTF8.self), device: "d")
    let header = try? JSONReader.document(Array(firstLine))
    let kind = header?["docket"]?.string.flatMap(PackageName.Kind.init(rawValue:)) ?? .changes
    let device = header?["device"]?.string?.lowercased() ?? "d"
    let number = header?["number"]?.string.flatMap { Int64($0) } ?? 1
    let name = PackageName(device: device, kind: kind, number: number)
    let package: Package
    do {
      package = try PackageFormat.decode(bytes, expected: name)
    } catch {
      return
    }
    let again: Package
    do {
      again = try PackageFormat.decode(PackageFormat.encode(package), expected: name)
    } catch {
      fatalError("a package read but its own writing did not: \(error)")
    }
    require(again.changes == package.changes, "a package changed when written and read again")
    require(again.covers == package.covers, "a package's coverage changed when written again")
    do {
      try database.write { db in
        do {
          try db.transaction {
            _ = try db.applyChanges(package.changes, deviceNames: [device: package.deviceName])
            throw RollBack()
          }
        } catch is RollBack {
        } catch let error as SQLiteError {
          fatalError("changes that read could not be applied: \(error)")
        }
      }
    } catch {
      // Refused as a whole (a change the merge cannot take): fine, as long as it is not the
      // database failing.
    }
  }
}
