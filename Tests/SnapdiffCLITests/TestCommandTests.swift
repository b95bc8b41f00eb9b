import Foundation
import SnapdiffCore
import Testing

/// `snapdiff test -- COMMAND` (issue #13, item 4) through the real processes: a private
/// `snapdiff serve` on a free port, a test runner (a Python script speaking the service's API, as
/// a runner in another language would) that finds the service in its environment, and the
/// summary and exit status CI acts on.
@Suite("snapdiff test")
struct TestCommandTests {
  /// Posts `frames/<name>.png` as snapshot `<name>` for every name given, to the run named in
  /// its environment; exits with the status given as `EXIT=`.
  static let runner = #"""
    import os, sys, urllib.request, uuid
    url, token, run = os.environ["SNAPDIFF_SERVICE_URL"], os.environ["SNAPDIFF_TOKEN"], os.environ["SNAPDIFF_RUN"]
    assert os.environ["TEST_RUNNER_SNAPDIFF_SERVICE_URL"] == url and os.environ["TEST_RUNNER_SNAPDIFF_RUN"] == run
    for name in sys.argv[1:]:
        boundary = uuid.uuid4().hex
        png = open("frames/" + name + ".png", "rb").read()
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"frame\"; filename=\"f.png\"\r\n"
                f"Content-Type: image/png\r\n\r\n").encode() + png + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(f"{url}/api/v1/runs/{run}/snapshots/{name}", data=body, method="PUT",
            headers={"Authorization": "Bearer " + token, "Content-Type": "multipart/form-data; boundary=" + boundary})
        print(name, urllib.request.urlopen(request).status)
    sys.exit(int(os.environ.get("EXIT", "0")))
    """#

  @Test("passes, then fails after a deliberate change; a failing test command fails it too")
  func passThenFail() throws {
    try withWorkspace { workspace in
      try Self.runner.write(toFile: workspace.root + "/runner.py", atomically: true, encoding: .utf8)
      try workspace.writeFrame("Home", Workspace.screen([]))
      try workspace.writeFrame("Profile", Workspace.screen([PixelRect(x: 2, y: 2, width: 4, height: 4)]))
      let command = ["test", "--", "python3", "runner.py", "Home", "Profile"]

      let first = try workspace.snapdiff(command)
      #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
      #expect(first.standardOutput.contains("Home 200\nProfile 200\n"), "\(first.standardOutput)")
      let summary = try #require(first.standardOutput.split(separator: "\n").first { $0.hasPrefix("Run ") })
      #expect(summary.hasSuffix(": 2 new (2 snapshots)"), "\(summary)")
      #expect(workspace.hasBaseline("Home") && workspace.hasBaseline("Profile"))
      let run = String(summary.dropFirst(4).prefix { $0 != ":" })
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/.snapdiff/runs/\(run)/index.html"))
      #expect(first.standardError.contains("snapdiff test: service at http://127.0.0.1:"), "\(first.standardError)")

      let again = try workspace.snapdiff(command)
      #expect(again.status == 0)
      #expect(again.standardOutput.contains(": 2 passed (2 snapshots)"), "\(again.standardOutput)")

      try workspace.writeFrame("Profile", Workspace.screen([PixelRect(x: 20, y: 2, width: 4, height: 4)]))
      let changed = try workspace.snapdiff(command)
      #expect(changed.status == 1)
      #expect(changed.standardOutput.contains(": 1 failed, 1 passed (2 snapshots)"), "\(changed.standardOutput)")

      try workspace.writeFrame("Profile", Workspace.screen([PixelRect(x: 2, y: 2, width: 4, height: 4)]))
      let testsFailed = try workspace.snapdiff(command, environment: ["EXIT": "3"])
      #expect(testsFailed.status == 1)
      #expect(testsFailed.standardOutput.contains(": 2 passed (2 snapshots)"), "\(testsFailed.standardOutput)")
      #expect(
        testsFailed.standardOutput.contains("The test command failed (exit status 3)."), "\(testsFailed.standardOutput)"
      )
    }
  }

  @Test("without a command: a usage error; a command that does not exist: exit 2 naming it")
  func badCommands() throws {
    try withWorkspace { workspace in
      let none = try workspace.snapdiff(["test"])
      #expect(none.status == 64)
      #expect(
        none.standardError.contains("Give the test command after --: snapdiff test -- swift test"),
        "\(none.standardError)")
      let missing = try workspace.snapdiff(["test", "--", "no-such-test-runner-here"])
      #expect(missing.status == 2)
      #expect(missing.standardError.contains("no-such-test-runner-here: cannot be started"), "\(missing.standardError)")
    }
  }
}
