import Foundation
import SnapdiffCore
import Testing

/// Golden images of realistic screens, determinism, clipping, and masks by element.
/// `SNAPDIFF_UPDATE_GOLDEN=1 swift test --filter ElementRendererTests` rewrites the goldens.
@Suite("element renderer")
struct ElementRendererTests {
  static let screens = ["login", "onboarding", "results", "alert"]
  static let updateGolden = ProcessInfo.processInfo.environment["SNAPDIFF_UPDATE_GOLDEN"] == "1"

  static func tree(_ name: String) throws -> ElementTree {
    try ElementTree.load(Fixtures.path("trees/\(name).tree.json"))
  }

  @Test("screens render to their golden images", arguments: screens)
  func golden(_ name: String) throws {
    let image = ElementRenderer().render(try Self.tree(name))
    let path = Fixtures.path("golden/\(name).png")
    if Self.updateGolden { try PNGEncoder().write(image, to: path) }
    let expected = try PNGDecoder().decode(contentsOf: path)
    #expect(image.size == expected.size)
    let result = PixelDiff(options: DiffOptions(threshold: 0, includeAA: true)).compare(expected, image)
    #expect(
      result.identical, "\(name): \(result.differentPixels) pixels differ from the golden image in \(result.regions)")
  }

  @Test("the same tree gives the same bytes, twice, and the same PNG file", arguments: screens)
  func deterministic(_ name: String) throws {
    let tree = try Self.tree(name)
    let first = ElementRenderer().render(tree)
    let second = ElementRenderer().render(tree)
    #expect(first.pixels == second.pixels)
    #expect(try PNGEncoder().encode(first) == PNGEncoder().encode(second))
  }

  @Test("scale changes the size; children are clipped to their parent")
  func scaleAndClipping() throws {
    let login = try Self.tree("login")
    #expect(ElementRenderer().render(login, scale: 1).size == PixelSize(width: 390, height: 844))
    let red = HexColor(RGBAColor(red: 255, green: 0, blue: 0))
    let tree = ElementTree(
      scale: 1, screen: .init(width: 40, height: 40),
      root: Element(
        elementType: .other, frame: ElementFrame(x: 0, y: 0, width: 40, height: 40),
        children: [
          Element(
            elementType: .other, frame: ElementFrame(x: 10, y: 10, width: 10, height: 10),
            children: [
              Element(elementType: .other, frame: ElementFrame(x: 0, y: 0, width: 40, height: 40), background: red)
            ])
        ]))
    let image = ElementRenderer().render(tree)
    #expect(image[x: 15, y: 15] == RGBAColor(red: 255, green: 0, blue: 0))
    #expect(image[x: 5, y: 5] != RGBAColor(red: 255, green: 0, blue: 0))
    #expect(image[x: 25, y: 25] != RGBAColor(red: 255, green: 0, blue: 0))
  }

  @Test("an element mask hides a changing clock; a moved button still fails")
  func masks() throws {
    let baseline = try Self.tree("login")
    var later = baseline
    later.root = Self.replacingLabel(of: "clock", with: "10:07", in: later.root)
    let moved = try ElementTree.load(ElementTreeTests.examples + "/login-moved.tree.json")
    var movedLater = moved
    movedLater.root = Self.replacingLabel(of: "clock", with: "10:07", in: moved.root)

    let renderer = ElementRenderer()
    let baselineImage = renderer.render(baseline)
    let masks = ElementMasks.resolve([try ElementSelector("clock")], in: [baseline, later])
    #expect(masks.unmatched.isEmpty)
    let options = DiffOptions(ignoreRegions: masks.regions)
    #expect(!PixelDiff().compare(baselineImage, renderer.render(later)).passed)
    let clockOnly = PixelDiff(options: options).compare(baselineImage, renderer.render(later))
    #expect(clockOnly.passed && clockOnly.ignoredPixels > 0)
    let buttonMoved = PixelDiff(options: options).compare(baselineImage, renderer.render(movedLater))
    #expect(!buttonMoved.passed)
    let button = try #require(try ElementSelector("loginButton").pixelRects(in: movedLater).first)
    #expect(buttonMoved.regions.allSatisfy { $0.touches(button, gap: 3 * 30) })
  }

  static func replacingLabel(of identifier: String, with label: String, in element: Element) -> Element {
    var copy = element
    if copy.identifier == identifier { copy.label = label }
    copy.children = copy.children.map { replacingLabel(of: identifier, with: label, in: $0) }
    return copy
  }
}
