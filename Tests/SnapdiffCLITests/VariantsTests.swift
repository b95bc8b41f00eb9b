import Foundation
import SnapdiffCore
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Several accepted baselines per snapshot (`approve KEY --variant NAME`): one screen rendered
/// one way on one kind of CI machine and another way on another. Both renderings pass and the
/// verdict names the variant; a third fails; an undo, a prune of a stale variant and a branch's
/// variant, through the CLI as a process and `snapdiff serve` over a real socket.
@Suite("variants")
struct VariantsTests {
  let key = "Home - test_search/Home"

  /// The screen as the first kind of machine renders it (the baseline).
  static let intel = Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)])
  /// The same screen as the second kind renders it: its box lands 3 px lower.
  static let appleSilicon = Workspace.screen([PixelRect(x: 5, y: 13, width: 10, height: 10)])
  /// A real change: the box is elsewhere and bigger.
  static let changed = Workspace.screen([PixelRect(x: 30, y: 5, width: 20, height: 20)])

  func snapshot(_ workspace: Workspace) throws -> [String: Any] {
    let snapshots = try #require(workspace.lastRun()["snapshots"] as? [[String: Any]])
    return try #require(snapshots.first { $0["key"] as? String == key })
  }

  func variantPath(_ workspace: Workspace, _ name: String) -> String {
    workspace.root + "/baselines/.variants/\(key)/\(name).png"
  }

  @Test("two machines' renderings both pass, the verdict names the variant; a third fails; undo removes it")
  func twoMachines() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(key, Self.intel)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let baselineBytes = try FileIO.read(workspace.root + "/baselines/\(key).png")

      // The other machine's rendering fails until it is accepted as a variant.
      try workspace.writeFrame(key, Self.appleSilicon)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let refused = try workspace.snapdiff(["approve", key, "--variant", "../x"])
      #expect(refused.status == 64, "\(refused.standardError)")
      let approved = try workspace.snapdiff(["approve", key, "--variant", "apple-silicon"])
      #expect(approved.status == 0, "\(approved.standardError)")
      #expect(approved.standardOutput.contains("add variant 'apple-silicon'"), "\(approved.standardOutput)")
      #expect(try FileIO.read(workspace.root + "/baselines/\(key).png") == baselineBytes, "the baseline stays")
      #expect(FileSystem.isFile(variantPath(workspace, "apple-silicon")))
      // Listings of keys do not see the variants folder: no new key, nothing to prune.
      let status = try workspace.snapdiff(["status"])
      #expect(status.standardOutput.contains("approved as variant 'apple-silicon'"), "\(status.standardOutput)")

      // Both renderings pass; the verdict says which accepted baseline matched.
      try workspace.writeFrame(key, Self.intel)
      let first = try workspace.snapdiff(["check", "frames"])
      #expect(first.status == 0, "\(first.standardOutput)")
      #expect(try snapshot(workspace)["variant"] == nil)
      try workspace.writeFrame(key, Self.appleSilicon)
      let second = try workspace.snapdiff(["check", "frames"])
      #expect(second.status == 0, "\(second.standardOutput)\(second.standardError)")
      #expect(second.standardOutput.contains("matched variant 'apple-silicon'"), "\(second.standardOutput)")
      #expect(try snapshot(workspace)["variant"] as? String == "apple-silicon")
      #expect(try snapshot(workspace)["status"] as? String == "passed")
      let junit = try String(
        contentsOfFile: workspace.root + "/.snapdiff/runs/last/junit.xml", encoding: .utf8)
      let testCase = try #require(junit.range(of: "matched the accepted variant"), "\(junit)")
      #expect(junit[testCase.upperBound...].prefix(30).contains("apple-silicon"), "\(junit)")

      // A third rendering matches neither.
      try workspace.writeFrame(key, Self.changed)
      let third = try workspace.snapdiff(["check", "frames"])
      #expect(third.status == 1)
      #expect(try snapshot(workspace)["variant"] == nil)
      #expect(try snapshot(workspace)["status"] as? String == "failed")

      // History names the variant; undo removes it, and the other machine fails again.
      let history = try workspace.snapdiff(["history", key])
      #expect(history.standardOutput.contains("variant apple-silicon"), "\(history.standardOutput)")
      let undo = try workspace.snapdiff(["approve", "--undo", key])
      #expect(undo.status == 0, "\(undo.standardError)")
      #expect(undo.standardOutput.contains("variant 'apple-silicon' deleted"), "\(undo.standardOutput)")
      #expect(!FileSystem.isFile(variantPath(workspace, "apple-silicon")))
      #expect(try FileIO.read(workspace.root + "/baselines/\(key).png") == baselineBytes)
      try workspace.writeFrame(key, Self.appleSilicon)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
    }
  }

  @Test("a new snapshot has no baseline to add a variant to")
  func newSnapshotRefused() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(key, Self.intel)
      #expect(try workspace.snapdiff(["check", "frames", "--record", "never"]).status == 1)
      let refused = try workspace.snapdiff(["approve", key, "--variant", "intel"])
      #expect(refused.status != 0)
      #expect(
        refused.standardError.contains("has no baseline to add the variant 'intel' to"), "\(refused.standardError)")
      #expect(!FileSystem.exists(workspace.root + "/baselines/.variants"))
    }
  }

  @Test("prune --stale-variants: a variant no run matched in the last N runs is listed, then deleted")
  func pruneStaleVariant() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(key, Self.intel)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      try workspace.writeFrame(key, Self.appleSilicon)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      #expect(try workspace.snapdiff(["approve", key, "--variant", "apple-silicon"]).status == 0)
      // One run matches it, then two match the baseline alone.
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      try workspace.writeFrame(key, Self.intel)
      for _ in 0..<2 { #expect(try workspace.snapdiff(["check", "frames"]).status == 0) }

      let fresh = try workspace.snapdiff(["prune", "--stale-variants", "3"])
      #expect(fresh.status == 0, "\(fresh.standardError)")
      #expect(fresh.standardOutput.contains("every variant was matched in the last 3 runs"), "\(fresh.standardOutput)")
      #expect(fresh.standardOutput.contains("every baseline was used"), "the baseline a variant matched is used")

      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let stale = try workspace.snapdiff(["prune", "--stale-variants", "3"])
      #expect(stale.standardOutput.contains("stale 1 variant"), "\(stale.standardOutput)")
      #expect(stale.standardOutput.contains("\(key)  variant apple-silicon  (last matched by run "))
      #expect(FileSystem.isFile(variantPath(workspace, "apple-silicon")), "listed, not deleted")
      let deleted = try workspace.snapdiff(["prune", "--stale-variants", "3", "--delete"])
      #expect(deleted.status == 0, "\(deleted.standardError)")
      #expect(deleted.standardOutput.contains("deleted 1 variant"), "\(deleted.standardOutput)")
      #expect(!FileSystem.isFile(variantPath(workspace, "apple-silicon")))
      #expect(FileSystem.isFile(workspace.root + "/baselines/\(key).png"))
      #expect(try workspace.snapdiff(["prune", "--stale-variants", "0"]).status == 64)
    }
  }

  // MARK: - The service

  /// A started `snapdiff serve` on a free port and its API's address.
  static func serve(in workspace: Workspace) throws -> (Process, String) {
    let server = try SnapdiffProcess.start(["serve", "--port", "0"], in: workspace.root)
    let out = (server.standardOutput as! Pipe).fileHandleForReading
    var firstLine = Data()
    while !firstLine.contains(UInt8(ascii: "\n")) {
      let chunk = out.availableData
      if chunk.isEmpty { break }
      firstLine += chunk
    }
    let text = String(decoding: firstLine, as: UTF8.self)
    let port = try #require(text.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)\//), "\(text)").1
    return (server, "http://127.0.0.1:\(port)/api/v1")
  }

  static func json(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func post(_ url: String, _ body: String) throws -> (Int, [String: Any]) {
    let (status, data) = try ServiceHistoryTests.http("POST", url, body: Data(body.utf8), type: "application/json")
    return (status, (try? json(data)) ?? [:])
  }

  /// Opens a run (on `branch`, forked from main, when given) and returns its id.
  static func open(_ api: String, branch: String? = nil) throws -> String {
    let fork = branch.map { #", "branch": "\#($0)", "baseBranch": "main""# } ?? ""
    let (status, body) = try post(api + "/runs", #"{"name": "ci"\#(fork)}"#)
    #expect(status == 201)
    return try #require(body["id"] as? String)
  }

  /// Sends `image` as the frame of `key` in `run`; the verdict.
  func put(_ image: RGBAImage, _ api: String, run: String) throws -> [String: Any] {
    let (status, data) = try ServiceHistoryTests.http(
      "PUT", api + "/runs/\(run)/snapshots/\(PercentEncoding.segment(key))", body: Data(try PNGEncoder().encode(image)),
      type: "image/png")
    #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
    return try Self.json(data)
  }

  @Test(
    "the service: approve as a variant, verdicts name it, a branch's variant stays on its branch until merged",
    .timeLimit(.minutes(2)))
  func service() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(key, Self.intel, folder: "baselines")
      let baselineBytes = try FileIO.read(workspace.root + "/baselines/\(key).png")
      let (server, api) = try Self.serve(in: workspace)
      defer { if server.isRunning { server.terminate() } }

      // The second machine's frame fails, and is accepted as a variant.
      let run = try Self.open(api)
      #expect(try put(Self.appleSilicon, api, run: run)["status"] as? String == "failed")
      let (badName, _) = try Self.post(api + "/runs/\(run)/approve", #"{"keys": ["\#(key)"], "variant": "a/b"}"#)
      #expect(badName == 422)
      let (rejectVariant, _) = try Self.post(api + "/runs/\(run)/reject", #"{"keys": ["\#(key)"], "variant": "x"}"#)
      #expect(rejectVariant == 400)
      let (approved, result) = try Self.post(
        api + "/runs/\(run)/approve", #"{"keys": ["\#(key)"], "variant": "apple-silicon"}"#)
      #expect(approved == 200, "\(result)")
      let item = try #require((result["snapshots"] as? [[String: Any]])?.first)
      #expect(item["baseline"] as? String == "variant")
      #expect(item["variant"] as? String == "apple-silicon")
      #expect(try FileIO.read(workspace.root + "/baselines/\(key).png") == baselineBytes)
      #expect(FileSystem.isFile(variantPath(workspace, "apple-silicon")))

      // Both machines pass, the verdict names the variant; a third rendering fails. (A run
      // each: one frame per key in a run.)
      let first = try put(Self.intel, api, run: try Self.open(api))
      #expect(first["passed"] as? Bool == true)
      #expect(first["variant"] == nil)
      let next = try Self.open(api)
      let second = try put(Self.appleSilicon, api, run: next)
      #expect(second["passed"] as? Bool == true, "\(second)")
      #expect(second["variant"] as? String == "apple-silicon")
      // The baseline URL serves what it matched: the variant's bytes.
      let (_, served) = try ServiceHistoryTests.http(
        "GET", api + "/runs/\(next)/snapshots/\(PercentEncoding.segment(key))/baseline.png")
      #expect(Array(served) == (try FileIO.read(variantPath(workspace, "apple-silicon"))))
      let third = try put(Self.changed, api, run: try Self.open(api))
      #expect(third["passed"] as? Bool == false)
      #expect(third["status"] as? String == "failed")

      // The review page offers "accept as another variant".
      let page = try #require(third["pageURL"] as? String)
      let (_, html) = try ServiceHistoryTests.http("GET", api.replacingOccurrences(of: "/api/v1", with: "") + page)
      #expect(String(decoding: html, as: UTF8.self).contains("Accept as another variant"))

      // On a branch, a variant goes to the branch's overlay: the branch sees it (and the
      // trunk's variant), the trunk does not, until the branch merges.
      let onBranch = try Self.open(api, branch: "feature/ios18")
      #expect(try put(Self.changed, api, run: onBranch)["status"] as? String == "failed")
      let (branchApproved, _) = try Self.post(
        api + "/runs/\(onBranch)/approve", #"{"keys": ["\#(key)"], "variant": "ios18"}"#)
      #expect(branchApproved == 200)
      #expect(!FileSystem.isFile(variantPath(workspace, "ios18")))
      #expect(
        FileSystem.isFile(workspace.root + "/baselines/.branches/feature%2Fios18/.variants/\(key)/ios18.png"))
      let onBranchAgain = try put(Self.changed, api, run: try Self.open(api, branch: "feature/ios18"))
      #expect(onBranchAgain["variant"] as? String == "ios18", "\(onBranchAgain)")
      let baseVariant = try put(Self.appleSilicon, api, run: try Self.open(api, branch: "feature/ios18"))
      #expect(baseVariant["variant"] as? String == "apple-silicon", "\(baseVariant)")
      #expect(try put(Self.changed, api, run: try Self.open(api))["passed"] as? Bool == false)

      let merged = try workspace.snapdiff(["branch", "merge", "feature/ios18"])
      #expect(merged.status == 0, "\(merged.standardError)")
      #expect(merged.standardOutput.contains("variant ios18"), "\(merged.standardOutput)")
      #expect(FileSystem.isFile(variantPath(workspace, "ios18")))
      #expect(try put(Self.changed, api, run: try Self.open(api))["variant"] as? String == "ios18")
      let history = try workspace.snapdiff(["history", key])
      #expect(history.standardOutput.contains("branch feature/ios18  variant ios18"), "\(history.standardOutput)")

      // The API's undo (the review page's Undo) reverts the newest approval: the merged variant.
      let (undone, undoBody) = try ServiceHistoryTests.http(
        "POST", api + "/baselines/\(PercentEncoding.segment(key))/undo")
      #expect(undone == 200, "\(String(decoding: undoBody, as: UTF8.self))")
      #expect(!FileSystem.isFile(variantPath(workspace, "ios18")))
      #expect(FileSystem.isFile(variantPath(workspace, "apple-silicon")))
      #expect(try FileIO.read(workspace.root + "/baselines/\(key).png") == baselineBytes)
      #expect(try put(Self.changed, api, run: try Self.open(api))["passed"] as? Bool == false)
    }
  }
}
