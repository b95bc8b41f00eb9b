import Foundation
import SnapdiffCore
import Testing

/// Issue #12, "Hardening II": `check` reads decoded baselines back from `.snapdiff/cache`, and
/// used to trust what it found there: an entry claiming a width of 2^62 killed `check` (SIGILL,
/// an overflow), and the current frame's pixels written into the baseline's entry made a
/// changed frame pass. Entries are now checked (sizes, the PNG they stand for, a checksum) and a
/// bad one is a miss, replaced.
@Suite("the baseline cache is not trusted")
struct BaselineCacheTrustTests {
  static let key = "Home - test_a/Home"
  static let mirror = "Mirror - test_b/Mirror"

  /// A failed snapshot whose baseline has a cache entry, and the entry of a second baseline that
  /// holds the first one's current frame.
  struct Setup {
    var workspace: Workspace
    var baselineEntry: String
    var frameEntry: String
  }

  static func setUp(_ workspace: Workspace) throws -> Setup {
    let baseline = Workspace.screen([PixelRect(x: 5, y: 5, width: 10, height: 10)])
    let frame = Workspace.screen([PixelRect(x: 30, y: 5, width: 10, height: 10)])
    try workspace.writeFrame(key, baseline, folder: "baselines")
    try workspace.writeFrame(key, frame)
    let cache = workspace.root + "/.snapdiff/cache"
    #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
    let first = try FileManager.default.contentsOfDirectory(atPath: cache)
    #expect(first.count == 1)
    // A second snapshot whose baseline is the first one's frame: its entry holds those pixels.
    try workspace.writeFrame(mirror, frame, folder: "baselines")
    try workspace.writeFrame(mirror, baseline)
    #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
    let second = try FileManager.default.contentsOfDirectory(atPath: cache).filter { !first.contains($0) }
    #expect(second.count == 1)
    return Setup(workspace: workspace, baselineEntry: cache + "/" + first[0], frameEntry: cache + "/" + second[0])
  }

  static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

  static func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

  /// `check` still fails the changed snapshot, and the planted entry is gone.
  static func expectStillFailed(_ setup: Setup, planted: [UInt8], sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    try write(planted, setup.baselineEntry)
    let check = try setup.workspace.snapdiff(["check", "frames"])
    #expect(check.status == 1, "\(check.standardOutput)\(check.standardError)", sourceLocation: sourceLocation)
    #expect(try setup.workspace.lastStatuses()[key] == "failed", sourceLocation: sourceLocation)
    #expect(try bytes(setup.baselineEntry) != planted, "the planted entry was kept", sourceLocation: sourceLocation)
  }

  @Test("the current frame's pixels written into the baseline's entry do not make the frame pass")
  func plantedPixels() throws {
    try withWorkspace { workspace in
      let setup = try Self.setUp(workspace)
      let entry = try Self.bytes(setup.baselineEntry)
      let frameEntry = try Self.bytes(setup.frameEntry)
      // The frame's pixels (the other entry's LZ4 block) under the baseline entry's header and checksum.
      try Self.expectStillFailed(setup, planted: Array(entry.prefix(72)) + frameEntry[72...])
      // The frame's whole entry under the baseline's name.
      try Self.expectStillFailed(setup, planted: frameEntry)
    }
  }

  @Test("an entry claiming a width of 2^62 is a miss, not a crash")
  func hugeWidth() throws {
    try withWorkspace { workspace in
      let setup = try Self.setUp(workspace)
      var entry = try Self.bytes(setup.baselineEntry)
      for index in 0..<8 { entry[16 + index] = UInt8(truncatingIfNeeded: (UInt64(1) << 62) >> (8 * UInt64(index))) }
      try Self.expectStillFailed(setup, planted: entry)
    }
  }
}
