import SnapdiffCore
import Testing

@Suite("match levels")
struct MatchLevelTests {
  static func image(_ color: RGBAColor, patch: RGBAColor? = nil) -> RGBAImage {
    var image = RGBAImage(width: 20, height: 20, filledWith: color)
    if let patch { for y in 5..<10 { for x in 5..<10 { image[x: x, y: y] = patch } } }
    return image
  }

  @Test("exact counts any byte difference, even one pixelmatch calls equal")
  func exact() {
    let gray = RGBAColor(red: 128, green: 128, blue: 128)
    let nearly = RGBAColor(red: 129, green: 128, blue: 128)
    let a = Self.image(gray)
    let b = Self.image(gray, patch: nearly)
    #expect(PixelDiff().compare(a, b).differentPixels == 0)
    #expect(PixelDiff(options: DiffOptions(matchLevel: .exact)).compare(a, b).differentPixels == 25)
    // Transparent pixels with different colours blend to the same white under strict.
    let clear = RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 0, 0, 0, 0, 0])
    let clearRed = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 0, 0, 0, 0, 0])
    #expect(PixelDiff(options: DiffOptions(threshold: 0)).compare(clear, clearRed).differentPixels == 0)
    #expect(PixelDiff(options: DiffOptions(matchLevel: .exact)).compare(clear, clearRed).differentPixels == 1)
  }

  @Test("ignore-colors lets a hue change of equal brightness pass, not a brightness change")
  func ignoreColors() {
    // Two colours of (nearly) equal YIQ brightness: red-ish and green-ish.
    let red = RGBAColor(red: 200, green: 60, blue: 60)
    let green = RGBAColor(red: 61, green: 131, blue: 60)
    let options = DiffOptions(matchLevel: .ignoreColors)
    #expect(PixelDiff().compare(Self.image(red), Self.image(green)).differentPixels == 400)
    #expect(PixelDiff(options: options).compare(Self.image(red), Self.image(green)).differentPixels == 0)
    let dark = RGBAColor(red: 20, green: 20, blue: 20)
    #expect(PixelDiff(options: options).compare(Self.image(red), Self.image(red, patch: dark)).differentPixels == 25)
  }

  @Test("layout: the verdict follows the trees; colour changes in an unchanged layout pass")
  func layout() throws {
    let tree = try ElementTreeTests.login()
    var recoloured = tree
    recoloured.root = Self.recolour("loginButton", in: tree.root)
    let renderer = ElementRenderer()
    let before = Frame(image: renderer.render(tree), tree: tree, path: "before")
    let after = Frame(image: renderer.render(recoloured), tree: recoloured, path: "after")
    let comparison = FrameComparison(matchLevel: .layout)
    let same = try comparison.compare(before, after, drawing: true)
    #expect(same.passed && same.layout == [])
    #expect(!same.result.passed)
    let moved = try ElementTree.load(ElementTreeTests.examples + "/login-moved.tree.json")
    let outcome = try comparison.compare(
      before, Frame(image: renderer.render(moved), tree: moved, path: "moved"), drawing: true)
    #expect(!outcome.passed)
    #expect(outcome.layout?.first?.sentence == "button 'loginButton' moved 8 pt down")
    #expect(outcome.diffImage?.size == before.image.size)
    #expect(throws: ConfigurationError.self) {
      try comparison.compare(Frame(image: before.image, tree: nil, path: "a.png"), after)
    }
  }

  static func recolour(_ identifier: String, in element: Element) -> Element {
    var copy = element
    if copy.identifier == identifier { copy.background = HexColor(RGBAColor(red: 255, green: 45, blue: 85)) }
    copy.children = copy.children.map { recolour(identifier, in: $0) }
    return copy
  }
}
