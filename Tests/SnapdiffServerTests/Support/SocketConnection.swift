import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP/1.1 connection to 127.0.0.1 driven a step at a time: send some bytes, read one head,
/// read one response framed by its `Content-Length`, or everything until the server closes. Reads
/// give up after `timeout` seconds.
final class SocketConnection {
  private var descriptor: Int32
  private var buffered: [UInt8] = []

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let timeout: Int

  init(port: Int, timeout: Int = 10) throws {
    self.timeout = timeout
    #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close()
      throw Failure(description: "connect to 127.0.0.1:\(port): \(errno)")
    }
  }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      #if canImport(Glibc)
        let sent = bytes.withUnsafeBytes {
          Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        }
      #else
        let sent = bytes.withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, 0) }
      #endif
      guard sent > 0 else { throw Failure(description: "send: \(errno)") }
      offset += sent
    }
  }

  /// The next response head, up to its blank line (without it); `what` names it in errors.
  func readHead(_ what: String) throws -> String {
    let end = Array("\r\n\r\n".utf8)
    while true {
      if let index = Self.find(end, in: buffered) {
        let head = String(decoding: buffered[..<index], as: UTF8.self)
        buffered.removeFirst(index + end.count)
        return head
      }
      try fill("\(what) (so far: \(String(decoding: buffered, as: UTF8.self)))")
    }
  }

  /// The next final response: its head and its `Content-Length` body as text.
  func readResponse(_ what: String) throws -> (head: String, body: String) {
    let head = try readHead(what)
    let lengthLine = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
    let length = lengthLine.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
    while buffered.count < length { try fill("\(length) bytes of body of \(what)") }
    let body = String(decoding: buffered[..<length], as: UTF8.self)
    buffered.removeFirst(length)
    return (head, body)
  }

  /// Everything the server sends until it closes the connection (or goes quiet for `timeout`).
  func readToEnd() -> [UInt8] {
    while (try? fill("the end")) != nil {}
    defer { buffered = [] }
    return buffered
  }

  /// Whether the server has sent something (or closed) within `milliseconds`.
  func isReadable(within milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds) > 0
  }

  /// Waits until the server closes the connection: `closed` is false when it was still open
  /// after the socket's timeout; `received` is what it sent before.
  func waitForClose() -> (closed: Bool, received: [UInt8]) {
    var closed = false
    while true {
      do {
        try fill("the end")
      } catch {
        closed = (error as? Failure)?.description.hasPrefix("the server closed") == true
        break
      }
    }
    defer { buffered = [] }
    return (closed, buffered)
  }

  private func fill(_ waitingFor: String) throws {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
    let failure = errno
    guard count > 0 else {
      if count == 0 { throw Failure(description: "the server closed while waiting for \(waitingFor)") }
      if failure == ECONNRESET {
        throw Failure(description: "the server closed (reset) while waiting for \(waitingFor)")
      }
      throw Failure(description: "nothing within \(timeout) s while waiting for \(waitingFor)")
    }
    buffered += chunk[..<count]
  }

  func close() {
    guard descriptor >= 0 else { return }
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
    descriptor = -1
  }

  private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    for start in 0...(bytes.count - pattern.count) where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
      return start
    }
    return nil
  }
}
