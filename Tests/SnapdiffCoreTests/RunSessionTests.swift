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
      let nfc = "m/Caf\u{E9}"
      let nfd = "m/Cafe\u{301}"
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
      let approved = try Review(folder: session.folder, storeRoot: store.root).approve(
        Review.Selection(patterns: [nfd]))
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
      for key in ["status/Home", "other/Home"] {
        try store.write(try PNGEncoder().encode(white), for: SnapshotKey(key))
      }
      var config = ProjectConfig()
      config.ignore = [.init(keys: "status/*", regions: [PixelRect(x: 0, y: 0, width: 8, height: 2)])]

      let session = try RunSession.open(runsDirectory: folder + "/runs", store: store, config: config)
      let masked = try session.submit(key: "status/Home", png: PNGEncoder().encode(changed))
      #expect(masked.status == .passed && masked.differentPixels == 0 && masked.ignoredPixels > 0, "\(masked)")
      #expect(try session.submit(key: "other/Home", png: PNGEncoder().encode(changed)).status == .failed)
      // A reopened session (the service reopens one per request) keeps the rules it is given.
      let reopened = try RunSession.reopen(session.folder, storeRoot: store.root, config: config)
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
        Array(
          #"{"screen": {"width": 8, "height": 8}, "root": {"elementType": "other", "frame": {"x": 0, "y": 0, "width": 8, "height": 8}}}"#
            .utf8), path: "t")
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

      try Review(folder: session.folder, storeRoot: store.root).approve(Review.Selection(patterns: ["a/changed"]))
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
      // Read back from the cache: a hit marks the entry used (its time), a miss rewrites it.
      let entry = folder + "/cache/" + entries[0]
      let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/cache")
      var old = [timespec(tv_sec: 1000, tv_nsec: 0), timespec(tv_sec: 1000, tv_nsec: 0)]
      utimensat(AT_FDCWD, entry, &old, 0)
      #expect(try cache.image(of: png, path: "a.png", decoder: PNGDecoder()) == image)
      #expect(
        try FileManager.default.attributesOfItem(atPath: entry)[.modificationDate] as? Date ?? .distantPast
          > Date(timeIntervalSince1970: 100_000))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/cache") == written)
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

@Suite("baseline cache entries are not trusted")
struct BaselineCacheValidationTests {
  /// A cached entry and the PNG it stands for.
  struct Fixture {
    var cache: BaselineCache
    var png: [UInt8]
    var image: RGBAImage
    var entry: String

    init(folder: String, color: RGBAColor = RGBAColor(red: 1, green: 2, blue: 3)) throws {
      cache = BaselineCache(directory: folder + "/cache")
      image = RGBAImage(width: 7, height: 5, filledWith: color)
      image[x: 3, y: 2] = RGBAColor(red: 200, green: 100, blue: 0)
      png = try PNGEncoder().encode(image)
      let before = Set((try? FileManager.default.contentsOfDirectory(atPath: folder + "/cache")) ?? [])
      _ = try cache.image(of: png, path: "a.png", decoder: PNGDecoder())
      let name = try FileManager.default.contentsOfDirectory(atPath: folder + "/cache").first { !before.contains($0) }!
      entry = folder + "/cache/" + name
    }

    var bytes: [UInt8] { get throws { Array(try Data(contentsOf: URL(fileURLWithPath: entry))) } }

