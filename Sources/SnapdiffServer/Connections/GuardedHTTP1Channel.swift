import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 child channel with a ``ConnectionGuard`` around each connection: its
/// bytes handler first in the pipeline (below the HTTP decoder), its parts handler with the
/// other additional handlers (after it).
@available(macOS 14, iOS 17, tvOS 17, *)
struct GuardedHTTP1Channel: ServerChildChannel {
  typealias Value = HTTP1Channel.Value

  let responder: HTTPChannelHandler.Responder
  let configuration: HTTP1Channel.Configuration
  let registry: ConnectionRegistry
  let headerTimeout: TimeAmount
  let idleTimeout: TimeAmount

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let guarded = ConnectionGuard(headerTimeout: headerTimeout, idleTimeout: idleTimeout, registry: registry)
    do {
      try channel.pipeline.syncOperations.addHandler(ConnectionGuard.BytesHandler(guarded))
    } catch {
      return channel.eventLoop.makeFailedFuture(error)
    }
    // Built on this event loop and read back on it, in `HTTP1Channel.setup`.
    let bound = NIOLoopBound(guarded, eventLoop: channel.eventLoop)
    let others = configuration.additionalChannelHandlers
    var configuration = configuration
    configuration.additionalChannelHandlers = { others() + [ConnectionGuard.PartsHandler(bound.value)] }
    return HTTP1Channel(responder: responder, configuration: configuration).setup(channel: channel, logger: logger)
  }

  func handle(value: Value, logger: Logger) async {
    await HTTP1Channel(responder: responder, configuration: configuration).handle(value: value, logger: logger)
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension HTTPServerBuilder {
  /// HTTP/1 with the connection guard: `configuration`'s handlers, the header and idle
  /// timeouts, and `registry`'s cap.
  static func guardedHTTP1(
    configuration: HTTP1Channel.Configuration, registry: ConnectionRegistry, headerTimeout: Duration,
    idleTimeout: Duration
  ) -> HTTPServerBuilder {
    .init { responder in
      GuardedHTTP1Channel(
        responder: responder, configuration: configuration, registry: registry,
        headerTimeout: TimeAmount(headerTimeout), idleTimeout: TimeAmount(idleTimeout))
    }
  }
}
