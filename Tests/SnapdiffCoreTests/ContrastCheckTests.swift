import Foundation
import SnapdiffCore
import Testing

/// Accessibility validation (`ContrastCheck`): WCAG's formula on known pairs, and text measured
/// in small screens drawn here, with anti-aliased glyph-like strokes.
@Suite("Contrast check")
struct ContrastCheckTests {
  static let white = RGBAColor(red: 255, green: 255, blue: 255)

  static func grey(_ value: UInt8) -> RGBAColor { RGBAColor(red: value, green: value, blue: value) }

  /// Four strokes, 2 px of ink with a 1 px fringe halfway to the background on each side, in
  /// `box`'s middle rows: text as a rasteriser draws it, at scale 1.
  static func drawText(in image: inout RGBAImage, box: PixelRect, ink: RGBAColor, background: RGBAColor) {
    for y in box.y..<box.maxY { for x in box.x..<box.maxX { image[x: x, y: y] = background } }
    func mid(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) + Int(b)) / 2) }
    let fringe = RGBAColor(
      red: mid(ink.red, background.red), green: mid(ink.green, background.green), blue: mid(ink.blue, background.blue))
    for stroke in 0..<4 {
      let left = box.x + 2 + stroke * 5
      for y in (box.y + 3)..<(box.maxY - 3) {
        image[x: left, y: y] = fringe
        image[x: left + 1, y: y] = ink
        image[x: left + 2, y: y] = ink
        image[x: left + 3, y: y] = fringe
      }
    }
  }

  /// A white 80×80 screen at scale 1 with the given elements, each drawn as text in its frame.
  static func screen(_ elements: [(Element, ink: RGBAColor, background: RGBAColor)]) -> (RGBAImage, ElementTree) {
    var image = RGBAImage(width: 80, height: 80, filledWith: white)
    for (element, ink, background) in elements {
      drawText(in: &image, box: element.frame.pixels(scale: 1), ink: ink, background: background)
    }
    let root = Element(
      identifier: "app", elementType: .application, frame: ElementFrame(x: 0, y: 0, width: 80, height: 80),
      children: elements.map(\.0))
    return (image, ElementTree(scale: 1, screen: ElementTree.Size(width: 80, height: 80), root: root))
  }

  /// A one-line static text: 17 points tall is about 14 pt (regular), 26 about 22 pt (large).
  static func label(_ identifier: String, y: Double, height: Double = 17) -> Element {
    Element(
      identifier: identifier, elementType: .staticText, label: "Forgot password?",
      frame: ElementFrame(x: 4, y: y, width: 30, height: height))
  }

  @Test("WCAG's formula: black on white 21:1, #777777 4.48:1, #767676 4.54:1, symmetric, equal colours 1:1")
  func formula() {
    #expect(ContrastCheck.contrastRatio(RGBAColor(red: 0, green: 0, blue: 0), Self.white) == 21)
    #expect(abs(ContrastCheck.contrastRatio(Self.grey(0x77), Self.white) - 4.4781) < 0.0005)
    #expect(abs(ContrastCheck.contrastRatio(Self.grey(0x76), Self.white) - 4.5422) < 0.0005)
    #expect(abs(ContrastCheck.contrastRatio(Self.grey(0x59), Self.white) - 7.0047) < 0.0005)
    // The iOS blue #007AFF on white: 4.02:1, under AA for regular text.
    let blue = RGBAColor(red: 0, green: 0x7A, blue: 0xFF)
    #expect(abs(ContrastCheck.contrastRatio(blue, Self.white) - 4.0170) < 0.0005)
    #expect(ContrastCheck.contrastRatio(Self.white, blue) == ContrastCheck.contrastRatio(blue, Self.white))
    #expect(ContrastCheck.contrastRatio(Self.grey(0x80), Self.grey(0x80)) == 1)
  }

  @Test("grey #777777 text on white fails AA as regular text and passes as large text; #767676 passes")
  func greyText() throws {
    let (image, tree) = Self.screen([
      (Self.label("hint", y: 2), Self.grey(0x77), Self.white),
      (Self.label("title", y: 24, height: 26), Self.grey(0x77), Self.white),
      (Self.label("note", y: 54), Self.grey(0x76), Self.white),
    ])
    let report = try ContrastCheck(level: .aa).check(image, tree)
    #expect(report.findings.map(\.identifier) == ["hint", "title", "note"])
    let hint = report.findings[0]
    // Ink read from the glyph cores, not the fringes; background the box's dominant colour.
    #expect(hint.ink == Self.grey(0x77) && hint.background == Self.white)
    #expect(hint.requirement == .regularText && hint.required == 4.5 && !hint.passed)
    #expect(report.findings[1].requirement == .largeText && report.findings[1].required == 3)
    #expect(report.findings[1].passed && report.findings[2].passed)
    #expect(report.failures.map(\.identifier) == ["hint"])
    #expect(
      report.sentences == [
        #"staticText 'hint' "Forgot password?": 4.47:1 (#777777 on #FFFFFF), needs 4.5:1 (AA, regular text)"#
      ])
    #expect(report.failures[0].selector == "@staticText:hint")
    #expect(!report.failsTheSnapshot)  // reported only, unless asked
    #expect(try ContrastCheck(level: .aa, failsSnapshot: true).check(image, tree).failsTheSnapshot)
  }

  @Test("AAA is stricter: 7:1 for regular text, 4.5:1 for large")
  func aaa() throws {
    let (image, tree) = Self.screen([
      (Self.label("regular", y: 2), Self.grey(0x59), Self.white),  // 7.00:1
      (Self.label("grey", y: 24), Self.grey(0x76), Self.white),  // 4.54:1
      (Self.label("large", y: 48, height: 26), Self.grey(0x76), Self.white),  // 4.54:1, large
    ])
    #expect(try ContrastCheck(level: .aa).check(image, tree).failures.isEmpty)
    let report = try ContrastCheck(level: .aaa).check(image, tree)
    #expect(report.failures.map(\.identifier) == ["grey"])
    #expect(report.findings.map(\.required) == [7, 7, 4.5])
    #expect(report.sentences[0].hasSuffix("needs 7:1 (AAA, regular text)"))
  }

  @Test("regions: ignore drops an element, large-text and regular-text override the size, unmatched ones are named")
  func regions() throws {
    let (image, tree) = Self.screen([
      (Self.label("hint", y: 2), Self.grey(0x77), Self.white),
      (Self.label("title", y: 24, height: 26), Self.grey(0x77), Self.white),
    ])
    let ignored = try ContrastCheck(regions: [try ContrastRegion("ignore:hint")]).check(image, tree)
    #expect(ignored.findings.map(\.identifier) == ["title"] && ignored.failures.isEmpty)
    let large = try ContrastCheck(regions: [try ContrastRegion("large-text:@staticText:hint")]).check(image, tree)
    #expect(large.failures.isEmpty)
    let regular = try ContrastCheck(regions: [
      try ContrastRegion("regular-text:title"), try ContrastRegion("ignore:~gone"),
    ])
    .check(image, tree)
    #expect(regular.failures.map(\.identifier) == ["hint", "title"])
    #expect(regular.unmatchedRegions == ["ignore:~gone"])
    #expect(throws: ConfigurationError.self) { try ContrastRegion("huge-text:title") }
    #expect(throws: ConfigurationError.self) { try ContrastRegion("title") }
  }

  @Test("a region by rectangle, in pixels or points, holds the elements wholly inside it; its text round-trips")
  func rectangleRegions() throws {
    let (image, tree) = Self.screen([
      (Self.label("hint", y: 2), Self.grey(0x77), Self.white),  // 30×17 at (4, 2)
      (Self.label("other", y: 30), Self.grey(0x77), Self.white),
    ])
    let pixels = try ContrastRegion("large-text:0,0,40,20")
    #expect(pixels.area == .pixels(PixelRect(x: 0, y: 0, width: 40, height: 20)))
    #expect(try ContrastCheck(regions: [pixels]).check(image, tree).failures.map(\.identifier) == ["other"])
    let points = try ContrastRegion("ignore:4,2,30,17pt")
    #expect(points.area == .points(ElementFrame(x: 4, y: 2, width: 30, height: 17)))
    #expect(try ContrastCheck(regions: [points]).check(image, tree).findings.map(\.identifier) == ["other"])
    // Partly covered is not inside: the hint stays regular text; an empty holding is named.
    let partial = try ContrastCheck(regions: [try ContrastRegion("large-text:0,0,20,20")]).check(image, tree)
    #expect(partial.failures.map(\.identifier) == ["hint", "other"])
    #expect(partial.unmatchedRegions == ["large-text:0,0,20,20"])
    // As settings files and the service's settings part write them.
    let encoded = try JSONEncoder().encode([pixels, points])
    #expect(String(decoding: encoded, as: UTF8.self) == #"["large-text:0,0,40,20","ignore:4.0,2.0,30.0,17.0pt"]"#)
    #expect(try JSONDecoder().decode([ContrastRegion].self, from: encoded) == [pixels, points])
    #expect(throws: ConfigurationError.self) { try ContrastRegion("ignore:0,0,0,20") }
    #expect(throws: ConfigurationError.self) { try ContrastRegion("ignore:1,2,3") }
  }

  @Test("a disabled element is exempt (WCAG: inactive components), unless a region selects it")
  func disabled() throws {
    var hint = Self.label("hint", y: 2)
    hint.isEnabled = false
    let (image, tree) = Self.screen([(hint, Self.grey(0x77), Self.white)])
    #expect(try ContrastCheck().check(image, tree).findings.isEmpty)
    let selected = try ContrastCheck(regions: [try ContrastRegion("regular-text:hint")]).check(image, tree)
    #expect(selected.failures.map(\.identifier) == ["hint"])
  }

  @Test("bold text is large from 14 pt: a 19-point frame (about 16 pt) is large only as bold")
  func boldText() throws {
    let (image, tree) = Self.screen([(Self.label("subtitle", y: 2, height: 19), Self.grey(0x77), Self.white)])
    #expect(try ContrastCheck().check(image, tree).failures.count == 1)
    #expect(try ContrastCheck(regions: [try ContrastRegion("bold-text:subtitle")]).check(image, tree).failures.isEmpty)
  }

  @Test("a graphical object (not text) is held to 3:1 at AA and AAA: #949494 passes, #959595 fails")
  func graphicalObject() throws {
    func icon(_ grey: UInt8) throws -> ContrastCheck.Report {
      let element = Element(
        identifier: "icon", elementType: .image, frame: ElementFrame(x: 10, y: 10, width: 24, height: 20))
      let (image, tree) = Self.screen([(element, Self.grey(grey), Self.white)])
      // Not text: not checked unless a region says what it is.
      #expect(try ContrastCheck().check(image, tree).findings.isEmpty)
      return try ContrastCheck(level: .aaa, regions: [try ContrastRegion("graphical-object:@image")]).check(image, tree)
    }
    let passing = try icon(0x94)
    #expect(passing.findings.map(\.required) == [3] && passing.failures.isEmpty)
    let failing = try icon(0x95)
    #expect(failing.sentences == ["image 'icon': 2.99:1 (#959595 on #FFFFFF), needs 3:1 (AAA, graphical object)"])
  }

  @Test("a button's label is measured on the button's fill; a static text inside is measured once, innermost")
  func buttonFill() throws {
    let blue = RGBAColor(red: 0, green: 0x7A, blue: 0xFF)
    let button = Element(
      identifier: "login", elementType: .button, label: "Log in", frame: ElementFrame(x: 4, y: 4, width: 40, height: 24)
    )
    let (image, tree) = Self.screen([(button, Self.white, blue)])
    let report = try ContrastCheck().check(image, tree)
    #expect(report.findings.count == 1)
    #expect(report.findings[0].background == blue && report.findings[0].ink == Self.white)
    #expect(
      report.sentences == [#"button 'login' "Log in": 4.01:1 (#FFFFFF on #007AFF), needs 4.5:1 (AA, regular text)"#])

    var nested = tree
    nested.root.children[0].children = [
      Element(
        identifier: "loginTitle", elementType: .staticText, label: "Log in",
        frame: ElementFrame(x: 6, y: 6, width: 30, height: 17))
    ]
    #expect(try ContrastCheck().check(image, nested).findings.map(\.identifier) == ["loginTitle"])
  }

  @Test("settings files: contrast fields turn the check on through FrameComparison, and fail identical frames")
  func settings() throws {
    let (image, tree) = Self.screen([(Self.label("hint", y: 2), Self.grey(0x77), Self.white)])
    let json = #"{"contrast": "AA", "contrastFails": true, "contrastRegions": ["large-text:~nothing"]}"#
    let settings = try JSONDecoder().decode(SnapshotSettings.self, from: Data(json.utf8))
    let comparison = try settings.applied(to: FrameComparison())
    #expect(
      comparison.contrast
        == ContrastCheck(level: .aa, failsSnapshot: true, regions: [try ContrastRegion("large-text:~nothing")]))
    let frame = Frame(image: image, tree: tree, path: "hint.png")
    let outcome = try comparison.compare(frame, frame)
    #expect(outcome.result.identical && !outcome.passed)
    #expect(outcome.contrast?.failures.map(\.identifier) == ["hint"])
    // Reported only: the verdict is the pixels'.
    var reportOnly = comparison
    reportOnly.contrast?.failsSnapshot = false
    #expect(try reportOnly.compare(frame, frame).passed)
    #expect(throws: (any Error).self) {
      try JSONDecoder().decode(SnapshotSettings.self, from: Data(#"{"contrast": "AAAA"}"#.utf8))
    }
  }
}
