import Hummingbird
import SnapdiffCore

/// An error the API answers with: a status and a message, sent as
/// `{"error": {"message": "…", "status": 422}}`.
///
/// Domain errors map to statuses in ``init(_:)``: a refused snapshot key, a frame that is not a
/// PNG, a bad element tree or settings are 422; everything unexpected is 500.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct APIError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
  public var status: HTTPResponse.Status
  public var message: String
  /// Extra headers (`WWW-Authenticate` on a 401).
  public var headers: HTTPFields = [:]

  public init(_ status: HTTPResponse.Status, _ message: String) {
    self.status = status
    self.message = message
  }

  public var description: String { "\(status.code) \(message)" }

  /// 400: the request is malformed.
  static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }
  /// 404: no such run, snapshot, image or route.
  static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }
  /// 409: the run's state forbids it (closed, nothing to review).
  static func conflict(_ message: String) -> APIError { APIError(.conflict, message) }
  /// 413: `what` (the request body, a part) is over its limit, which `option` sets.
  static func tooLarge(_ what: String, limit: Int, option: String?) -> APIError {
    APIError(
      .contentTooLarge, "\(what) is larger than its limit of \(Self.bytes(limit))" + (option.map { " (\($0))" } ?? ""))
  }
  /// 415: a body of a kind this route does not take.
  static func unsupportedMediaType(_ message: String) -> APIError { APIError(.unsupportedMediaType, message) }
  /// 422: well-formed, but not a usable frame, tree, settings or key.
  static func unprocessable(_ message: String) -> APIError { APIError(.unprocessableContent, message) }
  /// 401: a token is needed and none was sent.
  static func unauthorized(_ message: String) -> APIError {
    var error = APIError(.unauthorized, message)
    error.headers[.wwwAuthenticate] = "Bearer realm=\"snapdiff\""
    return error
  }
  /// 503 with `Retry-After`: the database cannot be reached now; the same request may succeed
  /// once it is back.
  static func unavailable(_ message: String) -> APIError {
    var error = APIError(.serviceUnavailable, message)
    error.headers[.retryAfter] = String(DatabaseAvailability.retryAfterSeconds)
    return error
  }
  /// 403: the token is wrong, or this client may not write.
  static func forbidden(_ message: String) -> APIError { APIError(.forbidden, message) }

  /// The error a thrown domain error answers with.
  init(_ error: any Error) {
    switch error {
    case let error as APIError: self = error
    case let error as HTTPError:
      self.init(error.status, error.body ?? error.status.reasonPhrase)
      headers = error.headers
    case let error as KeyError: self.init(.unprocessableContent, error.description)
    case let error as BranchNameError: self.init(.badRequest, error.description)
    case let error as DatabaseUnavailable: self = .unavailable(error.reason)
    // Named relative to the folder: the server's own folders are not shown.
    case let error as StoreEscapeError: self.init(.unprocessableContent, error.messageInsideFolder)
    case let error as PNGError: self.init(.unprocessableContent, error.description)
    case let error as ConfigurationError: self.init(.unprocessableContent, error.description)
    case let error as RunError: self.init(.conflict, error.description)
    case let error as DecodingError: self.init(.badRequest, JSONProblem.describe(error))
    case let error as HTTPResponseError where error.status == .contentTooLarge:
      // NIOTooManyBytesError, from decoding a JSON body over the context's limit.
      self.init(.contentTooLarge, "the JSON body is larger than the limit of 1 MiB")
    case let error as HTTPResponseError: self.init(error.status, "\(error)")
    default: self.init(.internalServerError, String(describing: error))
    }
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    var response = try context.responseEncoder.encode(
      ErrorResponse(message: message, status: status.code), from: request, context: context)
    response.status = status
    response.headers.append(contentsOf: headers)
    return response
  }

  /// `52428800` → `50 MiB`.
  static func bytes(_ count: Int) -> String {
    if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    // Decoded sizes are rarely whole MiB: rounded, they still compare with the limit.
    if count >= 16 << 20 { return "\((count + (1 << 19)) >> 20) MiB" }
    if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
  }
}
