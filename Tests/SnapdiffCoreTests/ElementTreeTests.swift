import Foundation
import SnapdiffCore
import Testing

@Suite("element trees")
struct ElementTreeTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/trees").path

  static func login(_ name: String = "login") throws -> ElementTree {
    try ElementTree.load(examples + "/\(name).tree.json")
  }

  @Test("the example tree loads with its defaults")
  func loads() throws {
    let tree = try Self.login()
    #expect(tree.scale == 3 && tree.screen == ElementTree.Size(width: 390, height: 844))
    #expect(tree.pixelSize == PixelSize(width: 1170, height: 2532))
    let button = try #require(tree.root.allElements().first { $0.identifier == "loginButton" })
    #expect(button.elementType == .button && button.isEnabled && button.label == "Log in")
  }

  @Test(
    "malformed trees name the JSON path of the problem",
    arguments: [
      (#"{"screen": {"width": 10, "height": 10}}"#, #"the document is missing "root""#),
      (
        #"{"screen": {"width": 10, "height": 10}, "root": {"elementType": "buton", "frame": {"x": 0, "y": 0, "width": 1, "height": 1}}}"#,
        "$.root.elementType: 'buton' is not an element type (did you mean 'button'?)"
      ),
      (
        #"{"screen": {"width": 10, "height": 10}, "root": {"elementType": "other", "frame": {"x": 0, "y": 0, "width": 1, "height": 1}, "children": [{"elementType": "button", "frame": {"x": 0, "y": 0, "width": "wide", "height": 1}}]}}"#,
        "$.root.children[0].frame.width should be a number"
      ),
      (
        #"{"screen": {"width": 10, "height": 10}, "root": {"elementType": "other", "frame": {"x": 0, "y": 0, "width": -5, "height": 1}}}"#,
        "$.root.frame.width: a width cannot be negative (-5.0)"
      ),
      (
        #"{"screen": {"width": 10, "height": 10}, "root": {"elementType": "other", "frame": {"x": 1e12, "y": 0, "width": 5, "height": 1}}}"#,
        "$.root.frame.x: 1000000000000.0 is out of range"
      ),
      (
        #"{"scale": 4, "screen": {"width": 10, "height": 10}, "root": {"elementType": "other", "frame": {"x": 0, "y": 0, "width": 5, "height": 1}}}"#,
        "$.scale: scale must be 1, 2 or 3, not 4"
      ),
      (
        #"{"screen": {"width": 10, "height": 10}, "root": {"elementType": "other", "background": "red", "frame": {"x": 0, "y": 0, "width": 5, "height": 1}}}"#,
        "$.root.background: 'red' is not a colour"
      ),
      (
        #"{"screen": {"width": 10, "height": 10}, "root": {"elementType": "other"}}"#,
        #"$.root is missing "frame""#
      ),
    ])
  func malformed(_ json: String, _ message: String) {
    #expect {
      try ElementTree.decode(Array(json.utf8), path: "bad.tree.json")
    } throws: { error in
      let text = "\(error)"
      return text.hasPrefix("bad.tree.json: not a valid element tree: ") && text.contains(message)
    }
  }

  @Test("unknown keys are ignored")
  func unknownKeys() throws {
    let json =
      #"{"device": "iPhone", "screen": {"width": 10, "height": 10}, "root": {"elementType": "other", "frame": {"x": 0, "y": 0, "width": 5, "height": 1}, "accessibilityTraits": 4}}"#
    #expect(try ElementTree.decode(Array(json.utf8), path: "x").root.elementType == .other)
  }
}

@Suite("element selectors")
struct ElementSelectorTests {
  @Test("identifiers, parts of identifiers, types, descent")
  func grammar() throws {
    let tree = try ElementTreeTests.login()
    func ids(_ text: String) throws -> [String] { try ElementSelector(text).matches(in: tree).map(\.identifier) }
    #expect(try ids("clock") == ["clock"])
    #expect(try ids("~Banner") == ["adBanner"])
    #expect(try ids("~Field") == ["emailField", "passwordField"])
    #expect(try ids("@switch") == ["rememberSwitch"])
    #expect(try ids("statusBar/clock") == ["clock"])
    #expect(try ids("@statusBar/@staticText") == ["clock"])
    #expect(try ids("adBanner/@staticText") == ["adText"])
    #expect(try ids("@navigationBar/clock") == [])
    #expect(try ids("app/@window/loginButton") == ["loginButton"])
  }

