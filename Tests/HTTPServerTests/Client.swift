import Foundation

/// A test's way to talk to the server over a real socket: one request written by hand, the
/// answer read until the server closes the connection (the request asks it to).
struct RawClient {
  let port: UInt16
  /// The IPv4 address connected to.
  var host = "127.0.0.1"

  struct Answer {
    var status: Int
    var headers: [String: String]
    var body: String
  }

  /// Sends `text` as it is (the request line, headers and body) and reads the whole answer.
  func send(_ text: String, readAtMost: Int = 1 << 22) throws -> Answer {
    let raw = try exchange(Array(text.utf8), readAtMost: readAtMost)
    let textAnswer = String(decoding: raw, as: UTF8.self)
    guard let split = textAnswer.range(of: "\r\n\r\n") else {
      throw ClientError.malformed(textAnswer)
    }
    let head = textAnswer[..<split.lowerBound].components(separatedBy: "\r\n")
    let statusLine = head.first?.split(separator: " ") ?? []
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw ClientError.malformed(textAnswer)
    }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return Answer(
      status: status, headers: headers, body: String(textAnswer[split.upperBound...]))
  }

  /// Opens a connection, writes `request`, and reads at most `readAtMost` bytes or until the
  /// server closes; gives up after five seconds of silence.
  func exchange(_ request: [UInt8], readAtMost: Int) throws -> [UInt8] {
    let socket = try connected()
    defer { close(socket) }
    try request.withUnsafeBytes { buffer in
      var sent = 0
      while sent < buffer.count {
        let count = write(socket, buffer.baseAddress! + sent, buffer.count - sent)
        guard count > 0 else { throw ClientError.io(errno) }
        sent += count
      }
    }
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while answer.count < readAtMost {
      let count = read(socket, &chunk, chunk.count)
      if count <= 0 { break }
      answer += chunk[0..<count]
    }
    return answer
  }

  /// A connection with a five-second read timeout.
  func connected() throws -> Int32 {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ClientError.io(errno) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(
      socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr(host)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(socket)
      throw ClientError.io(errno)
    }
    return socket
  }
}

enum ClientError: Error {
  case io(Int32)
  case malformed(String)
}
