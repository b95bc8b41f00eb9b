import Hummingbird

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The context of one request: Hummingbird's core storage, whether the client is on this
/// machine (for writes without a token), and the JSON body limit.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct ServerRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The client connected over loopback or a Unix socket, or (in router tests) over no socket.
  public let clientIsLocal: Bool
  /// The largest JSON body Hummingbird's own decoding accepts (the routes read theirs with
  /// `JSONBody`, under `UploadLimits.json`).
  public var maxUploadSize: Int { UploadLimits.json }
  /// JSON with sorted keys and plain slashes, so that responses are stable and readable.
  public var responseEncoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    let address = source.channel.remoteAddress
    if let ip = address?.ipAddress {
      clientIsLocal = ServerConfiguration.isLoopback(host: ip)
    } else {
      // A Unix domain socket, or no socket at all (the router test framework): nothing remote.
      clientIsLocal = true
    }
  }
}
