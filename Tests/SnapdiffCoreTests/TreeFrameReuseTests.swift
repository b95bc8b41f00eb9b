import Foundation
import SnapdiffCore
import Testing

/// A tree-only frame (`<key>.tree.json` alone) whose tree equals its baseline's, when the
/// baseline is this renderer version's rendering of that tree, passes without being rendered
/// (`RunChecker.Outcome.renderedTrees` counts the renderings); anything else is rendered once
/// and compared.
@Suite("tree frames: unchanged trees are not rendered")
struct TreeFrameReuseTests {
  /// The login screen at scale 1 (390×844: quick in a debug build).
  static func login(clock: String = "9:41") throws -> ElementTree {
    var tree = try ElementTree.load(Fixtures.path("trees/login.tree.json"))
    tree.scale = 1
    let json = String(decoding: try tree.encoded(), as: UTF8.self)
      .replacingOccurrences(of: "\"label\" : \"9:41\"", with: "\"label\" : \"\(clock)\"")
    return try ElementTree.decode(Array(json.utf8), path: "login")
  }

  struct Workspace {
    let folder: String
    var frames: String { folder + "/frames" }
    var framePath: String { frames + "/Login/home.tree.json" }
    var baselinePNG: String { folder + "/baselines/Login/home.png" }
    var baselineTree: String { folder + "/baselines/Login/home.tree.json" }

    func write(_ tree: ElementTree) throws {
      try FileManager.default.createDirectory(atPath: frames + "/Login", withIntermediateDirectories: true)
      try FileIO.writeAtomically(try tree.encoded(), to: framePath)
    }

    func check(
      _ mode: RecordMode = .never, selectors: [ElementSelector] = [], matchLevel: MatchLevel? = nil
    ) throws -> (record: SnapshotRecord, rendered: Int) {
      let outcome = try RunChecker(
        currentDirectory: frames, store: BaselineStore(root: folder + "/baselines"), runsDirectory: folder + "/runs",
        selectors: selectors, matchLevel: matchLevel, recordMode: mode, jobs: 1
      ).run()
      return (try #require(outcome.record.snapshots.first), outcome.renderedTrees)
    }
  }

  static func withWorkspace(_ body: (Workspace) throws -> Void) throws {
    try withTemporaryDirectory { folder in try body(Workspace(folder: folder)) }
  }

  @Test("an unchanged tree passes without rendering; a changed one is rendered and fails")
  func unchangedAndChanged() throws {
    try Self.withWorkspace { workspace in
      try workspace.write(try Self.login())
      let first = try workspace.check(.missing)
      #expect(first.record.status == .new && first.record.recorded && first.rendered == 1)

      let again = try workspace.check()
      #expect(again.record.status == .passed, "\(again.record)")
      #expect(again.rendered == 0)
      #expect(again.record.totalPixels == 390 * 844 && again.record.currentSize?.width == 390)

      try workspace.write(try Self.login(clock: "9:42"))
      let changed = try workspace.check()
      #expect(changed.record.status == .failed && changed.record.differentPixels > 0)
      #expect(changed.rendered == 1)
      #expect(changed.record.diff != nil && changed.record.current != nil)
    }
  }

  @Test("a changed tree, once approved, is not rendered on the next run")
  func approvedChangeIsReused() throws {
    try Self.withWorkspace { workspace in
      try workspace.write(try Self.login())
      _ = try workspace.check(.missing)
      try workspace.write(try Self.login(clock: "9:42"))
      let store = try BaselineStore(root: workspace.folder + "/baselines")
      let failed = try RunChecker(
        currentDirectory: workspace.frames, store: store, runsDirectory: workspace.folder + "/runs", recordMode: .never
      ).run()
      #expect(failed.record.snapshots.first?.status == .failed)
      let approved = try Review(folder: failed.folder, storeRoot: store.root).approve(
        Review.Selection(patterns: ["Login/home"]))
      #expect(approved.count == 1)
      let next = try workspace.check()
      #expect(next.record.status == .passed && next.rendered == 0, "\(next.record)")
    }
  }

  @Test("the baseline written from a tree decodes to the rendering, by either decode path")
  func stampedBaselineDecodes() throws {
    try Self.withWorkspace { workspace in
      let tree = try Self.login()
      try workspace.write(tree)
      _ = try workspace.check(.missing)
      let rendered = ElementRenderer().render(tree)
      var libpng = PNGDecoder()
      libpng.usesFastPath = false
      #expect(try PNGDecoder().decode(contentsOf: workspace.baselinePNG) == rendered)
      #expect(try libpng.decode(contentsOf: workspace.baselinePNG) == rendered)
    }
  }

