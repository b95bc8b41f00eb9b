import Foundation
import SnapdiffCore
import Testing

@Suite("run sessions")
struct RunSessionTests {
  @Test("review selection: a key selects itself alone (even with * in it), else a glob; keys differ by bytes")
  func exactKeysAndGlobs() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder + "/baselines")
      let white = RGBAImage(width: 4, height: 4, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
      let nfc = "m/Caf\u{E9}", nfd = "m/Cafe\u{301}"
      let keys = ["a/x*", "a/xy", nfd]
      let session = try RunSession.open(runsDirectory: folder + "/runs", store: store)
      for key in keys { try session.submit(key: key, png: PNGEncoder().encode(white)) }
      // The other spelling of the same text would be the same file on macOS: refused.
      #expect(throws: (any Error).self) { try session.submit(key: nfc, png: PNGEncoder().encode(white)) }
      let record = try session.close()
      func selected(_ patterns: [String]) throws -> [String] {
        try Review.select(Review.Selection(patterns: patterns), in: record).map(\.key)
      }
      #expect(try selected(["a/x*"]) == ["a/x*"])
      #expect(try selected(["a/x?"]) == ["a/x*", "a/xy"])
      #expect(try selected(["a/*y"]) == ["a/xy"])
      // Keys are compared by bytes: the other spelling names nothing.
      #expect(((try? selected([nfc])) ?? []).isEmpty)
      let approved = try Review(folder: session.folder).approve(Review.Selection(patterns: [nfd]))
      #expect(approved.count == 1 && approved[0].key.utf8.elementsEqual(nfd.utf8))
      #expect(FileSystem.isFile(folder + "/baselines/" + nfd + ".png"))
      #expect(!FileSystem.isFile(folder + "/baselines/" + nfc + ".png"))
    }
  }

  @Test("a skip is recorded with its reason, replaces a frame sent earlier, and is refused once closed")
  func skips() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder + "/baselines")
      let white = RGBAImage(width: 4, height: 4, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
      try store.write(try PNGEncoder().encode(white), for: SnapshotKey("a/home"))
      let session = try RunSession.open(runsDirectory: folder + "/runs", store: store)
      try session.submit(key: "a/home", png: PNGEncoder().encode(white))
      let skipped = try session.skip(key: "a/home", reason: "page 'home' is not allowed")
      #expect(skipped.status == .skipped && skipped.skipReason == "page 'home' is not allowed")
      #expect(skipped.baseline != nil)
      #expect(!FileSystem.isFile(session.incoming + "/a/home.png"))
      #expect(FileSystem.isFile(session.incoming + "/a/home.skipped.json"))
      #expect(throws: RunError.self) { try session.skip(key: "a/x", reason: "") }
      #expect(throws: RunError.self) { try session.skip(key: "a/x", reason: "two\nlines") }
      #expect(throws: KeyError.self) { try session.skip(key: "../x", reason: "r") }
      let run = try session.close()
      #expect(run.snapshots.map(\.status) == [.skipped])
      #expect(throws: RunError.self) { try session.skip(key: "a/late", reason: "r") }
    }
  }

  @Test("the project config's ignore rules apply to session frames, by key glob, as in check")
  func configIgnoreRules() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder + "/baselines")
      let white = RGBAImage(width: 8, height: 8, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
      var changed = white
      changed[x: 1, y: 1] = RGBAColor(red: 0, green: 0, blue: 0)
      for key in ["status/Home", "other/Home"] { try store.write(try PNGEncoder().encode(white), for: SnapshotKey(key)) }
      var config = ProjectConfig()
      config.ignore = [.init(keys: "status/*", regions: [.init(PixelRect(x: 0, y: 0, width: 8, height: 2))])]

      let session = try RunSession.open(runsDirectory: folder + "/runs", store: store, config: config)
      let masked = try session.submit(key: "status/Home", png: PNGEncoder().encode(changed))
      #expect(masked.status == .passed && masked.differentPixels == 0 && masked.ignoredPixels > 0, "\(masked)")
      #expect(try session.submit(key: "other/Home", png: PNGEncoder().encode(changed)).status == .failed)
      // A reopened session (the service reopens one per request) keeps the rules it is given.
      let reopened = try RunSession.reopen(session.folder, config: config)
      #expect(try reopened.submit(key: "status/Home", png: PNGEncoder().encode(changed)).status == .passed)
    }
  }

  @Test("submit one frame at a time, the same verdicts as check, then close; approve works on it")
  func session() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder + "/baselines")
      let white = RGBAImage(width: 8, height: 8, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
      var changed = white
      changed[x: 3, y: 3] = RGBAColor(red: 0, green: 0, blue: 0)
      try store.write(try PNGEncoder().encode(white), for: SnapshotKey("a/same"))
      try store.write(try PNGEncoder().encode(white), for: SnapshotKey("a/changed"))

      let session = try RunSession.open(runsDirectory: folder + "/runs", store: store, name: "nightly", branch: "main")
      #expect(try session.submit(key: "a/same", png: PNGEncoder().encode(white)).status == .passed)
      let failed = try session.submit(key: "a/changed", png: PNGEncoder().encode(changed))
      #expect(failed.status == .failed && failed.differentPixels == 1 && failed.diff != nil)
      let tree = try ElementTree.decode(
        Array(#"{"screen": {"width": 8, "height": 8}, "root": {"elementType": "other", "frame": {"x": 0, "y": 0, "width": 8, "height": 8}}}"#.utf8), path: "t")
      let new = try session.submit(key: "a/new", tree: tree)
    #expect(new.status == .new && !new.recorded)  // record mode never: reported, not recorded
      #expect(throws: KeyError.self) { try session.submit(key: "../x", png: PNGEncoder().encode(white)) }
      #expect(throws: PNGError.self) { try session.submit(key: "a/bad", png: [1, 2, 3]) }
      // A second submission of a key replaces the first.
      #expect(try session.submit(key: "a/changed", png: PNGEncoder().encode(changed)).status == .failed)

      let run = try session.close()
      #expect(run.closedAt != nil && run.name == "nightly" && run.branch == "main")
      #expect(run.snapshots.map(\.key) == ["a/changed", "a/new", "a/same"])
      #expect(throws: RunError.self) { try session.submit(key: "a/late", png: PNGEncoder().encode(white)) }
      let page = try String(contentsOfFile: session.folder.path + "/index.html", encoding: .utf8)
      #expect(page.contains("a service run: the frames posted to it") && !page.contains("a partial run"))

      try Review(folder: session.folder).approve(Review.Selection(patterns: ["a/changed"]))
      #expect(try PNGDecoder().decode(contentsOf: folder + "/baselines/a/changed.png") == changed)
    }
  }
}

