#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A `multipart/form-data` body: the frame, its element tree and its settings in one request,
/// as `PUT /api/v1/runs/{run}/snapshots/{key}` takes them (the test-side client writes it;
/// ``MultipartForm`` reads it on the service).
public struct MultipartBody: Sendable {
  public let boundary = "snapdiff-" + UUID().uuidString
  public private(set) var data = Data()

  public init() {}

  public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

  public mutating func add(name: String, filename: String? = nil, contentType: String, _ body: Data) {
    var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
    if let filename { head += "; filename=\"\(filename)\"" }
    head += "\r\nContent-Type: \(contentType)\r\n\r\n"
    data.append(Data(head.utf8))
    data.append(body)
    data.append(Data("\r\n".utf8))
  }

  /// The body with its closing delimiter.
  public var finished: Data { data + Data("--\(boundary)--\r\n".utf8) }
}
