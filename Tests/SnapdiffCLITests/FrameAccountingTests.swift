import Foundation
import SnapdiffCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every file under a frames folder is checked or reported (issue #12, bug 4), through the real
/// `snapdiff` process.
@Suite("frames accounted for")
struct FrameAccountingTests {
  /// Renames `from` to `folder/<bytes>`: a name Swift's `String` cannot spell.
  static func move(_ from: String, toBytes name: [UInt8], in folder: String) throws {
    let target = (Array((folder + "/").utf8) + name + [0]).map { CChar(bitPattern: $0) }
    guard rename(from, target) == 0 else { throw CocoaError(.fileWriteUnknown) }
  }

  @Test("a frame whose name is not valid UTF-8 is an error naming its bytes, not 0 snapshots")
  func nonUTF8FrameName() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("plain", Workspace.screen([]))
      try Self.move(
        workspace.root + "/frames/plain.png", toBytes: [0xFF] + Array(".png".utf8), in: workspace.root + "/frames")
      let run = try workspace.snapdiff(["check", "frames"], environment: ["CI": "1"])
      #expect(run.status == 2)
      #expect(
        run.standardError
          == "snapdiff: error: \(workspace.root)/frames/\\xFF.png: the name is not valid UTF-8, so it cannot be a snapshot key: rename it\n"
      )
      #expect(!run.standardOutput.contains("0 snapshots"))
    }
  }

  @Test("a folder whose name is not valid UTF-8 is an error naming its bytes")
  func nonUTF8FolderName() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("caf/Home", Workspace.screen([]))
      try Self.move(workspace.root + "/frames/caf", toBytes: Array("caf".utf8) + [0xE9], in: workspace.root + "/frames")
      let run = try workspace.snapdiff(["check", "frames"])
      #expect(run.status == 2)
      #expect(run.standardError.contains("frames/caf\\xE9: the name is not valid UTF-8"))
    }
  }

  @Test("a link among the frames that leads nowhere is an error; a link to a frame is checked")
  func brokenLink() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home", Workspace.screen([]))
      try FileManager.default.createSymbolicLink(
        atPath: workspace.root + "/frames/Alias.png", withDestinationPath: "Home.png")
      let linked = try workspace.snapdiff(["check", "frames"])
      #expect(linked.status == 0, "\(linked.standardError)")
      #expect(try workspace.lastStatuses().keys.sorted() == ["Alias", "Home"])
      try FileManager.default.createSymbolicLink(
        atPath: workspace.root + "/frames/Gone.png", withDestinationPath: "nothing.png")
      let run = try workspace.snapdiff(["check", "frames"])
      #expect(run.status == 2)
      #expect(run.standardError.contains("frames/Gone.png: is a symbolic link that leads nowhere"))
    }
  }
}
