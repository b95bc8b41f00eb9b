import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import Testing

@testable import SnapdiffServer

/// What `fuzz-request` (scripts/fuzz/harness/fuzz-request.swift: the service's request decoding)
/// finds, kept as tests: an input that crashed it is saved as
/// `Tests/SnapdiffCoreTests/Fixtures/fuzz-regressions/request-…` (beside the other harnesses'
/// inputs, so that `scripts/fuzz/run.sh` seeds the fuzzer with it) and replayed here through the
/// server's own code (the harness, built without Hummingbird, mirrors the controller's steps).
@Suite("request fuzz regressions")
struct RequestFuzzRegressionTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("SnapdiffCoreTests/Fixtures/fuzz-regressions").path

  static func inputs() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasPrefix("request-") }.sorted()
  }

  /// The Content-Type up to the first LF, the body after it: a copy of `RequestFuzzInput` in the
  /// harness. Change both.
  static func multipart(_ bytes: [UInt8]) -> (contentType: String, body: [UInt8]) {
    let newline = bytes.firstIndex(of: 10) ?? bytes.count
    return (String(decoding: bytes[..<newline], as: UTF8.self), Array(bytes.dropFirst(newline + 1)))
  }

  /// A refusal the API can send: a 4xx with a message.
  static func expectRefusal(_ error: any Error, _ name: String, _ statuses: Set<Int> = [400, 422]) {
    guard let error = error as? APIError else {
      Issue.record("\(name): \(type(of: error)), not an APIError: \(error)")
      return
    }
    #expect(statuses.contains(error.status.code) && !error.message.isEmpty, "\(name): \(error)")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("saved request inputs: refused with a 4xx and a message, or accepted, never a crash")
  func replay() throws {
    for name in Self.inputs() {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name)))
      guard let first = bytes.first else { continue }
      let rest = Array(bytes.dropFirst())
      let key = try SnapshotKey("fuzz")
      switch first % 6 {
      case 0:
        let (contentType, body) = Self.multipart(rest)
        do {
          _ = try SnapshotsController.frame(fromMultipart: body, contentType: contentType, key: key)
        } catch {
          Self.expectRefusal(error, name)
        }
      case 1:
        do { _ = try SnapshotsController.settings(rest, key: key) } catch { Self.expectRefusal(error, name, [422]) }
      case 2:
        do { _ = try JSONDecoder().decode(OpenRunRequest.self, from: Data(rest)) } catch {
          Self.expectRefusal(APIError(error), name, [400])
        }
      case 3:
        do { _ = try JSONDecoder().decode(ReviewRequest.self, from: Data(rest)) } catch {
          Self.expectRefusal(APIError(error), name, [400])
        }
      case 4:
        let tail = String(decoding: rest, as: UTF8.self)[...]
        for raw in [tail] + (SnapshotsController.split(tail).map { [$0.key] } ?? []) {
          do {
            let key = try SnapshotsController.key(raw)
            for component in key.rawValue.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
              #expect(
                !component.isEmpty && !component.elementsEqual([46]) && !component.elementsEqual([46, 46]), "\(name)")
            }
          } catch {
            Self.expectRefusal(error, name)
          }
        }
      default:
        let directory = temporaryPath("snapdiff-upload")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try UploadFile(in: directory)
        try Array(rest.dropFirst(2)).withUnsafeBytes { try file.append($0) }
        #expect(try file.readAll(limit: 1 << 20) == Array(rest.dropFirst(2)))
        file.discard()
        #expect(!FileManager.default.fileExists(atPath: file.path))
      }
    }
  }

  // MARK: - Found by reading what fuzz-request checks

  /// Found while writing fuzz-request: `SnapshotKey` (and `BaselineStore`'s environment check)
  /// looked for `/` as a Swift `Character`; a `/` followed by a combining mark (U+0301 here; also
  /// ZWJ, variation selectors…) is one Character that is not "/". So `../\u{301}x` passed as a
  /// single component, `..` unseen, and the file system, which splits on the byte, went up a
  /// folder: with `recordMode: missing` the service recorded the frame as
  /// `<store>/../\u{301}x.png`, outside the store. Fixed: every `/` test is on the bytes
  /// (`PathText`).
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a key or an environment whose '/' a combining mark joins cannot leave the store")
  func combiningMarkAfterSlash() async throws {
    #expect(throws: KeyError.self) { try SnapshotKey("../\u{301}x") }
    #expect(throws: KeyError.self) { try SnapshotKey("a/../\u{301}x") }
    #expect(throws: KeyError.self) { try BaselineStore(root: "/tmp/store", environment: "../\u{301}x") }
    #expect(throws: KeyError.self) { try BaselineStore(root: "/tmp/store", environment: "a/\u{301}x") }
    #expect(throws: APIError.self) { try SnapshotsController.key("..%2F%CC%81x") }
    // What fuzz-request found with FUZZ_REQUEST_STRICT=1 (the input `4/\xcd\x9b`): a leading
    // '/' joined by U+035B.
    #expect(throws: KeyError.self) { try SnapshotKey("/\u{35B}") }
    #expect(FileSystem.absolute("/\u{35B}x/../y") == "/y")
    try await withFixture { fixture in
      try fixture.writeBaseline("a/b", ServerFixture.screen())
      try await fixture.test { client in
        let open = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"name": "escape", "recordMode": "missing"}"#))
        let run = try #require(open.json["id"] as? String, "\(open.text)")
        // An ordinary frame first (the run's incoming folder then exists, as in any real run).
        #expect(try await client.putFrame(run, "a/b", ServerFixture.png(ServerFixture.screen())).status == .ok)
        let response = try await client.execute(
          uri: "/api/v1/runs/\(run)/snapshots/..%2F%CC%81escaped%2Fframe", method: .put, headers: pngHeaders,
          body: ByteBuffer(bytes: ServerFixture.png(ServerFixture.screen())))
        #expect(response.status == .unprocessableContent, "\(response.text)")
        #expect(response.errorMessage.contains("has a '..' component"), "\(response.text)")
        #expect(!FileManager.default.fileExists(atPath: fixture.root + "/\u{301}escaped/frame.png"))

        let environment = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"name": "escape", "environment": "../\u0301env"}"#))
        #expect(environment.status.code >= 400 && environment.status.code < 500, "\(environment.text)")
      }
    }
  }
}
