import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Just enough HTTP/1.1 to talk to a `snapdiff serve` this process started on 127.0.0.1: one
/// request per connection (`Connection: close`), the whole answer read.
enum LoopbackHTTP {
  struct Response {
    var status: Int
    var body: [UInt8]
  }

  /// Sends `method path` with a JSON `body` and the bearer `token`.
  ///
  /// - Throws: `FileError` naming the address when it cannot be reached or answers nonsense.
  static func send(_ method: String, port: Int, path: String, json body: String?, token: String?) throws -> Response {
    let address = "http://127.0.0.1:\(port)\(path)"
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw FileError(path: address, message: "cannot open a socket") }
    defer { close(socketFD) }
    var socketAddress = sockaddr_in()
    socketAddress.sin_family = sa_family_t(AF_INET)
    socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
    socketAddress.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      throw FileError(path: address, message: "cannot connect: \(String(cString: strerror(errno)))")
    }

    let payload = Array((body ?? "").utf8)
    var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    if let token { request += "Authorization: Bearer \(token)\r\n" }
    if body != nil { request += "Content-Type: application/json\r\n" }
    request += "Content-Length: \(payload.count)\r\n\r\n"
    let bytes = Array(request.utf8) + payload
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { write(socketFD, $0.baseAddress, $0.count) }
      guard count > 0 else { throw FileError(path: address, message: "the connection closed while sending") }
      sent += count
    }

    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(socketFD, &buffer, buffer.count)
      if count <= 0 { break }
      answer += buffer[0..<count]
    }
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let end = (0..<max(answer.count - 3, 0)).first(where: { Array(answer[$0..<$0 + 4]) == separator }) else {
      throw FileError(path: address, message: "answered no HTTP response")
    }
    let head = String(decoding: answer[..<end], as: UTF8.self)
    let statusLine = head.split(separator: "\r\n").first.map(String.init) ?? ""
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else {
      throw FileError(path: address, message: "answered '\(statusLine)', not an HTTP status")
    }
    var payloadBytes = Array(answer[(end + 4)...])
    if head.lowercased().contains("transfer-encoding: chunked") { payloadBytes = dechunked(payloadBytes) }
    return Response(status: status, body: payloadBytes)
  }

  /// A chunked body's data.
  private static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
      guard let lineEnd = (index..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
        let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16),
        size > 0
      else { break }
      let start = lineEnd + 2
      result += bytes[start..<min(start + size, bytes.count)]
      index = start + size + 2
    }
    return result
  }
}
