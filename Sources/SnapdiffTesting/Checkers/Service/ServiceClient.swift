import Foundation
import SnapdiffModel

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A blocking JSON client of a running `snapdiff serve`: one request at a time per call, through
/// `URLSession` (so `https://`, proxies and the platform's certificates work as they do for any
/// other client), waiting for the answer because snapshot checks are synchronous. Its session
/// lives as long as the client (one per checker, ``ServiceConnection``) and is invalidated with it.
final class ServiceClient: Sendable {
  /// How many clients (and so `URLSession`s) this process made: what tests count.
  static let made = Counter()
  /// The address as given, before trimming (what `serves(url:token:)` compares).
  private let requestedURL: String
  private let requestedToken: String?
  /// The service's address without a trailing slash: `http://127.0.0.1:8080`.
  let baseURL: String
  let token: String?
  /// How long one request may take, the comparison on the server included.
  let timeout: Double
  private let session: URLSession

  init(baseURL: String, token: String?, timeout: Double = 120) throws(ServiceError) {
    requestedURL = baseURL
    requestedToken = token
    var trimmed = baseURL
    while trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host != nil
    else {
      throw ServiceError(
        "'\(baseURL)' is not the address of a snapdiff service: expected http://HOST:PORT (SNAPDIFF_SERVICE_URL)")
    }
    self.baseURL = trimmed
    self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    configuration.httpAdditionalHeaders = ["Accept": "application/json"]
    session = URLSession(configuration: configuration)
    Self.made.increment()
  }

  deinit {
    // A session without a delegate still holds its resources until invalidated.
    session.finishTasksAndInvalidate()
  }

  /// Whether this client talks to `url` with `token`.
  func serves(url: String, token: String?) -> Bool { url == requestedURL && token == requestedToken }

  /// A count shared by threads.
  final class Counter: @unchecked Sendable {
    private let lock = Lock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }

  /// A response: its status and body.
  struct Response: Sendable {
    var status: Int
    var body: Data
  }

  /// Sends `method path` with `body` and returns the answer if its status is 2xx.
  ///
  /// - Throws: `ServiceError` naming the service when it cannot be reached, and with the
  ///   service's own message when it refuses the request.
  func send(_ method: String, _ path: String, body: Data? = nil, contentType: String? = nil)
    throws(ServiceError) -> Response
  {
    guard let url = URL(string: baseURL + path) else {
      throw ServiceError("\(method) \(path): not a valid URL path")
    }
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
    if let token { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }

    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    session.dataTask(with: request) { data, response, error in
      outcome.set(data: data, response: response, error: error)
      done.signal()
    }.resume()
    done.wait()

    let (data, response, error) = outcome.get()
    if let error {
      throw ServiceError(unreachable: baseURL, method: method, path: path, error: error)
    }
    guard let http = response as? HTTPURLResponse else {
      throw ServiceError("\(method) \(baseURL)\(path): the answer is not HTTP")
    }
    let answer = Response(status: http.statusCode, body: data ?? Data())
    guard (200..<300).contains(answer.status) else {
      throw ServiceError(refused: answer, method: method, url: baseURL + path, hasToken: token != nil)
    }
    return answer
  }

  /// Sends a JSON body and decodes a JSON answer.
  func json<Answer: Decodable>(
    _ method: String, _ path: String, body: some Encodable, as type: Answer.Type = Answer.self
  ) throws(ServiceError) -> Answer {
    let encoded: Data
    do {
      encoded = try JSONEncoder().encode(body)
    } catch {
      throw ServiceError("\(method) \(path): cannot encode the request: \(error)")
    }
    return try decode(send(method, path, body: encoded, contentType: "application/json"), as: type, method, path)
  }

  /// Decodes a JSON answer, naming the request when it is not what the API describes.
  func decode<Answer: Decodable>(_ response: Response, as type: Answer.Type, _ method: String, _ path: String)
    throws(ServiceError) -> Answer
  {
    do {
      return try JSONDecoder().decode(type, from: response.body)
    } catch {
      let text = String(decoding: response.body.prefix(200), as: UTF8.self)
      throw ServiceError(
        "\(method) \(baseURL)\(path): the answer is not the JSON snapdiff's API sends (\(error)): \(text)")
    }
  }

  /// The data task's result, handed from URLSession's queue to the waiting caller.
  private final class Outcome: @unchecked Sendable {
    private let lock = Lock()
    private var data: Data?
    private var response: URLResponse?
    private var error: (any Error)?

    func set(data: Data?, response: URLResponse?, error: (any Error)?) {
      lock.withLock { (self.data, self.response, self.error) = (data, response, error) }
    }

    func get() -> (Data?, URLResponse?, (any Error)?) {
      lock.withLock { (data, response, error) }
    }
  }
}
