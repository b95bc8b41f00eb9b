import Hummingbird
import SnapdiffCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON request body (open a run, approve, reject, skip): read under its limit (1 MiB) and
/// decoded off the cooperative threads, its problems worded for the client (`the JSON body is
/// missing "name"`, `the JSON body: unknown field 'nmae' (…)`) rather than as Swift's decoding
/// errors.
@available(macOS 14, iOS 17, tvOS 17, *)
enum JSONBody {
  static func decode<T: Decodable & Sendable>(_ type: T.Type, from request: Request) async throws -> T {
    var bytes: [UInt8] = []
    try await Upload.read(request, limit: UploadLimits.json, what: "the JSON body") { buffer in
      bytes += buffer.readableBytesView
    }
    let received = bytes
    return try await Blocking.run { try decode(type, received) }
  }

  /// - Throws: `APIError` 400 naming the problem.
  static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
    guard !bytes.isEmpty else { throw APIError.badRequest("the body is empty: send a JSON object") }
    do {
      return try JSONDecoder().decode(T.self, from: Data(bytes))
    } catch {
      throw APIError.badRequest(JSONProblem.describe(error, in: "the JSON body"))
    }
  }
}
