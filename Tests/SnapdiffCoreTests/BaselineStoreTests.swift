import Foundation
import SnapdiffCore
import Testing

@Suite("snapshot keys")
struct SnapshotKeyTests {
  @Test("keys as the seed API builds them are valid")
  func valid() throws {
    let key = try SnapshotKey("Home - test_search/Home - search action")
    #expect(key.group == "Home - test_search")
    #expect(key.relativePath() == "Home - test_search/Home - search action.png")
    #expect(try SnapshotKey(relativeImagePath: "a/b.PNG").rawValue == "a/b")
    #expect(try SnapshotKey("Ünïcödé/画面").rawValue == "Ünïcödé/画面")
  }

  @Test(
    "keys that could leave the store or break a file system are refused",
    arguments: [
      ("", "is empty"), ("../etc/passwd", "has a '..' component"), ("a/../../b", "has a '..' component"),
      ("/abs", "starts with '/'"), ("a\\b", "contains a backslash"), ("a\u{0}b", "contains a NUL"),
      ("a\nb", "contains a control character (U+A)"), ("a//b", "empty folder name"), ("a/", "ends with '/'"),
      ("./a", "has a '.' component"), (String(repeating: "x", count: 241), "longer than 240 bytes"),
    ])
  func invalid(_ raw: String, _ problem: String) {
    #expect {
      try SnapshotKey(raw)
    } throws: { error in
      (error as? KeyError)?.description.contains(problem) == true
    }
  }

  @Test("globs match across folders")
  func globs() throws {
    let key = try SnapshotKey("Onboarding - test_flow/Onboarding - step 2")
    #expect(key.matches(glob: "Onboarding*"))
    #expect(key.matches(glob: "*step ?"))
    #expect(!key.matches(glob: "Home*"))
    #expect(key.matches(glob: key.rawValue))
  }

  @Test("keys differing only by case or Unicode normalisation collide; keys are equal by their bytes")
  func collisions() throws {
    let nfc = "c/Caf\u{E9}"
    let nfd = "c/Cafe\u{301}"
    let keys = try ["a/Home", "a/home", "b/x", nfc, nfd].map { (raw: String) throws -> SnapshotKey in
      try SnapshotKey(raw)
    }
    let collisions = SnapshotKey.collisions(keys)
    #expect(collisions.count == 2)
    let found = collisions.map { [$0.0.rawValue, $0.1.rawValue].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
    #expect(found.contains(["a/Home", "a/home"]))
    #expect(found.contains { $0[0].utf8.elementsEqual(nfd.utf8) && $0[1].utf8.elementsEqual(nfc.utf8) })
    #expect(collisions.map(\.2).sorted { _, b in b == .normalization } == [.letterCase, .normalization])
    // Swift's String calls the two spellings equal; the keys are not, and a set keeps both.
    #expect(nfc == nfd)
    #expect(try SnapshotKey(nfc) != SnapshotKey(nfd))
    #expect(try Set([SnapshotKey(nfc), SnapshotKey(nfd)]).count == 2)
  }
}

@Suite("baseline store")
struct BaselineStoreTests {
  let png = try! PNGEncoder().encode(RGBAImage(width: 2, height: 2, filledWith: .red))
  let otherPNG = try! PNGEncoder().encode(RGBAImage(width: 2, height: 2, filledWith: .yellow))

  @Test("writes atomically, locates, falls back from the environment to the root")
  func environments() throws {
    try withTemporaryDirectory { folder in
      let key = try SnapshotKey("Home - test/Home")
      let root = try BaselineStore(root: folder + "/baselines")
      try root.write(png, for: key)
      let phone = try BaselineStore(root: folder + "/baselines", environment: "iPhone15@3x")
      #expect(try phone.locate(key)?.environment == nil)
      try phone.write(otherPNG, for: key)
      #expect(try phone.locate(key)?.environment == "iPhone15@3x")
      #expect(try root.locate(key)?.environment == nil)
      #expect(try FileIO.read(phone.locate(key)!.path) == otherPNG)
      // The root's listing leaves the environment folder out; the environment lists its own.
      #expect(try root.keys() == [key])
      #expect(try phone.keys(inEnvironment: "iPhone15@3x") == [key])
      #expect(throws: KeyError.self) { try BaselineStore(root: folder, environment: "a/b") }
    }
  }

  @Test("a baseline that links outside the store is refused")
  func symlinkOutside() throws {
    try withTemporaryDirectory { folder in
      try FileManager.default.createDirectory(atPath: folder + "/baselines/x", withIntermediateDirectories: true)
      try Data(png).write(to: URL(fileURLWithPath: folder + "/secret.png"))
      try FileManager.default.createSymbolicLink(
        atPath: folder + "/baselines/x/y.png", withDestinationPath: folder + "/secret.png")
      let store = try BaselineStore(root: folder + "/baselines")
      #expect {
        try store.locate(SnapshotKey("x/y"))
      } throws: { error in
        (error as? FileError)?.message == "is a symbolic link that leads outside the baseline store"
      }
    }
  }

  @Test("settings beside a baseline refine the options; bad ones name the file and the field")
  func settings() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder)
      let key = try SnapshotKey("a/b")
      try store.write(png, for: key)
      let location = try #require(try store.locate(key))
      let settingsPath = folder + "/a/b.snapdiff.json"
      try Data(
        #"{"threshold": 0.3, "maxDiffPixels": 4, "ignoreRegions": [{"x": 1, "y": 2, "width": 3, "height": 4}]}"#.utf8
      )
      .write(to: URL(fileURLWithPath: settingsPath))
      let options = try #require(try store.settings(at: location)).applied(to: DiffOptions())
      #expect(options.threshold == 0.3 && options.maxDiffPixels == 4)
      #expect(options.ignoreRegions == [PixelRect(x: 1, y: 2, width: 3, height: 4)])

      try Data(#"{"threshold": "high"}"#.utf8).write(to: URL(fileURLWithPath: settingsPath))
      #expect {
        try store.settings(at: location)
      } throws: { error in
        "\(error)" == "\(settingsPath): not valid snapshot settings: $.threshold should be a number"
      }
      try Data(#"{"threshold": 3}"#.utf8).write(to: URL(fileURLWithPath: settingsPath))
      #expect {
        try store.settings(at: location)
      } throws: { error in
        "\(error)" == "\(settingsPath): threshold must be between 0 and 1, not 3.0"
      }
    }
  }

  @Test("concurrent writers of many keys lose nothing")
  func concurrentWriters() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder)
      let images = (0..<40).map {
        try! PNGEncoder().encode(
          RGBAImage(width: 3, height: 3, filledWith: RGBAColor(red: UInt8($0), green: 0, blue: 0)))
      }
      DispatchQueue.concurrentPerform(iterations: 40) { index in
        try! store.write(images[index], for: SnapshotKey("k/\(index % 10)/\(index)"))
      }
      for index in 0..<40 {
        #expect(try FileIO.read(folder + "/k/\(index % 10)/\(index).png") == images[index])
      }
    }
  }
}
