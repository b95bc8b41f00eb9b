import Hummingbird

/// Who may do what.
///
/// - With a token: writes (every method but GET and HEAD) need `Authorization: Bearer <token>`;
///   with `privateReads`, reads need it too (or the `snapdiff_token` cookie the review page sets,
///   so that its images load). No credentials: 401; wrong ones: 403.
/// - Without a token (the server then listens on loopback only): writes are accepted from
///   loopback clients only, and only with a loopback `Host` header, so a web page a reviewer
///   visits cannot make their browser approve (DNS rebinding).
/// - Always: a write whose `Origin` header names another origin than the `Host` is refused
///   (a cross-site form posting to the service), and `GET /api/v1/health` and `/api/v1/ready`
///   are open (probes carry no token).
@available(macOS 14, iOS 17, tvOS 17, *)
struct AccessMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  let token: String?
  let privateReads: Bool

  static let cookieName = "snapdiff_token"

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let path = request.uri.path
    if path == APIPaths.health || path == APIPaths.ready {
      return try await next(request, context)
    }
    let isWrite = request.method != .get && request.method != .head
    if isWrite { try checkOrigin(request) }
    if let token {
      if isWrite || privateReads {
        try authorize(request, token: token, acceptCookie: !isWrite)
      }
    } else if isWrite {
      guard context.clientIsLocal else {
        throw APIError.forbidden(
          "this server has no token, so it takes writes from this machine only: start it with SNAPDIFF_TOKEN or --token-file"
        )
      }
      guard let host = request.head.authority, ServerConfiguration.isLoopback(host: Self.hostName(host)) else {
        throw APIError.forbidden(
          "without a token, writes must address the server as localhost or 127.0.0.1 (Host: \(request.head.authority ?? "none"))"
        )
      }
    }
    return try await next(request, context)
  }

  /// The request's bearer token (or, for reads, the review page's cookie) must equal `token`.
  private func authorize(_ request: Request, token: String, acceptCookie: Bool) throws {
    var presented: String?
    if let header = request.headers[.authorization] {
      let parts = header.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, parts[0].lowercased() == "bearer" else {
        throw APIError.unauthorized("send the token as 'Authorization: Bearer <token>'")
      }
      presented = String(parts[1]).trimmingSpaces
    } else if acceptCookie, let cookie = request.cookies[Self.cookieName] {
      presented = cookie.value
    }
    guard let presented else {
      throw APIError.unauthorized(
        "this needs the server's token: send 'Authorization: Bearer <token>'")
    }
    guard Self.constantTimeEquals(presented, token) else {
      throw APIError.forbidden("the token is not this server's")
    }
  }

  /// A browser's cross-site write carries an `Origin` naming the other site (or `null`, from a
  /// sandboxed frame or a file): only same-origin writes, or writes without `Origin` (curl, test
  /// runners), get through.
  private func checkOrigin(_ request: Request) throws {
    guard let origin = request.headers[.origin] else { return }
    let host = request.head.authority ?? ""
    // `http://127.0.0.1:8080` → `127.0.0.1:8080`
    let parts = origin.split(separator: "/")
    let originHost = parts.count == 2 && parts[0].hasSuffix(":") && origin.contains("://") ? String(parts[1]) : nil
    guard let originHost, !host.isEmpty, originHost.lowercased() == host.lowercased() else {
      throw APIError.forbidden("cross-origin writes are refused (Origin \(origin), Host \(host))")
    }
  }

  /// `127.0.0.1:8080` → `127.0.0.1`, `[::1]:8080` → `::1`.
  static func hostName(_ authority: String) -> String {
    if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
      return String(authority[authority.index(after: authority.startIndex)..<end])
    }
    if let colon = authority.lastIndex(of: ":"), authority.firstIndex(of: ":") == colon {
      return String(authority[..<colon])
    }
    return authority
  }

  /// Compares without stopping at the first difference, so timing tells nothing of the token.
  static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    let a = Array(lhs.utf8)
    let b = Array(rhs.utf8)
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0 && a.count == b.count
  }
}