    func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: entry)) }

    /// The cache's answer is the PNG's own pixels, and the entry is whole again afterwards.
    func expectMissAndRepair(_ planted: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
      try write(planted)
      #expect(try cache.image(of: png, path: "a.png", decoder: PNGDecoder()) == image, sourceLocation: sourceLocation)
      #expect(try bytes != planted, "the bad entry was kept", sourceLocation: sourceLocation)
      // The replacement is a hit.
      #expect(try cache.image(of: png, path: "a.png", decoder: PNGDecoder()) == image, sourceLocation: sourceLocation)
    }
  }

  /// An independent copy of the entry checksum (BaselineCache's format: two multiply-rotate
  /// lanes over the bytes before the last 16), so a test can forge entries that pass it.
  static func resealed(_ entry: [UInt8]) -> [UInt8] {
    let body = Array(entry.dropLast(16))
    var a: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(body.count)
    var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F &+ UInt64(body.count)
    func word(_ offset: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(body[offset + $1]) << (8 * UInt64($1)) } }
    for index in 0..<(body.count / 8) {
      a = ((a ^ word(index * 8)) &* 0xFF51_AFD7_ED55_8CCD)
      a = (a << 31) | (a >> 33)
      b = ((b &+ word(index * 8)) &* 0xC4CE_B9FE_1A85_EC53)
      b = (b << 29) | (b >> 35)
    }
    for index in (body.count / 8 * 8)..<body.count {
      a = (a ^ UInt64(body[index])) &* 0x0000_0100_0000_01B3
      b = (b &+ UInt64(body[index])) &* 0x9E37_79B9_7F4A_7C15
    }
    func mix(_ value: UInt64) -> UInt64 {
      var z = value
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    return body
      + [mix(a), mix(b ^ a)].flatMap { value in (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
  }

  static func setting(_ entry: [UInt8], field offset: Int, to value: UInt64) -> [UInt8] {
    var copy = entry
    for index in 0..<8 { copy[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
    return copy
  }

  @Test("sizes that overflow or pass the pixel limit are misses, even with a valid checksum (width 2^62 once trapped)")
  func sizes() throws {
    try withTemporaryDirectory { folder in
      let fixture = try Fixture(folder: folder)
      let entry = try fixture.bytes
      for (width, height): (UInt64, UInt64) in [
        (1 << 62, 1), (1 << 62, 1 << 62), (1 << 32, 1 << 32), (0, 5), (7, 0),
        (UInt64.max, 5), (100_000, 100_000), (5, 7), (35, 1),
      ] {
        let planted = Self.resealed(Self.setting(Self.setting(entry, field: 16, to: width), field: 24, to: height))
        try fixture.expectMissAndRepair(planted)
      }
    }
  }

  @Test("another image's pixels written into an entry, a renamed entry, a cut or flipped one: misses, replaced")
  func damage() throws {
    try withTemporaryDirectory { folder in
      let fixture = try Fixture(folder: folder)
      let other = try Fixture(folder: folder, color: RGBAColor(red: 250, green: 2, blue: 3))
      let entry = try fixture.bytes
      let otherEntry = try other.bytes
      // The other image's pixels (its LZ4 block) under this entry's header and checksum.
      try fixture.expectMissAndRepair(Array(entry.prefix(72)) + otherEntry[72...])
      // The other entry whole, under this entry's name: it names another PNG.
      try fixture.expectMissAndRepair(otherEntry)
      // ...even resealed with this PNG's length: the hash still differs.
      try fixture.expectMissAndRepair(Self.resealed(Self.setting(otherEntry, field: 32, to: UInt64(fixture.png.count))))
      // Cut, flipped, empty, the old raw format.
      try fixture.expectMissAndRepair(Array(entry.dropLast(1)))
      for offset in [0, 20, 40, 80, entry.count - 1] {
        var flipped = entry
        flipped[offset] ^= 0x10
        try fixture.expectMissAndRepair(flipped)
      }
      try fixture.expectMissAndRepair([])
      try fixture.expectMissAndRepair(
        Array("SNAPDIFF-RGBA-1\n".utf8)
          + Self.setting(
            Self.setting(
              Self.setting([UInt8](repeating: 0, count: 24), field: 0, to: 7),
              field: 8, to: 5), field: 16, to: UInt64(fixture.png.count)) + fixture.image.pixels)
      // An LZ4 block that inflates to too few bytes or too many, resealed.
      try fixture.expectMissAndRepair(
        Self.resealed(Array(entry.prefix(72)) + [0x10, 0xFF] + [UInt8](repeating: 0, count: 16)))
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
