import Foundation
import SnapdiffCore
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real `snapdiff serve` and the CLI on one project (issue #14): an approval through the API
/// is in `snapdiff history`, the CLI's undo restores the bytes, the API still serves the
/// baseline the run compared, and a run closed complete lists the screen it never received.
@Suite("service and CLI share history")
struct ServiceHistoryTests {
  let key = "Home - test_search/Home"
  let removed = "Legacy - test_old/Banner"

  /// One HTTP request, synchronously: (status, body).
  static func http(_ method: String, _ url: String, body: Data? = nil, type: String? = nil) throws -> (Int, Data) {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body
    if let type { request.setValue(type, forHTTPHeaderField: "Content-Type") }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: (Int, Data)?
    nonisolated(unsafe) var failure: (any Error)?
    URLSession.shared.dataTask(with: request) { data, response, error in
      if let error { failure = error } else { result = ((response as! HTTPURLResponse).statusCode, data ?? Data()) }
      done.signal()
    }.resume()
    done.wait()
    if let failure { throw failure }
    return result!
  }

  /// `snapdiff serve --port 0` started in `workspace`, and the port it says it listens on.
  static func serve(in workspace: Workspace) throws -> (server: Process, port: String) {
    let server = try SnapdiffProcess.start(["serve", "--port", "0"], in: workspace.root)
    let out = (server.standardOutput as! Pipe).fileHandleForReading
    var firstLine = Data()
    while !firstLine.contains(UInt8(ascii: "\n")) {
      let chunk = out.availableData
      if chunk.isEmpty { break }
      firstLine += chunk
    }
    let text = String(decoding: firstLine, as: UTF8.self)
    guard let port = text.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)\//)?.1 else {
      if server.isRunning { server.terminate() }
      throw RunError("snapdiff serve did not say its port: \(text)")
    }
    return (server, String(port))
  }

  @Test("approve through the service, history and undo through the CLI, close complete", .timeLimit(.minutes(2)))
  func serviceAndCLI() throws {
    try withWorkspace { workspace in
      let old = Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)])
      try workspace.writeFrame(key, old, folder: "baselines")
      try workspace.writeFrame(removed, Workspace.screen([]), folder: "baselines")
      let oldBytes = try FileIO.read(workspace.root + "/baselines/\(key).png")
      let newBytes = try PNGEncoder().encode(Workspace.screen([PixelRect(x: 5, y: 12, width: 10, height: 10)]))

      let (server, port) = try Self.serve(in: workspace)
      defer { if server.isRunning { server.terminate() } }
      let api = "http://127.0.0.1:\(port)/api/v1"
      let encoded = PercentEncoding.segment(key)

      let (opened, openBody) = try Self.http(
        "POST", api + "/runs", body: Data(#"{"name": "ci", "branch": "main"}"#.utf8), type: "application/json")
      #expect(opened == 201)
      let run = try #require((try JSONSerialization.jsonObject(with: openBody) as? [String: Any])?["id"] as? String)
      let (put, _) = try Self.http(
        "PUT", api + "/runs/\(run)/snapshots/\(encoded)", body: Data(newBytes), type: "image/png")
      #expect(put == 200)
      let (closed, closeBody) = try Self.http(
        "POST", api + "/runs/\(run)/close", body: Data(#"{"complete": true}"#.utf8), type: "application/json")
      #expect(closed == 200)
      let counts = (try JSONSerialization.jsonObject(with: closeBody) as? [String: Any])?["counts"] as? [String: Int]
      #expect(counts == ["failed": 1, "missing": 1])
      #expect(try workspace.snapdiff(["status", run]).standardOutput.contains("MISSING  \(removed)"))

      let (approved, _) = try Self.http("POST", api + "/runs/\(run)/snapshots/\(encoded)/approve")
      #expect(approved == 200)
      #expect(try FileIO.read(workspace.root + "/baselines/\(key).png") == newBytes)
      let (_, baseline) = try Self.http("GET", api + "/runs/\(run)/snapshots/\(encoded)/baseline.png")
      #expect(Array(baseline) == oldBytes)

      let history = try workspace.snapdiff(["history", key])
      #expect(history.standardOutput.contains("approve service (local)"), "\(history.standardOutput)")
      #expect(history.standardOutput.contains("run \(run)  branch main"))
      let undo = try workspace.snapdiff(["approve", "--undo", key], environment: ["SNAPDIFF_USER": "dana"])
      #expect(undo.status == 0, "\(undo.standardError)")
      #expect(try FileIO.read(workspace.root + "/baselines/\(key).png") == oldBytes)
      let (_, verdict) = try Self.http("GET", api + "/runs/\(run)/snapshots/\(encoded)")
      #expect((try JSONSerialization.jsonObject(with: verdict) as? [String: Any])?["status"] as? String == "failed")
      let (_, entries) = try Self.http("GET", api + "/baselines/\(encoded)/history")
      let actions =
        ((try JSONSerialization.jsonObject(with: entries) as? [String: Any])?["entries"] as? [[String: Any]])?
        .map { "\($0["action"] ?? "") \($0["user"] ?? "")" }
      #expect(actions == ["approve service (local)", "undo dana"])

      server.terminate()
      server.waitUntilExit()
    }
  }
}