  @Test("rectangles at scale 1 and 3, rounded outwards")
  func rectangles() throws {
    var tree = try ElementTreeTests.login()
    #expect(try ElementSelector("clock").pixelRects(in: tree) == [PixelRect(x: 72, y: 42, width: 180, height: 60)])
    tree.scale = 1
    #expect(try ElementSelector("clock").pixelRects(in: tree) == [PixelRect(x: 24, y: 14, width: 60, height: 20)])
    let fractional = ElementFrame(x: 0.5, y: 1.25, width: 10, height: 2.5)
    #expect(fractional.pixels(scale: 1) == PixelRect(x: 0, y: 1, width: 11, height: 3))
    #expect(fractional.pixels(scale: 2) == PixelRect(x: 1, y: 2, width: 20, height: 6))
  }

  @Test("bad selectors are errors; a selector matching nothing is reported")
  func problems() throws {
    #expect(throws: ConfigurationError.self) { try ElementSelector("@buton") }
    #expect(throws: ConfigurationError.self) { try ElementSelector("a//b") }
    #expect(throws: ConfigurationError.self) { try ElementSelector("~") }
    let masks = ElementMasks.resolve(
      [try ElementSelector("clock"), try ElementSelector("nothingHere")], in: [try ElementTreeTests.login()])
    #expect(masks.unmatched == ["nothingHere"])
    #expect(masks.regions.count == 1)
  }
}

@Suite("layout comparison")
struct LayoutComparisonTests {
  static func tree(_ children: [Element]) -> ElementTree {
    ElementTree(
      scale: 1, screen: .init(width: 100, height: 200),
      root: Element(elementType: .window, frame: ElementFrame(x: 0, y: 0, width: 100, height: 200), children: children))
  }

  @Test("a moved button, in words")
  func moved() throws {
    let changes = LayoutComparison().changes(
      from: try ElementTreeTests.login(), to: try ElementTreeTests.login("login-moved"))
    #expect(
      changes.map(\.sentence) == ["button 'loginButton' moved 8 pt down", "button 'forgotButton' moved 8 pt down"])
    #expect(changes.first?.dy == 8 && changes.first?.dx == 0)
  }

  @Test("added, removed, resized, relabelled; small moves within tolerance are not changes")
  func kinds() {
    let frame = { (x: Double, y: Double, w: Double, h: Double) in ElementFrame(x: x, y: y, width: w, height: h) }
    let before = Self.tree([
      Element(identifier: "title", elementType: .staticText, label: "Hello", frame: frame(10, 10, 80, 20)),
      Element(identifier: "banner", elementType: .image, frame: frame(0, 40, 100, 50)),
      Element(identifier: "ok", elementType: .button, label: "OK", frame: frame(10, 100, 80, 30)),
      Element(elementType: .staticText, label: "footnote", frame: frame(10, 170, 80, 10)),
    ])
    let after = Self.tree([
      Element(identifier: "title", elementType: .staticText, label: "Hello again", frame: frame(10.5, 10, 80, 20)),
      Element(identifier: "ok", elementType: .button, label: "OK", frame: frame(10, 100, 80, 44)),
      Element(identifier: "promo", elementType: .image, frame: frame(0, 140, 100, 20)),
      Element(elementType: .staticText, label: "footnote", frame: frame(14, 170, 80, 10)),
    ])
    let sentences = LayoutComparison(tolerance: 1).changes(from: before, to: after).map(\.sentence)
    #expect(
      sentences == [
        "staticText 'title' relabelled \"Hello\" → \"Hello again\"",
        "button 'ok' resized from 80×30 to 80×44",
        "image 'promo' added at 100×20 at (0, 140)",
        "staticText \"footnote\" moved 4 pt right",
        "image 'banner' removed from 100×50 at (0, 40)",
      ])
  }

  @Test("children that move with their container are one change")
  func containerMove() {
    let child = { (y: Double) in
      Element(identifier: "row", elementType: .cell, frame: ElementFrame(x: 0, y: y, width: 100, height: 20))
    }
    let before = Self.tree([
      Element(
        identifier: "list", elementType: .table, frame: ElementFrame(x: 0, y: 50, width: 100, height: 100),
        children: [child(50)])
    ])
    let after = Self.tree([
      Element(
        identifier: "list", elementType: .table, frame: ElementFrame(x: 0, y: 60, width: 100, height: 100),
        children: [child(60)])
    ])
    #expect(LayoutComparison().changes(from: before, to: after).map(\.sentence) == ["table 'list' moved 10 pt down"])
  }
}