@Suite("baseline cache")
struct BaselineCacheTests {
  @Test("a decoded baseline is stored, read back equal, keyed by content, and trimmed to its limit")
  func cache() throws {
    try withTemporaryDirectory { folder in
      let cache = BaselineCache(directory: folder + "/cache", limit: 1000)
      var image = RGBAImage(width: 10, height: 10, filledWith: RGBAColor(red: 1, green: 2, blue: 3))
      let png = try PNGEncoder().encode(image)
      #expect(try cache.image(of: png, path: "a.png", decoder: PNGDecoder()) == image)
      let entries = try FileManager.default.contentsOfDirectory(atPath: folder + "/cache")
      #expect(entries.count == 1 && entries[0].hasSuffix(".rgba"))
      // Read back from the cache (a decoder that refuses everything proves no decode happened).
      #expect(try cache.image(of: png, path: "a.png", decoder: PNGDecoder(maxPixels: 1)) == image)
      // Other content, another entry; a corrupt entry is a miss, not an error.
      image[x: 0, y: 0] = RGBAColor(red: 9, green: 9, blue: 9)
      let other = try PNGEncoder().encode(image)
      #expect(try cache.image(of: other, path: "b.png", decoder: PNGDecoder()) == image)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/cache") {
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: folder + "/cache/" + name))
      }
      #expect(try cache.image(of: other, path: "b.png", decoder: PNGDecoder()) == image)
      cache.trim()
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/cache").count <= 2)
      let tiny = BaselineCache(directory: folder + "/cache", limit: 0)
      tiny.trim()
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/cache").isEmpty)
      #expect(throws: PNGError.self) { try cache.image(of: [1, 2, 3], path: "c.png", decoder: PNGDecoder()) }
    }
  }
}

@Suite("run record cache")
struct RunRecordCacheTests {
  @Test("an unchanged run.json is served from the cache; any rewrite, by snapdiff or another tool, is read again")
  func staysFresh() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder + "/baselines")
      let white = RGBAImage(width: 4, height: 4, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
      let session = try RunSession.open(runsDirectory: folder + "/runs", store: store, name: "first")
      try session.submit(key: "a/one", png: PNGEncoder().encode(white))
      let run = session.folder
      #expect(try run.load().snapshots.map(\.key) == ["a/one"])
      #expect(try run.load() == run.load())

      // Another process's update (here another RunFolder value on the same path).
      let other = RunFolder(path: run.path)
      try other.update { $0.name = "second" }
      #expect(try run.load().name == "second")

      // A tool that rewrites the file in place, keeping its inode.
      var edited = try run.load()
      edited.name = "third"
      let bytes = try edited.encoded()
      let handle = try #require(FileHandle(forWritingAtPath: run.recordPath))
      handle.truncateFile(atOffset: 0)
      handle.write(Data(bytes))
      handle.closeFile()
      #expect(try run.load().name == "third")

      // Removed: the cache does not pretend it is still there.
      try FileManager.default.removeItem(atPath: run.recordPath)
      #expect(throws: RunError.self) { try run.load() }
    }
  }
}
