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
      "POST /api/v1/branches/{branch}/merge", "POST /api/v1/branches/{branch}/discard",
      "GET /runs/{run}", "GET /branches",
      "POST /api/v1/runs/{run}/noise", "POST /api/v1/runs/{run}/snapshots/{key}/noise", "GET /api/v1/noise",
      "POST /api/v1/noise/remove", "GET /api/v1/flaky",
      "GET /api/v1/runs/{run}/approvals", "POST /api/v1/approvals/{operation}/undo",
    ]
    #expect(try Self.operations() == served)

    try await withFixture { fixture in
      try await fixture.test { client in
        let run = try await client.openRun()
        for operation in served {
          let parts = operation.split(separator: " ")
          let uri = String(parts[1]).replacingOccurrences(of: "{run}", with: run)
            .replacingOccurrences(of: "{key}", with: "a%2Fb").replacingOccurrences(of: "{image}", with: "diff.png")
            .replacingOccurrences(of: "{operation}", with: "0123abcd")
          let response = try await client.execute(
            uri: uri, method: HTTPRequest.Method(String(parts[0]))!, headers: jsonHeaders,
            body: jsonBody(#"{"all": true}"#))
          #expect(!response.errorMessage.hasPrefix("no route"), "\(operation): \(response.text)")
        }
      }
    }
  }

  /// Whether `path` has the shape of the router's `template` (`APIPaths.Route`): a `:name`
  /// segment takes any one non-empty segment, a last `**` one segment or more.
  static func matches(_ path: String, _ template: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    let pattern = template.split(separator: "/", omittingEmptySubsequences: false)
    for (index, expected) in pattern.enumerated() {
      if expected == "**" { return parts.count > index && parts[index...].allSatisfy { !$0.isEmpty } }
      guard index < parts.count else { return false }
      if expected.hasPrefix(":") ? parts[index].isEmpty : parts[index] != expected { return false }
    }
    return parts.count == pattern.count
  }

  @Test("the router's templates (APIPaths.Route) are the spec's API paths, and the clients' paths fit them")
  func templatesMatchSpecAndBuilders() throws {
    let specPaths = try Self.operations().map { String($0.split(separator: " ")[1]) }
      .filter { $0.hasPrefix(APIPaths.prefix + "/") }
      .map {
        $0.replacingOccurrences(of: "{run}", with: "r").replacingOccurrences(of: "{key}", with: "a%2Fb")
          .replacingOccurrences(of: "{image}", with: "diff.png").replacingOccurrences(of: "{branch}", with: "b")
      }
    for path in specPaths {
      #expect(APIPaths.Route.all.contains { Self.matches(path, $0) }, "\(path): no route template")
    }
    for template in APIPaths.Route.all {
      #expect(specPaths.contains { Self.matches($0, template) }, "\(template): not in the spec")
    }
    let built: [(String, String)] = [
      (APIPaths.health, APIPaths.Route.health), (APIPaths.ready, APIPaths.Route.ready),
      (APIPaths.version, APIPaths.Route.version), (APIPaths.runs, APIPaths.Route.runs),
      (APIPaths.run("r/1"), APIPaths.Route.run), (APIPaths.close(run: "r"), APIPaths.Route.close),
      (APIPaths.approve(run: "r"), APIPaths.Route.approve), (APIPaths.reject(run: "r"), APIPaths.Route.reject),
      (APIPaths.snapshot(run: "r", key: "Home/Login"), APIPaths.Route.snapshots),
      (APIPaths.skip(run: "r", key: "Home/Login"), APIPaths.Route.snapshots),
      (APIPaths.history(key: "Home/Login"), APIPaths.Route.baselines),
      (APIPaths.undo(key: "Home/Login"), APIPaths.Route.baselines), (APIPaths.branches, APIPaths.Route.branches),
      (APIPaths.merge(branch: "feature/login"), APIPaths.Route.branch),
      (APIPaths.approveAsNoise(run: "r"), APIPaths.Route.approveAsNoise), (APIPaths.noise, APIPaths.Route.noise),
      (APIPaths.removeNoise, APIPaths.Route.removeNoise), (APIPaths.flaky, APIPaths.Route.flaky),
      (APIPaths.discard(branch: "feature/login"), APIPaths.Route.branch),
    ]
    for (path, template) in built {
      #expect(Self.matches(path, template), "\(path) does not fit \(template)")
    }
    #expect(APIPaths.history(key: "Home/Login") == "/api/v1/baselines/Home%2FLogin/history")
    #expect(APIPaths.merge(branch: "feature/login") == "/api/v1/branches/feature%2Flogin/merge")
  }

  @Test("the spec's lists of match levels and statuses are the model's cases, in order")
  func enumsMatchModel() throws {
    let text = try String(contentsOfFile: Self.specPath, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    /// The values of the line's `enum: [a, b]`.
    func values(in line: String) -> [String] {
      guard let start = line.range(of: "enum: [") else { return [] }
      return line[start.upperBound...].prefix { $0 != "]" }.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    }
    let levels = lines.filter { $0.contains("matchLevel: {type: string, enum: [") }
    #expect(levels.count == 2)
    for line in levels { #expect(values(in: line) == MatchLevel.allCases.map(\.rawValue), "\(line)") }
    let statuses = try #require(
      lines.first { $0.contains("enum: [passed, failed, new") }, "no SnapshotStatus enum in the spec")
    #expect(values(in: statuses) == SnapshotStatus.allCases.map(\.rawValue))
  }
}
