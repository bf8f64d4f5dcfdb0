import Database
import DocketCore
import Foundation
import Testing

/// What the terminal app sends to a real terminal (tmux): no colour with NO_COLOR, no raw
/// control from data, and SIGTERM waiting for a write in flight.
@Suite struct TmuxOutputTests {
  let folder: URL
  let database: String

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-tmux-out-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    database = folder.appendingPathComponent("docket.sqlite").path
  }

  func docket(_ arguments: [String]) throws {
    TmuxEndToEndTests.docket(arguments + ["--db", database])
  }

  /// The app in a pane; `NO_COLOR` only when `environment` sets it (the test runner sets it for
  /// everything it starts).
  func pane(environment: String = "", arguments: String = "", columns: Int = 120) throws
    -> TmuxPane
  {
    let command =
      "env -u NO_COLOR LANG=C.UTF-8 TERM=xterm-256color \(environment) \(TmuxEndToEndTests.binary) --db \(database) \(arguments); echo DOCKET-EXITED=$?; sleep 30"
    // A server of its own each time: a server being shut down must not take a new pane with it.
    let own = folder.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
    return try TmuxPane(command: command, columns: columns, rows: 30, folder: own)
  }

  /// The screen with its styles as escape sequences (`capture-pane -e`).
  func styledScreen(_ pane: TmuxPane) throws -> String {
    try pane.tmux(["capture-pane", "-p", "-e", "-t", "docket"], capture: true)
  }

  /// The SGR parameters on a screen that set a colour (30–38, 40–48, 90–97, 100–107).
  static func colourParameters(_ screen: String) -> [String] {
    var found: [String] = []
    var rest = Substring(screen)
    while let start = rest.range(of: "\u{1B}[") {
      rest = rest[start.upperBound...]
      guard let end = rest.firstIndex(of: "m") else { break }
      for parameter in rest[..<end].split(separator: ";") {
        guard let number = Int(parameter) else { continue }
        // 39 and 49 put the terminal's own colours back: they are no colour.
        if (30...38).contains(number) || (40...48).contains(number) || (90...97).contains(number)
          || (100...107).contains(number)
        {
          found.append(String(parameter))
        }
      }
      rest = rest[end...]
    }
    return found
  }

  @Test func noColorMeansNoColourOnScreenButAttributesStay() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try docket(["sample-data"])
    let coloured = try pane()
    try coloured.waitFor("Fix login layout")
    let colouredScreen = try styledScreen(coloured)
    #expect(
      !Self.colourParameters(colouredScreen).isEmpty,
      "the control: colour shows \(colouredScreen.debugDescription.prefix(600))")
    try coloured.press("q")
    try coloured.waitFor("DOCKET-EXITED")
    try coloured.tmux(["kill-server"])

    let plain = try pane(environment: "NO_COLOR=1")
    try plain.waitFor("Fix login layout")
    let screen = try styledScreen(plain)
    #expect(Self.colourParameters(screen).isEmpty, "colour codes: \(Self.colourParameters(screen))")
    #expect(screen.contains("\u{1B}[7m"), "reverse video (the selection, the bars) stays")
    try plain.press("q")
    try plain.waitFor("DOCKET-EXITED")
    try plain.tmux(["kill-server"])

    let contrast = try pane(arguments: "--theme high-contrast")
    try contrast.waitFor("Fix login layout")
    #expect(Self.colourParameters(try styledScreen(contrast)).isEmpty)
    try contrast.press("q")
    try contrast.waitFor("DOCKET-EXITED")
  }

  @Test func hostileTextIsShownAsPlaceholders() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try docket([
      "add", "Evil \u{1B}]52;c;aGVsbG8=\u{07} title \u{1B}[31mred \u{9B}2J \u{202E}txet",
      "--detail", "line\u{1B}[2J two",
    ])
    let pane = try pane(columns: 220)
    try pane.waitFor("Evil ␛]52;c;aGVsbG8=␇ title ␛[31mred")
    // Opened in the detail pane, whole.
    try pane.press("j")
    try pane.waitFor("Evil ␛]52;c;aGVsbG8=␇ title ␛[31mred �2J �txet")
    // The title is drawn as text: no red from the data, no cleared screen, the pane intact.
    let screen = try styledScreen(pane)
    #expect(!screen.contains("\u{1B}]52"))
    #expect(try pane.screen().contains("Docket"))
    try pane.press("q")
    try pane.waitFor("DOCKET-EXITED")
  }

  /// The app's process in `pane` (the pane runs a shell; the app is its child).
  func appProcess(in pane: TmuxPane) throws -> Int32 {
    let shell = try pane.tmux(
      ["display-message", "-p", "-t", "docket", "#{pane_pid}"], capture: true
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    let children = try String(
      contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8
    ).split(separator: " ")
    return try #require(children.first.flatMap { Int32($0) })
  }

  /// The terminal going away (the multiplexer shut down) ends the app: it neither waits for a
  /// terminal nobody reads nor lingers.
  @Test func aHangUpEndsTheApp() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try docket(["add", "Still here"])
    let pane = try pane()
    try pane.waitFor("Still here")
    let app = try appProcess(in: pane)
    try pane.tmux(["kill-server"])
    // The hang-up a terminal sends as it goes (sent here as well: whether the kernel passes it on
    // to the app depends on the shell the pane ran).
    kill(app, SIGHUP)
    // Gone, or a zombie nobody has reaped yet (its shell went with the terminal).
    func isRunning() -> Bool {
      guard let stat = try? String(contentsOfFile: "/proc/\(app)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
    var alive = true
    for _ in 0..<100 where alive {
      Thread.sleep(forTimeInterval: 0.05)
      alive = isRunning()
    }
    let status = (try? String(contentsOfFile: "/proc/\(app)/status", encoding: .utf8)) ?? ""
    #expect(
      !alive,
      "the app outlived its terminal: \(status.split(separator: "\n").filter { $0.hasPrefix("Sig") || $0.hasPrefix("State") })"
    )
    if alive { kill(app, SIGKILL) }
  }

  /// `x` while another program holds the write lock, then SIGTERM: the app waits for the write
  /// to land before it ends (the lock is let go after a second).
  @Test func sigtermWaitsForAWriteInFlight() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try docket(["add", "Finish me"])
    let pane = try pane()
    try pane.waitFor("Finish me")
    try pane.press("j")
    try pane.waitFor("Priority:")
    let other = try DocketDatabase.connection(path: database)
    try other.execute("BEGIN IMMEDIATE")
    try pane.press("x")
    Thread.sleep(forTimeInterval: 0.3)
    kill(try appProcess(in: pane), SIGTERM)
    Thread.sleep(forTimeInterval: 1)
    try other.execute("COMMIT")
    try pane.waitFor("DOCKET-EXITED=0")
    let check = try DocketDatabase.connection(path: database)
    let completed = try check.fetchOne("SELECT completed FROM issues", as: Bool.self)
    #expect(completed == true)
  }
}
