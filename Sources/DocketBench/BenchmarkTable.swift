import Database
import DocketCore
import DocketTransfer
import Foundation

@MainActor
func printMemory() {
  guard !memory.isEmpty else { return }
  print("")
  print("peak memory of the release binary:")
  for (name, mebibytes, budget) in memory {
    print(
      "  \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%6.1f", mebibytes)) MiB (budget \(Int(budget))) \(mebibytes <= budget ? "ok" : "OVER")"
    )
  }
}

/// Collects results and prints them as an aligned table.
final class BenchmarkTable {
  struct Row {
    var name: String
    var size: Int
    var median: Double
    var worst: Double
    var budget: Double?
    var worstBudget: Double?
  }

  var rows: [Row] = []

  func add(
    name: String, size: Int, samples: [Double], budget: Double?, worstBudget: Double? = nil
  ) {
    let sorted = samples.sorted()
    rows.append(
      Row(
        name: name, size: size, median: sorted[sorted.count / 2], worst: sorted.last!,
        budget: budget, worstBudget: worstBudget))
  }

  func print(header: Bool = true) {
    // Wide enough for every name, so the two halves of the table (see --cli-timings) align.
    let nameWidth = max(58, rows.map(\.name.count).max() ?? 0)
    func pad(_ text: String, _ width: Int) -> String {
      text + String(repeating: " ", count: max(0, width - text.count))
    }
    func left(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    if header {
      Swift.print(
        pad("benchmark", nameWidth), left("issues", 8), left("median ms", 10), left("worst ms", 10),
        left("budget", 8), " ")
    }
    var failures = 0
    for row in rows {
      let verdict: String
      if let budget = row.budget {
        let ok = row.median <= budget && row.worst <= (row.worstBudget ?? .infinity)
        if !ok { failures += 1 }
        verdict = ok ? "ok" : "OVER"
      } else {
        verdict = ""
      }
      Swift.print(
        pad(row.name, nameWidth), left(String(row.size), 8),
        left(String(format: "%.3f", row.median), 10),
        left(String(format: "%.3f", row.worst), 10),
        left(
          row.budget.map {
            String(format: "%.0f", $0) + (row.worstBudget.map { String(format: "/%.0f", $0) } ?? "")
          } ?? "-", 8),
        verdict)
    }
    Swift.print(failures == 0 ? "all budgets met" : "\(failures) over budget")
  }
}

/// The budgets at the sizes that have them: 100 000 issues (the everyday large project) and a
/// million (years of a large project's history). Other sizes print without a verdict.
struct Budgets {
  var firstPage: Double
  var search: Double
  var sidebar: Double
  var tagCounts: Double
  var keystrokeMedian: Double
  var keystrokeWorst: Double?
  /// Whole process: `docket list --limit 50`, and the other single commands.
  var page: Double
  var command: Double
  var wholeList: Double
  var wholeListMiB: Double
  /// Budgets the issues set for the benchmark's 100 000 issues only: a new device catching up
  /// on them (sync), and the changelog corpus imported into them.
  var catchUp: Double? = nil
  var importIntoFull: Double? = nil

  static func at(_ size: Int) -> Budgets? {
    if size >= 900_000 {
      return Budgets(
        firstPage: 3, search: 10, sidebar: 5, tagCounts: 20, keystrokeMedian: 16,
        keystrokeWorst: 33, page: 10, command: 30, wholeList: 2000, wholeListMiB: 60)
    }
    if size >= 90_000 {
      return Budgets(
        firstPage: 3, search: 10, sidebar: 10, tagCounts: 20, keystrokeMedian: 16,
        keystrokeWorst: nil, page: 30, command: 30, wholeList: 400, wholeListMiB: 100,
        catchUp: 5000, importIntoFull: 6000)
    }
    return nil
  }
}
