import Foundation
import SnapdiffCore
import SnapdiffServer
import SnapdiffTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The test-side API against a running service (issue "snapdiff serve", part 5): a suite's
/// snapshots posted over a real socket, the service's verdicts as the tests', the review done
/// on the service, and the errors a misconfigured suite meets.
@Suite("the test-side API through the service")
struct ServiceCheckerTests {
  static let token = "t0ken"
  static let key = "Home - test_login/Home"

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a suite posts to one run: passes, masked change, failure, new; close; approve; the next run passes")
  func suiteThroughService() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline(Self.key, ServerFixture.screen(), tree: ServerFixture.tree)
      try await withLoopbackServer(fixture.configuration(token: Self.token)) { port in
        let url = "http://127.0.0.1:\(port)"
        let screen = ServerFixture.screen()
        let clockChanged = ServerFixture.screen([PixelRect(x: 1, y: 1, width: 8, height: 4)])
        let buttonMoved = ServerFixture.screen([PixelRect(x: 20, y: 10, width: 12, height: 8)])
        let tree = ServerFixture.tree
        @Sendable func frame(_ image: RGBAImage) -> Frame { Frame(image: image, tree: tree, path: "memory") }

        let checker = SnapshotChecker.service(url: url, token: Self.token, runName: "ui suite", branch: "main")
        let verdicts = try await offCooperativePool {
          [
            try checker.verify(CapturedFrame(frame(screen)), key: Self.key),
            // A second checker of the same service and run name posts to the same run.
            try SnapshotChecker.service(url: url, token: Self.token, runName: "ui suite", branch: "main")
              .verify(
                CapturedFrame(frame(clockChanged)), key: "Home - test_login/Clock",
                masks: SnapshotMasks(selectors: ["clock"])),
          ]
        }
        #expect(verdicts.map(\.status) == [.passed, .failed])
        // The clock's snapshot is new: no baseline yet on the service.
        #expect(verdicts[1].message?.contains("has no baseline on the service yet") == true, "\(verdicts[1])")
        #expect(verdicts[1].message?.contains("\(url)/runs/") == true)

        let failed = try await offCooperativePool {
          try checker.verify(
            CapturedFrame(frame(buttonMoved)), key: Self.key, masks: SnapshotMasks(selectors: ["clock"]))
        }
        #expect(failed.status == .failed)
        #expect(failed.differentPixels > 0)
        let message = try #require(failed.message)
        #expect(message.contains("does not match its baseline on the service"), "\(message)")
        #expect(message.contains("\n  difference: "), "\(message)")
        #expect(message.contains("diff:     \(url)/api/v1/runs/"), "\(message)")
        // The diff the message links to is there.
        let diffURL = try #require(failed.diffPath)
        let diff = try await offCooperativePool { try Data(contentsOf: URL(string: diffURL)!) }
        #expect(try PNGDecoder().decode(Array(diff)).size == screen.size)

        let summary = try #require(try await offCooperativePool { try checker.closeRun() })
        #expect(summary.passed == false)
        #expect(summary.counts == ["failed": 1, "new": 1])
        #expect(summary.pageURL == "\(url)/runs/\(summary.id)")
        let record = try fixture.record(summary.id)
        #expect(record.name == "ui suite" && record.branch == "main" && record.closedAt != nil)
        // Masks travel with the frame: the settings the service applied are in the run.
        let settings = try Data(
          contentsOf: URL(
            fileURLWithPath: fixture.runs + "/" + summary.id + "/incoming/Home - test_login/Home.snapdiff.json"))
        #expect(String(decoding: settings, as: UTF8.self).contains("clock"))

        // The reviewer approves everything on the service; the store has the new frames.
        let approval = try await offCooperativePool {
          try RawHTTP.send(
            "POST /api/v1/runs/\(summary.id)/approve HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(Self.token)\r\n"
              + "Content-Type: application/json\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{\"all\": true}",
            port: port)
        }
        #expect(approval.status == 200, "\(approval.body)")
        #expect(try fixture.baseline(Self.key) == buttonMoved)

        // The next run (opened anew after the close) passes.
        let again = try await offCooperativePool {
          [
            try checker.verify(
              CapturedFrame(frame(buttonMoved)), key: Self.key, masks: SnapshotMasks(selectors: ["clock"])),
            try checker.verify(
              CapturedFrame(frame(clockChanged)), key: "Home - test_login/Clock",
              masks: SnapshotMasks(selectors: ["clock"])),
          ]
        }
        #expect(again.map(\.status) == [.passed, .passed])
        let second = try #require(try await offCooperativePool { try checker.closeRun() })
        #expect(second.id != summary.id && second.passed && second.counts == ["passed": 2])
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a controller with the service checker fails the test with the service's message; SNAPDIFF_RUN-style runs")
  func controllerThroughService() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline(Self.key, ServerFixture.screen(), tree: ServerFixture.tree)
      try await withLoopbackServer(fixture.configuration(token: Self.token)) { port in
        let url = "http://127.0.0.1:\(port)"
        // A run opened beforehand, as a CI script does with curl, then named to the checker.
        let body = #"{"name": "ci"}"#
        let opened = try await offCooperativePool {
          try RawHTTP.send(
            "POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(Self.token)\r\n"
              + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
            port: port)
        }
        let run = try #require(
          (try JSONSerialization.jsonObject(with: Data(opened.body.utf8)) as? [String: Any])?["id"] as? String)

        let page = ServicePage(image: ServerFixture.screen([PixelRect(x: 20, y: 10, width: 12, height: 8)]))
        let failures = try await offCooperativePool {
          let controller = SnapshotController(
            testName: "test_login", checker: .service(url: url, token: Self.token, run: run))
          controller.append(allowedPages: { (factory: ServicePage) in factory })
          var messages: [String] = []
          controller.onFailure = { messages.append($0) }
          controller.takeSnapshot("Home", id: "Home", page: page, in: page)
          // A page the controller does not allow: skipped, and the skip recorded in the run.
          let skipped = controller.takeSnapshot(
            "Other", id: "Other", page: ServicePage(image: page.image, id: "Other"), in: page)
          #expect(skipped.status == .skipped)
          return messages
        }
        #expect(failures.count == 1)
        #expect(
          failures.first?.contains("Snapshot 'Home - test_login/Home' does not match its baseline on the service")
            == true)
        let snapshots = try fixture.record(run).snapshots
        #expect(snapshots.map(\.key) == ["Home - test_login/Home", "Other - test_login/Other"])
        #expect(snapshots.map(\.status) == [.failed, .skipped])
        #expect(snapshots.last?.skipReason?.contains("is not an allowed page") == true, "\(snapshots)")
        #expect(try fixture.record(run).closedAt == nil, "a run the script opened is the script's to close")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("unreachable service, missing token, bad address: the message says which service and what to do")
  func errors() async throws {
    let closedPort = try Self.closedLoopbackPort()
    let frame = Frame(image: ServerFixture.screen(), tree: nil, path: "memory")
    let unreachable = await #expect(throws: ServiceError.self) {
      try await offCooperativePool {
        try SnapshotChecker.service(url: "http://127.0.0.1:\(closedPort)", token: "x")
          .verify(CapturedFrame(frame), key: Self.key)
      }
    }
    #expect(
      unreachable?.message
        == "the snapdiff service at http://127.0.0.1:\(closedPort) is not reachable (POST /api/v1/runs): nothing is listening there (connection refused). Start it with `snapdiff serve`, or point SNAPDIFF_SERVICE_URL at a running one."
    )

    let badAddress = #expect(throws: ServiceError.self) {
      try SnapshotChecker.service(url: "127.0.0.1:8080").verify(CapturedFrame(frame), key: Self.key)
    }
    #expect(badAddress?.message.hasPrefix("'127.0.0.1:8080' is not the address of a snapdiff service") == true)

    try await withFixture { fixture in
      try await withLoopbackServer(fixture.configuration(token: Self.token)) { port in
        let refused = await #expect(throws: ServiceError.self) {
          try await offCooperativePool {
            try SnapshotChecker.service(url: "http://127.0.0.1:\(port)", token: "", runName: "no token")
              .verify(CapturedFrame(frame), key: Self.key)
          }
        }
        #expect(refused?.status == 401)
        #expect(
          refused?.message.hasPrefix("the snapdiff service refused POST http://127.0.0.1:\(port)/api/v1/runs: 401 ")
            == true)
        #expect(
          refused?.message.hasSuffix("(set SNAPDIFF_TOKEN to the service's token)") == true, "\(refused?.message ?? "")"
        )
        // A key the store refuses is refused before anything is sent.
        #expect(throws: KeyError.self) {
          try SnapshotChecker.service(url: "http://127.0.0.1:\(port)", token: Self.token)
            .verify(CapturedFrame(frame), key: "../escape")
        }
        let runs = try FileManager.default.contentsOfDirectory(atPath: fixture.runs)
        #expect(runs.filter { !$0.hasPrefix(".") }.isEmpty, "\(runs)")
      }
    }
  }
}

extension ServiceCheckerTests {
  /// A port on 127.0.0.1 nothing listens on: bound by the system's choice, then closed.
  static func closedLoopbackPort() throws -> Int {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// A page that is its own factory: one screen drawn in memory with the fixture's tree.
final class ServicePage: SnapshotPage, @unchecked Sendable {
  let id: String
  let image: RGBAImage
  init(image: RGBAImage, id: String = "Home") {
    self.image = image
    self.id = id
  }
  var snapShooter: SnapShooter? {
    let image = self.image
    return .frame { Frame(image: image, tree: ServerFixture.tree, path: "memory") }
  }
  var ignoredElements: [ElementIdentifier] { ["clock"] }
}
