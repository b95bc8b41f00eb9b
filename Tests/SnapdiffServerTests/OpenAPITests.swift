import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// `Sources/SnapdiffServer/openapi.yaml` describes exactly the routes the server answers.
@Suite("OpenAPI description")
struct OpenAPITests {
  static let specPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources/SnapdiffServer/openapi.yaml").standardizedFileURL.path

  /// `METHOD path` for every operation in the spec.
  static func operations() throws -> Set<String> {
    let text = try String(contentsOfFile: specPath, encoding: .utf8)
    var operations = Set<String>()
    var path: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("  /"), line.hasSuffix(":") {
        path = String(line.dropFirst(2).dropLast())
      } else if line.hasPrefix("  "), !line.hasPrefix("   ") {
        path = nil
      } else if let path, let method = ["get", "put", "post", "delete"].first(where: { line == "    \($0):" }) {
        operations.insert("\(method.uppercased()) \(path)")
      }
      if line.hasPrefix("components:") { break }
    }
    return operations
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("every operation in the spec is served, and every route is in the spec")
  func specMatchesRoutes() async throws {
    let served: Set<String> = [
      "GET /api/v1/health", "GET /api/v1/ready", "GET /api/v1/version", "GET /metrics", "GET /api/v1/runs",
      "POST /api/v1/runs", "GET /api/v1/runs/{run}",
      "POST /api/v1/runs/{run}/close", "POST /api/v1/runs/{run}/approve", "POST /api/v1/runs/{run}/reject",
      "PUT /api/v1/runs/{run}/snapshots/{key}", "GET /api/v1/runs/{run}/snapshots/{key}",
      "GET /api/v1/runs/{run}/snapshots/{key}/{image}", "POST /api/v1/runs/{run}/snapshots/{key}/approve",
      "POST /api/v1/runs/{run}/snapshots/{key}/reject", "POST /api/v1/runs/{run}/snapshots/{key}/skip", "GET /",
      "GET /api/v1/baselines/{key}/history", "POST /api/v1/baselines/{key}/undo", "GET /api/v1/branches",
      "POST /api/v1/branches/{branch}/merge",
      "GET /runs/{run}",
    ]
    #expect(try Self.operations() == served)

    try await withFixture { fixture in
      try await fixture.test { client in
        let run = try await client.openRun()
        for operation in served {
          let parts = operation.split(separator: " ")
          let uri = String(parts[1]).replacingOccurrences(of: "{run}", with: run)
            .replacingOccurrences(of: "{key}", with: "a%2Fb").replacingOccurrences(of: "{image}", with: "diff.png")
          let response = try await client.execute(
            uri: uri, method: HTTPRequest.Method(String(parts[0]))!, headers: jsonHeaders,
            body: jsonBody(#"{"all": true}"#))
          #expect(!response.errorMessage.hasPrefix("no route"), "\(operation): \(response.text)")
        }
      }
    }
  }
}
