import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// A project in a temporary folder: `baselines/`, `.snapdiff/` (runs and the index), frames
/// drawn in memory, and the server built over it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ServerFixture: Sendable {
  let root: String

  var baselines: String { root + "/baselines" }
  var data: String { root + "/.snapdiff" }
  var runs: String { data + "/runs" }

  var store: BaselineStore { try! BaselineStore(root: baselines) }

  func configuration(
    token: String? = nil, privateReads: Bool = false, maxUploadBytes: Int = 8 << 20, host: String = "127.0.0.1",
    port: Int = 0
  ) -> ServerConfiguration {
    ServerConfiguration(
      host: host, port: port, store: store, dataDirectory: data, token: token, privateReads: privateReads,
      maxUploadBytes: maxUploadBytes, version: "9.9.9-test")
  }

  /// Runs `body` against the server through Hummingbird's router test framework (no socket).
  func test<T: Sendable>(
    _ configuration: ServerConfiguration? = nil, _ body: @Sendable (any TestClientProtocol) async throws -> T
  ) async throws -> T {
    let app = try await buildApplication(configuration ?? self.configuration())
    return try await app.test(.router, body)
  }

  // MARK: Frames

  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let ink = RGBAColor(red: 20, green: 30, blue: 40)

  /// A 40×20 white screen with dark rectangles.
  static func screen(_ rects: [PixelRect] = [], color: RGBAColor = ink) -> RGBAImage {
    var image = RGBAImage(width: 40, height: 20, filledWith: white)
    for rect in rects {
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { image[x: x, y: y] = color }
      }
    }
    return image
  }

  static func png(_ image: RGBAImage) -> [UInt8] { try! PNGEncoder().encode(image) }

  /// The element tree of `screen`: a clock at (0, 0, 10, 6) and a button at (20, 8, 12, 8).
  static let treeJSON = #"""
    {"scale": 1, "screen": {"width": 40, "height": 20},
     "root": {"identifier": "app", "elementType": "application", "frame": {"x": 0, "y": 0, "width": 40, "height": 20},
      "children": [
        {"identifier": "clock", "elementType": "staticText", "label": "9:41", "frame": {"x": 0, "y": 0, "width": 10, "height": 6}},
        {"identifier": "loginButton", "elementType": "button", "label": "Log in", "frame": {"x": 20, "y": 8, "width": 12, "height": 8}}
      ]}}
    """#

  static var tree: ElementTree { try! ElementTree.decode(Array(treeJSON.utf8), path: "tree") }

  /// Writes a baseline straight into the store.
  func writeBaseline(_ key: String, _ image: RGBAImage, tree: ElementTree? = nil) throws {
    try store.write(Self.png(image), tree: tree, for: SnapshotKey(key))
  }

  func baseline(_ key: String) throws -> RGBAImage {
    try PNGDecoder().decode(contentsOf: baselines + "/" + key + ".png")
  }

  /// The run's `run.json`, decoded.
  func record(_ id: String) throws -> RunRecord {
    try RunFolder(path: runs + "/" + id).load()
  }
}

/// Runs `body` with a fresh fixture in a temporary folder, removed afterwards.
@available(macOS 14, iOS 17, tvOS 17, *)
func withFixture<T>(_ body: (ServerFixture) async throws -> T) async throws -> T {
  let path = try makeTemporaryDirectory("snapdiff-serve")
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(ServerFixture(root: path))
}

// MARK: Requests and responses

/// `/api/v1/runs/<run>/snapshots/<key>` with the key as one segment.
@available(macOS 14, iOS 17, tvOS 17, *)
func snapshotURI(_ run: String, _ key: String, _ suffix: String = "") -> String {
  let encoded = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!
  return "/api/v1/runs/\(run)/snapshots/\(encoded)\(suffix)"
}

func jsonBody(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

let jsonHeaders: HTTPFields = [.contentType: "application/json"]
let pngHeaders: HTTPFields = [.contentType: "image/png"]

func bearer(_ token: String, _ headers: HTTPFields = [:]) -> HTTPFields {
  var headers = headers
  headers[.authorization] = "Bearer \(token)"
  return headers
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension TestResponse {
  /// The body as a JSON object.
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
  }

  var text: String { String(buffer: body) }

  /// `error.message` of an error response.
  var errorMessage: String { ((json["error"] as? [String: Any])?["message"] as? String) ?? "" }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension TestClientProtocol {
  /// Opens a run and returns its id.
  func openRun(_ name: String = "nightly", branch: String? = "main", headers: HTTPFields = [:]) async throws -> String {
    var all = jsonHeaders
    all.append(contentsOf: headers)
    let branchField = branch.map { ", \"branch\": \"\($0)\"" } ?? ""
    let response = try await execute(
      uri: "/api/v1/runs", method: .post, headers: all, body: jsonBody("{\"name\": \"\(name)\"\(branchField)}"))
    #expect(response.status == .created, "\(response.text)")
    return response.json["id"] as? String ?? ""
  }

  /// PUTs a PNG frame and returns the verdict.
  func putFrame(_ run: String, _ key: String, _ png: [UInt8], headers: HTTPFields = [:]) async throws -> TestResponse {
    var all = pngHeaders
    all.append(contentsOf: headers)
    return try await execute(uri: snapshotURI(run, key), method: .put, headers: all, body: ByteBuffer(bytes: png))
  }
}

/// A `multipart/form-data` body.
struct Multipart {
  let boundary = "snapdiff-test-boundary-\(UInt32.random(in: 0...UInt32.max))"
  var bytes: [UInt8] = []

  mutating func add(_ name: String, _ body: [UInt8], filename: String? = nil, contentType: String) {
    var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
    if let filename { head += "; filename=\"\(filename)\"" }
    head += "\r\nContent-Type: \(contentType)\r\n\r\n"
    bytes += Array(head.utf8) + body + Array("\r\n".utf8)
  }

  var body: ByteBuffer { ByteBuffer(bytes: bytes + Array("--\(boundary)--\r\n".utf8)) }
  var headers: HTTPFields { [.contentType: "multipart/form-data; boundary=\(boundary)"] }
}
