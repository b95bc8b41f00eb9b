import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue`, so that a client that asks before sending
/// a large body (curl does for bodies over 1 MiB) sends it at once instead of waiting a second
/// for an answer that Hummingbird never gives.
///
/// A channel handler, not a router middleware: Hummingbird 2 writes no interim response itself,
/// and a middleware cannot write one (the request context does not reach the channel), but an
/// extra handler in the HTTP/1 pipeline (`HTTP1Channel.Configuration.additionalChannelHandlers`)
/// sees each request head before the router does and each response part on its way out, and
/// can write an informational head ahead of a response. NIO's encoder frames a 1xx head as
/// interim: no body, and the final response still follows.
///
/// - A request whose `Content-Length` is over the upload limit gets no `100 Continue`: the upload
///   route refuses it from the header alone (413), so the client is told before it sends the
///   body, which is what the expectation is for (RFC 9110 §10.1.1). Any other request is told to
///   go on; the routes still apply every check (the token, the route, the limit while reading)
///   once the body comes.
/// - Responses on a connection go out in the order of the requests, so a pipelined request's
///   `100 Continue` waits until the responses to the requests before it are written: sent
///   earlier, the client would read it as the answer to one of those.
final class ExpectContinueHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  /// The largest body a request may declare and still be told to send it.
  let maxBodyBytes: Int
  /// The requests read whose final response is not written yet, oldest first: whether each
  /// still waits for its `100 Continue`.
  private var unanswered: [Bool] = []

  init(maxBodyBytes: Int) {
    self.maxBodyBytes = maxBodyBytes
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head(let request) = unwrapInboundIn(data) {
      unanswered.append(Self.shouldContinue(request, maxBodyBytes: maxBodyBytes))
      if unanswered.count == 1 { continueOldestIfWaiting(context: context) }
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let part = unwrapOutboundIn(data)
    context.write(data, promise: promise)
    // A response ends: the next request's turn.
    if case .end = part, !unanswered.isEmpty {
      unanswered.removeFirst()
      continueOldestIfWaiting(context: context)
    }
  }

  private func continueOldestIfWaiting(context: ChannelHandlerContext) {
    guard unanswered.first == true else { return }
    unanswered[0] = false
    context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
  }

  /// The request expects `100-continue` (the field's value is case-insensitive and may list more
  /// than one expectation) and declares no body over the limit.
  static func shouldContinue(_ request: HTTPRequest, maxBodyBytes: Int) -> Bool {
    guard let expect = request.headerFields[.expect] else { return false }
    let expectations = expect.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
    guard expectations.contains("100-continue") else { return false }
    if let declared = request.headerFields[.contentLength].flatMap({ Int($0) }), declared > maxBodyBytes {
      return false
    }
    return true
  }
}
