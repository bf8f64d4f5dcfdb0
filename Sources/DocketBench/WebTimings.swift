import Foundation
import Terminal

/// `docket serve` under load: the list page at the database's size with eight clients (wrk),
/// and 200 open live pages: the server's idle CPU and memory with them, and how long a change
/// takes to reach all of them.
@MainActor
func webTimings(database path: String, size: Int) {
  guard let binary = docketBinary() else { return }
  guard
    let wrk = ["/usr/bin/wrk", "/opt/homebrew/bin/wrk", "/usr/local/bin/wrk"]
      .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
  else {
    FileHandle.standardError.write(Data("no wrk: the web timings are left out\n".utf8))
    return
  }
  let folder = (path as NSString).deletingLastPathComponent
  let output = folder + "/serve-\(getpid()).txt"
  defer { try? FileManager.default.removeItem(atPath: output) }
  guard let server = BenchServer(binary: binary, database: path, output: output) else {
    FileHandle.standardError.write(Data("docket serve did not start\n".utf8))
    return
  }
  defer { server.stop() }

  // The list page, eight connections kept alive, for five seconds.
  let report = folder + "/wrk-\(getpid()).txt"
  defer { try? FileManager.default.removeItem(atPath: report) }
  let load = timeProcess(
    wrk,
    [
      "-t", "2", "-c", "8", "-d", "5s", "--latency", "-H", "Cookie: \(server.cookie)",
      "http://127.0.0.1:\(server.port)/",
    ], outputPath: report)
  if load.status == 0, let text = try? String(contentsOfFile: report, encoding: .utf8),
    let median = WrkReport.milliseconds(after: "50%", in: text),
    let worst = WrkReport.worst(in: text)
  {
    let requests = WrkReport.requests(in: text) ?? 0
    // wrk's median and its slowest request, as the table's median and worst.
    table.add(
      name: "web: list page, 8 clients (wrk, \(requests) requests)", size: size,
      samples: [median, median, worst], budget: 5)
  } else {
    FileHandle.standardError.write(Data("wrk failed (status \(load.status))\n".utf8))
  }

  // The same page drawn afresh each time (an unknown parameter makes every address new, so no
  // kept page answers), one client: what a page costs when the data has just changed.
  var fresh: [Double] = []
  for index in 0..<31 {
    let start = ContinuousClock.now
    guard server.fetch("/?fresh=\(index)") else { break }
    let elapsed = ContinuousClock.now - start
    fresh.append(
      Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
  }
  if fresh.count == 31 {
    table.add(
      name: "web: list page drawn afresh (1 client)", size: size, samples: fresh, budget: nil)
  }

  // 200 live pages.
  var streams: [Int32] = []
  defer { for socket in streams { close(socket) } }
  for _ in 0..<200 {
    guard let socket = server.openEvents() else { break }
    streams.append(socket)
  }
  guard streams.count == 200 else {
    FileHandle.standardError.write(Data("only \(streams.count) live pages opened\n".utf8))
    return
  }
  Thread.sleep(forTimeInterval: 0.5)
  let cpuBefore = server.cpuSeconds()
  Thread.sleep(forTimeInterval: 3)
  let idle = (server.cpuSeconds() - cpuBefore) / 3 * 100
  memory.append(("docket serve with 200 live pages", server.residentMiB(), 100))
  webLines.append(
    String(format: "docket serve with 200 live pages, idle for 3 s: %.2f %% of one core", idle))

  // A change made by another process reaches every page.
  var samples: [Double] = []
  for round in 0..<5 {
    let start = ContinuousClock.now
    _ = timeProcess(binary, ["tag", "add", "Live \(getpid())-\(round)", "--db", path])
    var waiting = Set(streams)
    let deadline = start + .seconds(5)
    while !waiting.isEmpty && ContinuousClock.now < deadline {
      var fds = waiting.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      _ = poll(&fds, nfds_t(fds.count), 100)
      for entry in fds where entry.revents & Int16(POLLIN) != 0 {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(entry.fd, &buffer, buffer.count)
        if count > 0, String(decoding: buffer[0..<count], as: UTF8.self).contains("event: change") {
          waiting.remove(entry.fd)
        }
      }
    }
    let elapsed = ContinuousClock.now - start
    samples.append(
      waiting.isEmpty
        ? Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        : .infinity)
    _ = timeProcess(binary, ["tag", "delete", "Live \(getpid())-\(round)", "--yes", "--db", path])
    Thread.sleep(forTimeInterval: 0.3)
    // Drain the deletion's event.
    for socket in streams {
      var buffer = [UInt8](repeating: 0, count: 4096)
      var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      while poll(&entry, 1, 0) > 0, read(socket, &buffer, buffer.count) > 0 {}
    }
  }
  table.add(
    name: "web: a change (docket tag add) reaches 200 live pages", size: size, samples: samples,
    budget: 1000, worstBudget: 1000)
}

/// `docket serve --port 0` on a database, its URL read from what it prints.
struct BenchServer {
  let pid: pid_t
  let port: UInt16
  let token: String
  /// `name=value` of the cookie the token was exchanged for.
  var cookie = ""

  init?(binary: String, database: String, output: String) {
    guard
      let pid = try? SpawnedProgram.start(
        binary, ["serve", "--port", "0", "--db", database], output: output)
    else { return nil }
    self.pid = pid
    for _ in 0..<200 {
      if let text = try? String(contentsOfFile: output, encoding: .utf8),
        let match = text.firstMatch(of: /127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/),
        let port = UInt16(match.1)
      {
        self.port = port
        self.token = String(match.2)
        guard let cookie = signIn() else { break }
        self.cookie = cookie
        return
      }
      usleep(50_000)
    }
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return nil
  }

  func stop() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
  }

  /// Exchanges the token for the cookie, as a browser does on the first request.
  func signIn() -> String? {
    guard let socket = connected() else { return nil }
    defer { close(socket) }
    let request =
      "GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
    guard write(socket, request, request.utf8.count) > 0 else { return nil }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(socket, &buffer, buffer.count)
      if count <= 0 { break }
      answer += buffer[0..<count]
    }
    let text = String(decoding: answer, as: UTF8.self)
    guard let line = text.split(separator: "\r\n").first(where: { $0.hasPrefix("Set-Cookie: ") })
    else { return nil }
    return String(line.dropFirst("Set-Cookie: ".count).prefix { $0 != ";" })
  }

  func connected() -> Int32? {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(socket)
      return nil
    }
    return socket
  }

  /// Asks for `path` and reads the whole answer; false when it failed.
  func fetch(_ path: String) -> Bool {
    guard let socket = connected() else { return false }
    defer { close(socket) }
    let request =
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n"
    guard write(socket, request, request.utf8.count) > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 65536)
    var total = 0
    while true {
      let count = read(socket, &buffer, buffer.count)
      if count <= 0 { break }
      total += count
    }
    return total > 0
  }

  /// A connection to /events that has read the stream's first lines.
  func openEvents() -> Int32? {
    guard let socket = connected() else { return nil }
    let request =
      "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n\r\n"
    guard write(socket, request, request.utf8.count) > 0 else {
      close(socket)
      return nil
    }
    var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    var buffer = [UInt8](repeating: 0, count: 4096)
    guard poll(&entry, 1, 5000) > 0, read(socket, &buffer, buffer.count) > 0 else {
      close(socket)
      return nil
    }
    return socket
  }

  /// User and system CPU time so far, from /proc (Linux).
  func cpuSeconds() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = text.lastIndex(of: ")")
    else { return 0 }
    let fields = text[text.index(after: end)...].split(separator: " ")
    // After the name: state is field 3; utime and stime are fields 14 and 15.
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The resident memory now, from /proc (Linux).
  func residentMiB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kib / 1024
  }
}

/// Figures from wrk's report.
enum WrkReport {
  /// `50%    1.23ms` → 1.23.
  static func milliseconds(after label: String, in text: String) -> Double? {
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2, parts[0] == label { return milliseconds(String(parts[1])) }
    }
    return nil
  }

  /// The Max column of the `Latency` line.
  static func worst(in text: String) -> Double? {
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count >= 4, parts[0] == "Latency" { return milliseconds(String(parts[3])) }
    }
    return nil
  }

  /// `12345 requests in 5.00s` → 12345.
  static func requests(in text: String) -> Int? {
    for line in text.split(separator: "\n") where line.contains("requests in") {
      return Int(line.split(separator: " ").first ?? "")
    }
    return nil
  }

  static func milliseconds(_ value: String) -> Double? {
    for (unit, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where value.hasSuffix(unit) {
      return Double(value.dropLast(unit.count)).map { $0 * factor }
    }
    return nil
  }
}