  @Test("a baseline that is not the stamped rendering of the stored tree is compared, not trusted")
  func untrustedBaselines() throws {
    try Self.withWorkspace { workspace in
      let tree = try Self.login()
      try workspace.write(tree)
      _ = try workspace.check(.missing)
      let stamped = try FileIO.read(workspace.baselinePNG)

      // The same pixels without the stamp: rendered and compared, and they pass.
      try FileIO.writeAtomically(try PNGEncoder().encode(ElementRenderer().render(tree)), to: workspace.baselinePNG)
      let unstamped = try workspace.check()
      #expect(unstamped.record.status == .passed && unstamped.rendered == 1)

      // The stamp kept, the image data damaged: not passed on the stamp but decoded, so the
      // damage is an error (before the frame is rendered).
      var damaged = stamped
      damaged[damaged.count - 20] ^= 0x5A  // inside the last IDAT, before IEND
      try FileIO.writeAtomically(damaged, to: workspace.baselinePNG)
      let broken = try workspace.check()
      #expect(broken.record.status == .failed && broken.record.error?.contains("home.png") == true, "\(broken.record)")

      // The stored tree edited to match a changed frame: the stamp names the old tree, so the
      // frame is rendered and differs from the old rendering.
      try FileIO.writeAtomically(stamped, to: workspace.baselinePNG)
      let edited = try Self.login(clock: "10:00")
      try FileIO.writeAtomically(try edited.encoded(), to: workspace.baselineTree)
      try workspace.write(edited)
      let stale = try workspace.check()
      #expect(stale.record.status == .failed && stale.record.differentPixels > 0 && stale.rendered == 1)
    }
  }

  @Test("the unchanged verdict records what the comparison records (masks, unmatched selectors, layout level)")
  func sameRecordAsComparing() throws {
    let selectors = [try ElementSelector("clock"), try ElementSelector("noSuchElement")]
    for level in [MatchLevel.strict, .layout] {
      try Self.withWorkspace { workspace in
        let tree = try Self.login()
        try workspace.write(tree)
        _ = try workspace.check(.missing)
        let reused = try workspace.check(selectors: selectors, matchLevel: level)
        try FileIO.writeAtomically(try PNGEncoder().encode(ElementRenderer().render(tree)), to: workspace.baselinePNG)
        let compared = try workspace.check(selectors: selectors, matchLevel: level)
        #expect(reused.rendered == 0 && compared.rendered == 1)
        // The same verdict; only the baseline's hash differs (stamped, then re-encoded without).
        var unstamped = reused.record
        unstamped.baselineHash = compared.record.baselineHash
        #expect(reused.record.baselineHash != nil)
        #expect(unstamped == compared.record, "\(level)")
        #expect(reused.record.unmatchedSelectors == ["noSuchElement"])
      }
    }
  }

  /// The skip is only as good as `ElementRenderer.version`: a change to what the renderer draws
  /// must come with a new version, or baselines drawn by the old renderer would pass unseen.
  @Test("ElementRenderer.version is pinned to the pixels it draws")
  func rendererVersionPinned() throws {
    let pinned: (version: Int, digests: [String: String]) = (
      1,
      [
        "login": "dc52da4533f7dccf", "onboarding": "ce18f6ff3288f885", "results": "64264a93b93afdf3",
        "alert": "5fe94eaa0d2f12f9",
      ]
    )
    for name in ["login", "onboarding", "results", "alert"] {
      let image = ElementRenderer().render(try ElementTree.load(Fixtures.path("trees/\(name).tree.json")))
      let digest = Self.fnv1a(image.pixels)
      #expect(
        ElementRenderer.version == pinned.version && digest == pinned.digests[name],
        """
        \(name) renders to pixels with digest \(digest): if the renderer changed, add one to \
        ElementRenderer.version and pin the new digests here (baselines rendered by the old \
        version must not pass unchanged trees without a rendering)
        """)
    }
  }

  static func fnv1a(_ bytes: [UInt8]) -> String {
    // FNV-1a over 8-byte words (a debug build hashes 12 MB in a blink this way).
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
    bytes.withUnsafeBytes { raw in
      for index in 0..<raw.count / 8 {
        hash = (hash ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x0000_0100_0000_01B3
      }
      for index in (raw.count / 8 * 8)..<raw.count { hash = (hash ^ UInt64(raw[index])) &* 0x0000_0100_0000_01B3 }
    }
    return String(hash, radix: 16)
  }
}
