import Foundation
import SnapdiffWire

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why a request to the snapdiff service failed, worded for the test log: which service, what
/// was asked, and what to do about it.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  /// The HTTP status the service answered with (nil when it never answered).
  public var status: Int?

  public init(_ message: String, status: Int? = nil) {
    self.message = message
    self.status = status
  }

  public var description: String { message }

  /// The service could not be reached at all: refused, unknown host, timed out.
  init(unreachable baseURL: String, method: String, path: String, error: any Error) {
    let reason: String
    if let error = error as? URLError {
      switch error.code {
      case .cannotConnectToHost: reason = "nothing is listening there (connection refused)"
      case .cannotFindHost, .dnsLookupFailed: reason = "the host name is not known"
      case .timedOut: reason = "no answer in time"
      case .networkConnectionLost: reason = "the connection was closed before the answer"
      case .notConnectedToInternet: reason = "the network is down"
      default: reason = error.localizedDescription
      }
    } else {
      reason = "\(error)"
    }
    self.init(
      "the snapdiff service at \(baseURL) is not reachable (\(method) \(path)): \(reason). "
        + "Start it with `snapdiff serve`, or point SNAPDIFF_SERVICE_URL at a running one.")
  }

  /// The service answered with an error status; its JSON message (`{"error": {"message": …}}`)
  /// is quoted.
  init(refused response: ServiceClient.Response, method: String, url: String, hasToken: Bool) {
    let said =
      (try? JSONDecoder().decode(ErrorResponse.self, from: response.body).error.message)
      ?? String(decoding: response.body.prefix(300), as: UTF8.self)
    var message = "the snapdiff service refused \(method) \(url): \(response.status) \(said)"
    if response.status == 401 && !hasToken {
      message += " (set SNAPDIFF_TOKEN to the service's token)"
    } else if response.status == 403 && hasToken {
      message += " (check SNAPDIFF_TOKEN)"
    }
    self.init(message, status: response.status)
  }
}
