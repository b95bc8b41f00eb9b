import Foundation
import SnapdiffCore
import Testing

/// ``RegionComparison``'s rule through `FrameComparison` and settings files.
@Suite("regions")
struct RegionComparisonTests {
  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let blue = RGBAColor(red: 0, green: 122, blue: 255)

  static func screen(buttonX: Int = 20, button: RGBAColor = blue) -> RGBAImage {
    var image = RGBAImage(width: 60, height: 40, filledWith: white)
    for y in 17..<23 { for x in buttonX..<buttonX + 10 { image[x: x, y: y] = button } }
    return image
  }

  static func frame(_ image: RGBAImage) -> Frame { Frame(image: image, tree: nil, path: "frame.png") }

  @Test("a floating region finds the nearest offset, and its footprints do not count")
  func floating() throws {
    let comparison = FrameComparison(regions: [
      .floating(.pixels(PixelRect(x: 20, y: 17, width: 10, height: 6)), offsets: .init(all: 5))
    ])
    let moved = try comparison.compare(Self.frame(Self.screen()), Self.frame(Self.screen(buttonX: 22)))
    #expect(moved.passed)
    #expect(moved.floating.first?.offset?.dx == 2 && moved.floating.first?.offset?.dy == 0)
    let far = try comparison.compare(Self.frame(Self.screen()), Self.frame(Self.screen(buttonX: 27)), drawing: true)
    #expect(!far.passed)
    #expect(far.floating.first?.offset == nil)
    // Compared in place: the two button positions' symmetric difference, 2 × 7 × 6.
    #expect(far.result.differentPixels == 84)
    #expect(far.diffImage?.size == PixelSize(width: 60, height: 40))
  }

  @Test("strict and content regions add their counts; the limits apply to the sum")
  func counts() throws {
    let recoloured = Self.screen(button: RGBAColor(red: 20, green: 20, blue: 20))
    var changed = recoloured
    for y in 0..<4 { for x in 0..<4 { changed[x: x, y: y] = RGBAColor(red: 0, green: 0, blue: 0) } }
    let strict = FrameComparison(
      options: DiffOptions(maxDiffPixels: 70),
      regions: [CheckRegion(.strict, .pixels(PixelRect(x: 18, y: 15, width: 14, height: 10)))])
    let outcome = try strict.compare(Self.frame(Self.screen()), Self.frame(changed))
    #expect(outcome.result.differentPixels == 76)
    #expect(!outcome.passed)
    #expect(outcome.result.regions.count == 2)
  }

  @Test("settings files carry regions; malformed ones are refused with the file's name")
  func settings() throws {
    try withTemporaryDirectory { folder in
      let path = folder + "/Home.snapdiff.json"
      let json = #"""
        {"regions": [
          {"kind": "floating", "element": "~badge", "offsets": {"up": 1, "down": 2, "left": 3, "right": 4}},
          {"kind": "strict", "rect": {"x": 0, "y": 0, "width": 10, "height": 4}},
          {"kind": "content", "points": {"x": 1.5, "y": 0, "width": 10, "height": 4}},
          {"kind": "layout", "element": "feed"}]}
        """#
      try Data(json.utf8).write(to: URL(fileURLWithPath: path))
      let settings = try #require(try SnapshotSettings.load(path))
      #expect(settings.regions?.count == 4)
      #expect(
        settings.regions?.first == .floating(.element("~badge"), offsets: .init(up: 1, down: 2, left: 3, right: 4)))
      let comparison = try settings.applied(to: FrameComparison())
      #expect(comparison.regions.count == 4)
      let encoded = try JSONEncoder().encode(settings)
      #expect(try JSONDecoder().decode(SnapshotSettings.self, from: encoded) == settings)
      for bad in [
        #"{"regions": [{"kind": "floating", "rect": {"x": 0, "y": 0, "width": 1, "height": 1}}]}"#,
        #"{"regions": [{"kind": "strict", "rect": {"x": 0, "y": 0, "width": 1, "height": 1}, "element": "a"}]}"#,
        #"{"regions": [{"kind": "sideways", "element": "a"}]}"#,
        #"{"regions": [{"kind": "strict"}]}"#,
      ] {
        try Data(bad.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ConfigurationError.self) { try SnapshotSettings.load(path) }
      }
    }
  }

  @Test("regions in points need a tree; selectors resolve in the trees, floating ones in the baseline's")
  func resolution() throws {
    let frame = ElementFrame(x: 10, y: 5, width: 4, height: 2)
    #expect(throws: ConfigurationError.self) {
      try ResolvedRegions.resolve([CheckRegion(.strict, .points(frame))], baseline: nil, current: nil)
    }
    let tree = ElementTree(
      scale: 2, screen: .init(width: 30, height: 20),
      root: Element(
        identifier: "app", elementType: .application, frame: ElementFrame(x: 0, y: 0, width: 30, height: 20),
        children: [Element(identifier: "badge", elementType: .button, frame: frame)]))
    var moved = tree
    moved.root.children[0].frame.x = 12
    let resolved = try ResolvedRegions.resolve(
      [
        CheckRegion(.strict, .points(frame)), CheckRegion(.content, .element("badge")),
        .floating(.element("badge"), offsets: .init(all: 3)), CheckRegion(.layout, .element("~none")),
      ], baseline: tree, current: moved)
    #expect(resolved.strict == [PixelRect(x: 20, y: 10, width: 8, height: 4)])
    #expect(
      resolved.content == [PixelRect(x: 20, y: 10, width: 8, height: 4), PixelRect(x: 24, y: 10, width: 8, height: 4)])
    #expect(resolved.floating.map(\.rect) == [PixelRect(x: 20, y: 10, width: 8, height: 4)])
    #expect(resolved.unmatched == ["~none"])
  }
}
