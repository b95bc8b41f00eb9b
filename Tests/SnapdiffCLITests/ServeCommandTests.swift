import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `snapdiff serve` runs the separate `snapdiff-serve` executable in its place: the server starts
/// from the CLI as before, its help is the server's, and without the executable the error says
/// what to build.
@Suite("snapdiff serve launches snapdiff-serve")
struct ServeCommandTests {
  @Test("snapdiff serve --port 0 answers health, stops on SIGTERM; its --help is the server's")
  func launches() throws {
    let help = try SnapdiffProcess.run(["serve", "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("--max-upload-mb"), "\(help.standardOutput)")
    #expect(help.standardOutput.contains("USAGE: snapdiff serve"))

    let invalid = try SnapdiffProcess.run(["serve", "--port", "70000"])
    #expect(invalid.status == 64)
    #expect(invalid.standardError.contains("--port must be between 0 and 65535, not 70000"))

    try withTemporaryDirectory { directory in
      let server = try SnapdiffProcess.start(["serve", "--port", "0"], in: directory)
      defer { if server.isRunning { server.terminate() } }
      // The first line names the port: `snapdiff serve: listening on http://127.0.0.1:PORT/ …`.
      let text = ExternalTool.readFirstLine((server.standardOutput as! Pipe).fileHandleForReading)
      let match = try #require(text.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)\//), "\(text)")
      let health = try Data(contentsOf: URL(string: "http://127.0.0.1:\(match.1)/api/v1/health")!)
      #expect(String(decoding: health, as: UTF8.self).contains("\"ok\""))
      // The process is the server itself (exec'd, not a child): SIGTERM stops it cleanly.
      server.terminate()
      server.waitUntilExit()
      #expect(server.terminationStatus == 0)
    }
  }

  @Test("without snapdiff-serve beside it or on PATH: exit 2 naming what to build")
  func missingServer() throws {
    try withTemporaryDirectory { directory in
      let lonely = directory + "/snapdiff"
      try FileManager.default.copyItem(atPath: SnapdiffProcess.executable, toPath: lonely)
      let run = try ExternalTool.run([lonely, "serve", "--port", "0"], environment: ["PATH": "/usr/bin:/bin"])
      #expect(run.status == 2)
      #expect(
        run.standardError
          == "snapdiff: error: \(directory)/snapdiff-serve: not found: `snapdiff serve` runs the snapdiff-serve executable, looked for beside snapdiff and on PATH; build it with `swift build -c release --product snapdiff-serve` and keep it next to snapdiff\n"
      )
    }
  }
}
