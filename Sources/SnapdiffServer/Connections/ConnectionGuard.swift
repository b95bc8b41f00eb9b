import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// One connection's deadlines and its place under the connection cap.
///
/// A connection is always in one of four phases, and each has its own deadline:
///
/// | phase | deadline |
/// |---|---|
/// | waiting for a request (just connected, or after a response: keep-alive) | `idleTimeout` after the last response (or the connect) |
/// | receiving a request's head (its first byte has come) | `headerTimeout` after that first byte: then 408 and close |
/// | receiving a request's body | `idleTimeout` after the last byte read: a body shorter than its `Content-Length` ends here |
/// | the server answering | none: the work may queue for the workers, and that is the server's doing |
///
/// Hummingbird's own `idleTimeout` counts from the last *decoded* part, so a head sent a byte at
/// a time was only cut off at the idle timeout, and a first byte cannot be seen above the HTTP
/// decoder. So the guard has two handlers that share it: ``BytesHandler``, first in the pipeline,
/// sees raw bytes (the first byte of a head; every byte of a body), and ``PartsHandler``, after
/// the decoder, sees request heads and ends and response ends. Both run on the connection's event
/// loop, so the guard needs no lock; ``ConnectionRegistry`` (shared by all connections) has one.
final class ConnectionGuard {
  private let headerTimeout: TimeAmount
  private let idleTimeout: TimeAmount
  private let registry: ConnectionRegistry
  private let id: ConnectionRegistry.ID

  /// A request's head has come and its end not yet.
  private var readingRequest = false
  /// Requests whose head has come and whose response has not ended.
  private var requestsOpen = 0
  /// When the first byte of a head not yet decoded came (or, for a head pipelined behind a
  /// request the server was still answering, when that answer ended).
  private var headStartedAt: NIODeadline?
  /// The last byte read, and the last response ended (or the connect).
  private var lastRead = NIODeadline.now()
  private var lastAnswered = NIODeadline.now()

  private var bytesContext: ChannelHandlerContext?
  private var timer: Scheduled<Void>?
  private var timerDeadline: NIODeadline?

  init(headerTimeout: TimeAmount, idleTimeout: TimeAmount, registry: ConnectionRegistry) {
    self.headerTimeout = headerTimeout
    self.idleTimeout = idleTimeout
    self.registry = registry
    self.id = registry.makeID()
  }

  /// The deadline of the phase the connection is in; `nil` while the server answers.
  private var deadline: NIODeadline? {
    if readingRequest { return lastRead + idleTimeout }
    if requestsOpen > 0 { return nil }
    if let headStartedAt { return headStartedAt + headerTimeout }
    return lastAnswered + idleTimeout
  }

  /// Whether the connection may be closed to make room for a new one: no request in progress.
  private var isEvictable: Bool { !readingRequest && requestsOpen == 0 }

  // MARK: Events

  /// The connection is accepted: it takes its place under the cap, or is answered 503 (every
  /// place holds a request in progress) and closed.
  private func opened(context: ChannelHandlerContext) {
    bytesContext = context
    let channel = context.channel
    guard registry.admit(id, channel: channel) else {
      var refusal = context.channel.allocator.buffer(capacity: 128)
      refusal.writeString(
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
      context.writeAndFlush(NIOAny(refusal), promise: nil)
      context.close(promise: nil)
      return
    }
    let registry = registry
    let id = id
    channel.closeFuture.whenComplete { _ in registry.remove(id) }
    reschedule(context.eventLoop)
  }

  private func bytesArrived(eventLoop: any EventLoop) {
    lastRead = .now()
    if !readingRequest && headStartedAt == nil {
      headStartedAt = lastRead
      reschedule(eventLoop)
    }
    // While a body comes, the deadline moves with every read; the timer finds it when it fires.
  }

  private func headArrived(eventLoop: any EventLoop) {
    readingRequest = true
    requestsOpen += 1
    headStartedAt = nil
    lastRead = .now()
    registry.setEvictable(id, false)
    reschedule(eventLoop)
  }

  private func requestEnded(eventLoop: any EventLoop) {
    readingRequest = false
    reschedule(eventLoop)
  }

  private func responseEnded(eventLoop: any EventLoop) {
    requestsOpen = max(0, requestsOpen - 1)
    lastAnswered = .now()
    // A head pipelined behind this request gets its full time from now, when the server turns to it.
    if headStartedAt != nil { headStartedAt = lastAnswered }
    if isEvictable { registry.setEvictable(id, true) }
    reschedule(eventLoop)
  }

  // MARK: The timer

  /// Makes sure the timer fires no later than the current deadline (it fires early when the
  /// deadline has moved later since; ``fired(_:)`` then sets it again).
  private func reschedule(_ eventLoop: any EventLoop) {
    guard let deadline else {
      timer?.cancel()
      timer = nil
      timerDeadline = nil
      return
    }
    if let timerDeadline, timerDeadline <= deadline { return }
    timer?.cancel()
    timerDeadline = deadline
    timer = eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in fired(eventLoop) }
  }

  private func fired(_ eventLoop: any EventLoop) {
    timer = nil
    timerDeadline = nil
    guard let deadline else { return }
    guard deadline <= .now() else {
      reschedule(eventLoop)
      return
    }
    guard let context = bytesContext else { return }
    if headStartedAt != nil && requestsOpen == 0 && !readingRequest {
      // A head that did not come in time: nothing else is being written, so the answer can go
      // out as bytes, below the HTTP encoder.
      var answer = context.channel.allocator.buffer(capacity: 128)
      answer.writeString("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
      context.writeAndFlush(NIOAny(answer), promise: nil)
    }
    context.close(promise: nil)
  }

  private func stopped() {
    timer?.cancel()
    timer = nil
    bytesContext = nil
    registry.remove(id)
  }

  // MARK: The two handlers

  /// First in the pipeline: raw bytes in (for the first byte of a head and the bytes of a body),
  /// and the place from which a 408 or 503 is written as bytes.
  final class BytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let guarded: ConnectionGuard

    init(_ guarded: ConnectionGuard) { self.guarded = guarded }

    func handlerAdded(context: ChannelHandlerContext) {
      // The server adds its child channels' handlers once they are accepted, hence active.
      if context.channel.isActive { guarded.opened(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
      if guarded.bytesContext == nil { guarded.opened(context: context) }
      context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guarded.bytesArrived(eventLoop: context.eventLoop)
      context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
      guarded.stopped()
      context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { guarded.stopped() }
  }

  /// After the HTTP decoder: request heads and ends in, response ends out.
  final class PartsHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let guarded: ConnectionGuard

    init(_ guarded: ConnectionGuard) { self.guarded = guarded }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head: guarded.headArrived(eventLoop: context.eventLoop)
      case .body: break
      case .end: guarded.requestEnded(eventLoop: context.eventLoop)
      }
      context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
      let isEnd: Bool
      if case .end = unwrapOutboundIn(data) { isEnd = true } else { isEnd = false }
      context.write(data, promise: promise)
      if isEnd { guarded.responseEnded(eventLoop: context.eventLoop) }
    }
  }
}
