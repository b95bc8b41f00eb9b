import Foundation
import SnapdiffCore
import Testing

/// The store's layout of variants (`BaselineStore+Variants.swift`): hidden beside the baseline,
/// invisible to listings of keys, searched in the store's order with a layer's baseline
/// shadowing the variants behind it.
@Suite("baseline variants in the store")
struct BaselineStoreVariantsTests {
  let key = try! SnapshotKey("Home - test_search/Home")
  let png: [UInt8] = Array("not decoded here".utf8)

  @Test("a variant is a hidden file beside the baseline's folder; listings of keys do not see it")
  func layout() throws {
    try withTemporaryDirectory { root in
      let store = try BaselineStore(root: root + "/baselines")
      try store.write(png, for: key)
      let old = try store.replaceVariant(png, for: key, named: "intel")
      #expect(old.png == nil)
      #expect(FileSystem.isFile(root + "/baselines/.variants/Home - test_search/Home/intel.png"))
      #expect(try store.keys() == [key])
      #expect(try store.visibleKeys() == [key])
      let baseline = try #require(try store.locate(key))
      #expect(try store.variants(of: key, besides: baseline).map(\.name) == ["intel"])
      // A deeper key's variants are its own.
      let child = try SnapshotKey("Home - test_search/Home/Detail")
      try store.replaceVariant(png, for: child, named: "ios18")
      #expect(try store.variants(of: key, besides: baseline).map(\.name) == ["intel"])
      #expect(try store.writtenVariants().map(\.key).sorted { $0.rawValue < $1.rawValue } == [key, child])

      let variant = try #require(try store.writtenVariants(of: key).first)
      #expect(try store.removeVariant(variant, ifHash: String(repeating: "0", count: 64)) == nil)
      #expect(try store.removeVariant(variant, ifHash: SHA256.hex(png))?.png == png)
      #expect(try store.variants(of: key, besides: baseline).isEmpty)

      for bad in ["a/b", "..", ".hidden", "x.tree", ""] {
        #expect(throws: KeyError.self) { try BaselineStore.checkVariantName(bad) }
      }
    }
  }

  @Test("an overlay's variants come first; an overlay's own baseline shadows the store's variants")
  func overlays() throws {
    try withTemporaryDirectory { root in
      let trunk = try BaselineStore(root: root + "/baselines")
      try trunk.write(png, for: key)
      try trunk.replaceVariant(png, for: key, named: "intel")
      var branch = trunk
      branch.overlays = [".branches/feature%2Fx"]
      try branch.replaceVariant(png, for: key, named: "ios18")
      #expect(
        FileSystem.isFile(root + "/baselines/.branches/feature%2Fx/.variants/Home - test_search/Home/ios18.png"))

      let fromTrunk = try #require(try branch.locate(key))
      #expect(try branch.variants(of: key, besides: fromTrunk).map(\.name) == ["ios18", "intel"])
      #expect(try trunk.variants(of: key, besides: try #require(try trunk.locate(key))).map(\.name) == ["intel"])

      try branch.write(png, for: key)
      let own = try #require(try branch.locate(key))
      #expect(try branch.variants(of: key, besides: own).map(\.name) == ["ios18"])
    }
  }

  @Test("an environment's variants, then the root's when the baseline is the root's")
  func environments() throws {
    try withTemporaryDirectory { root in
      let plain = try BaselineStore(root: root + "/baselines")
      try plain.write(png, for: key)
      try plain.replaceVariant(png, for: key, named: "intel")
      let phone = try BaselineStore(root: root + "/baselines", environment: "iPhone15")
      try phone.replaceVariant(png, for: key, named: "m3")
      let baseline = try #require(try phone.locate(key))
      #expect(baseline.environment == nil)
      #expect(try phone.variants(of: key, besides: baseline).map(\.name) == ["m3", "intel"])
      #expect(try plain.keys() == [key])
    }
  }

  @Test("the in-process check (the test API's local checker) passes a frame that matches a variant, and names it")
  func inProcessCheck() throws {
    try withTemporaryDirectory { root in
      func screen(_ y: Int) -> RGBAImage {
        var image = RGBAImage(width: 30, height: 20, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
        for row in y..<(y + 5) {
          for x in 5..<15 { image[x: x, y: row] = RGBAColor(red: 20, green: 30, blue: 40) }
        }
        return image
      }
      let store = try BaselineStore(root: root + "/baselines")
      try store.write(try PNGEncoder().encode(screen(2)), for: key)
      try store.replaceVariant(try PNGEncoder().encode(screen(6)), for: key, named: "arm")
      let rule = SnapshotCheck(recordMode: .all)
      func check(_ image: RGBAImage) throws -> SnapshotCheck.Checked {
        try rule.check(Frame(image: image, tree: nil, path: "frame.png"), key: key, frameSettings: nil, in: store)
      }
      #expect(try check(screen(2)).variant == nil)
      let byVariant = try check(screen(6))
      #expect(byVariant.verdict.status == .passed)
      #expect(!byVariant.verdict.records)
      #expect(byVariant.variant?.name == "arm")
      #expect(byVariant.recordedPath == nil, "a frame a variant accepts is not recorded over the baseline")
      let changed = try check(screen(12))
      #expect(changed.verdict.status == .failed)
      #expect(changed.variant == nil)
    }
  }
}
