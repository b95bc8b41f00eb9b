import Foundation
import SnapdiffServer
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the application on 127.0.0.1 with a free port while `body` runs.
@available(macOS 14, iOS 17, tvOS 17, *)
func withLoopbackServer(_ configuration: ServerConfiguration, _ body: @Sendable (Int) async throws -> Void)
  async throws
{
  var configuration = configuration
  configuration.host = "127.0.0.1"
  configuration.port = 0
  let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
  configuration.onServerRunning = { port in continuation.yield(port) }
  let app = try await buildApplication(configuration)
  let server = Task { try await app.run() }
  Task {
    _ = await server.result
    continuation.finish()
  }
  var iterator = ports.makeAsyncIterator()
  do {
    let port = try #require(await iterator.next(), "the server did not start")
    try await body(port)
  } catch {
    server.cancel()
    _ = await server.result
    throw error
  }
  server.cancel()
  _ = await server.result
}

/// HTTP/1.1 over a blocking socket to 127.0.0.1: the whole request as bytes, the response read
/// until the server closes.
enum RawHTTP {
  struct Response {
    var status: Int
    var head: String
    var body: String
  }

  static func send(_ request: String, port: Int) throws -> Response { try send(Array(request.utf8), port: port) }

  static func send(_ request: [UInt8], port: Int) throws -> Response {
    let connection = try SocketConnection(port: port, timeout: 20)
    defer { connection.close() }
    // Send what the server takes; it may answer and close before the body is all sent.
    try? connection.send(request)
    let received = connection.readToEnd()
    let text = String(decoding: received, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    let head = parts.first ?? ""
    let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return Response(status: status, head: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
  }
}
