#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Accessibility validation, as Applitools Eyes offers it: the WCAG 2.x contrast of each text
/// element of a frame's element tree, measured in the frame's pixels and held to AA or AAA.
///
/// For each text element (static texts, the labels of buttons and links, the values or
/// placeholders of fields), the pixels inside its frame give two colours: the **background**,
/// the dominant colour of the box, and the **ink**, read from the glyph cores (pixels no
/// neighbour of which is farther from the background, so anti-aliasing fringes, which lie
/// between ink and background, are left out). Their ratio under WCAG's formula
/// (``contrastRatio(_:_:)``) must reach 4.5:1 (AA) or 7:1 (AAA), or 3:1 and 4.5:1 for large
/// text (18 pt, or 14 pt bold). ``ContrastRegion``s override the guess for the elements they
/// select: regular, large or bold text, a graphical object (3:1, WCAG 1.4.11), or ignored.
///
/// ```swift
/// let check = ContrastCheck(level: .aa)
/// let report = try check.check(frame.image, tree)
/// for finding in report.failures { print(finding.sentence) }
/// // staticText 'hint' "Forgot password?": 4.47:1 (#777777 on #FFFFFF), needs 4.5:1 (AA, regular text)
/// ```
public struct ContrastCheck: Sendable, Equatable {
  public var level: ContrastLevel
  /// An element under its required ratio fails the snapshot (else it is only reported).
  public var failsSnapshot: Bool
  /// Overrides by selector or rectangle; when several hold an element, the last one given applies.
  public var regions: [ContrastRegion]

  public init(level: ContrastLevel = .aa, failsSnapshot: Bool = false, regions: [ContrastRegion] = []) {
    self.level = level
    self.failsSnapshot = failsSnapshot
    self.regions = regions
  }

  // MARK: The WCAG formula

  /// WCAG 2.x's contrast ratio of two opaque sRGB colours, `(L1 + 0.05) / (L2 + 0.05)` with L1
  /// the lighter's relative luminance: from 1 (equal) to 21 (black on white). Alpha is not read.
  public static func contrastRatio(_ one: RGBAColor, _ two: RGBAColor) -> Double {
    func luminance(_ color: RGBAColor) -> Double {
      func linear(_ channel: UInt8) -> Double {
        let value = Double(channel) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
      }
      return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }
    let (a, b) = (luminance(one), luminance(two))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  // MARK: What is required

  /// How an element is held: the ratio it needs depends on this and the level.
  public enum Requirement: String, Sendable, Codable {
    case regularText = "regular text"
    case largeText = "large text"
    case graphicalObject = "graphical object"
  }

  /// The least ratio that passes, under `level`.
  public func requiredRatio(for requirement: Requirement) -> Double {
    switch (requirement, level) {
    case (.regularText, .aa): 4.5
    case (.regularText, .aaa): 7
    case (.largeText, .aa): 3
    case (.largeText, .aaa): 4.5
    case (.graphicalObject, _): 3
    }
  }

  /// A line of text is about this many times its font's size tall (a label's frame is its line
  /// height: San Francisco's is 1.19–1.33 times the point size), so a static text's font size is
  /// estimated as its frame's height, divided by its lines of ink, divided by this.
  public static let lineHeightPerPoint = 1.2

  /// WCAG's large text: 18 pt, or 14 pt bold.
  static func isLarge(fontSize: Double, bold: Bool) -> Bool {
    fontSize >= (bold ? 14 : 18)
  }

  // MARK: Findings

  /// One element measured.
  public struct Finding: Sendable, Equatable {
    public var identifier: String
    public var elementType: ElementType
    /// The text the element shows (its label, or a field's value or placeholder).
    public var text: String
    public var frame: ElementFrame
    public var requirement: Requirement
    /// The estimated font size in points (static texts), or `nil` when the frame says nothing of it.
    public var fontSize: Double?
    public var ink: RGBAColor
    public var background: RGBAColor
    public var ratio: Double
    public var required: Double

    public var passed: Bool { ratio >= required }

    /// A selector that picks the element (`@staticText:hint`), or its type and text when it has
    /// no identifier.
    public var selector: String {
      identifier.isEmpty
        ? "@\(elementType.rawValue) \"\(text)\"" : ElementSelector(identifier: identifier, type: elementType).text
    }

    /// `staticText 'hint' "Forgot password?": 4.47:1 (#777777 on #FFFFFF), needs 4.5:1 (AA, regular text)`.
    public func sentence(level: ContrastLevel) -> String {
      let name = identifier.isEmpty ? elementType.rawValue : "\(elementType.rawValue) '\(identifier)'"
      let shown = text.isEmpty ? "" : " \"\(text)\""
      return "\(name)\(shown): \(Self.ratio(ratio)) (\(HexColor(ink.opaque)) on \(HexColor(background.opaque))), "
        + "needs \(Self.ratio(required)) (\(level.rawValue), \(requirement.rawValue))"
    }

    /// A ratio as WCAG tools show it: truncated to two decimals (4.4999 is not 4.5).
    static func ratio(_ value: Double) -> String {
      let hundredths = Int((value * 100).rounded(.down))
      let (whole, decimals) = (hundredths / 100, hundredths % 100)
      if decimals == 0 { return "\(whole):1" }
      if decimals % 10 == 0 { return "\(whole).\(decimals / 10):1" }
      return "\(whole).\(decimals < 10 ? "0" : "")\(decimals):1"
    }

    func json(level: ContrastLevel) -> JSONValue {
      .object([
        ("selector", .string(selector)), ("identifier", .string(identifier)),
        ("elementType", .string(elementType.rawValue)), ("text", .string(text)),
        (
          "frame",
          .object([
            ("x", .double(frame.x)), ("y", .double(frame.y)), ("width", .double(frame.width)),
            ("height", .double(frame.height)),
          ])
        ),
        ("requirement", .string(requirement.rawValue)), ("fontSize", fontSize.map(JSONValue.double) ?? .null),
        ("ink", .string(HexColor(ink.opaque).description)),
        ("background", .string(HexColor(background.opaque).description)),
        ("ratio", .double((ratio * 100).rounded(.down) / 100)), ("required", .double(required)),
        ("passed", .bool(passed)), ("description", .string(sentence(level: level))),
      ])
    }
  }

  /// What a check found in one frame.
  public struct Report: Sendable, Equatable {
    public var level: ContrastLevel
    public var failsSnapshot: Bool
    /// Every element measured, in tree order.
    public var findings: [Finding]
    /// Text elements whose box holds one colour only: nothing to measure.
    public var unmeasured: [String]
    /// Regions that held no element.
    public var unmatchedRegions: [String]

    public var failures: [Finding] { findings.filter { !$0.passed } }

    /// Whether the report fails the snapshot: some element under its ratio, and `failsSnapshot`.
    public var failsTheSnapshot: Bool { failsSnapshot && !failures.isEmpty }

    /// The failures in words, one a line.
    public var sentences: [String] { failures.map { $0.sentence(level: level) } }

    /// `{level, failsSnapshot, checked, failed, failures: [...], unmeasured, unmatchedRegions}` for `--json`.
    public var json: JSONValue {
      .object([
        ("level", .string(level.rawValue)), ("failsSnapshot", .bool(failsSnapshot)),
        ("checked", .int(findings.count)), ("failed", .int(failures.count)),
        ("failures", .array(failures.map { $0.json(level: level) })),
        ("unmeasured", .array(unmeasured.map(JSONValue.string))),
        ("unmatchedRegions", .array(unmatchedRegions.map(JSONValue.string))),
      ])
    }
  }

  // MARK: Checking a frame

  /// The element types whose text is checked, and where their text is.
  static func text(of element: Element) -> String? {
    let text: String?
    switch element.elementType {
    case .staticText: text = element.label.isEmpty ? element.value : element.label
    case .textField, .secureTextField, .searchField, .textView, .comboBox:
      text = [element.value, element.placeholderValue].compactMap { $0 }.first { !$0.isEmpty }
    case .button, .link, .menuItem, .menuButton, .popUpButton, .radioButton, .checkBox, .tab, .toolbarButton,
      .key, .cell:
      text = element.label
    default: text = nil
    }
    return text.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The elements a region holds: those its selector picks, or those whose frame (in pixels at
  /// the tree's scale) lies wholly inside its rectangle. Wholly: a region drawn around a badge
  /// holds the badge and what is in it, not the screen that contains it.
  static func elements(of area: CheckRegion.Area, in tree: ElementTree) throws(ConfigurationError) -> [Element] {
    let rect: PixelRect
    switch area {
    case .element(let selector): return try ElementSelector(selector).matches(in: tree)
    case .pixels(let pixels): rect = pixels
    case .points(let frame): rect = frame.pixels(scale: tree.scale)
    }
    return tree.root.allElements().filter { element in
      let box = element.frame.pixels(scale: tree.scale)
      return !box.isEmpty && box.x >= rect.x && box.y >= rect.y && box.maxX <= rect.maxX && box.maxY <= rect.maxY
    }
  }

  /// Checks every text element of `tree` (and every element a region holds) in `image`, the
  /// pixels the tree describes.
  ///
  /// - Throws: `ConfigurationError` for a region whose selector does not parse.
  public func check(_ image: RGBAImage, _ tree: ElementTree) throws(ConfigurationError) -> Report {
    var overrides: [(ContrastRegion.Kind, [Element])] = []
    var unmatched: [String] = []
    for region in regions {
      let matches = try Self.elements(of: region.area, in: tree)
      if matches.isEmpty { unmatched.append(region.description) }
      overrides.append((region.kind, matches))
    }
    func override(for element: Element) -> ContrastRegion.Kind? {
      overrides.last { _, elements in
        elements.contains {
          $0.identifier == element.identifier && $0.elementType == element.elementType && $0.frame == element.frame
        }
      }?.0
    }
    var findings: [Finding] = []
    var unmeasured: [String] = []
    for element in tree.root.allElements() {
      let kind = override(for: element)
      let text = Self.text(of: element)
      // Text inside text (a button's title as a static text) is measured once, innermost.
      let hasInnerText = element.hasDescendant(where: { Self.text(of: $0) != nil })
      // WCAG exempts inactive components: a disabled element is checked only when a region selects it.
      guard kind != .ignore, element.isEnabled || kind != nil,
        kind == .graphicalObject || (text != nil && (!hasInnerText || kind != nil))
      else {
        continue
      }
      let box = element.frame.pixels(scale: tree.scale).clamped(toWidth: image.width, height: image.height)
      guard !box.isEmpty else { continue }
      guard let sample = Self.measure(image, in: box) else {
        unmeasured.append(
          element.identifier.isEmpty ? "\(element.elementType.rawValue) \"\(text ?? "")\"" : element.identifier)
        continue
      }
      var fontSize: Double?
      if element.elementType == .staticText {
        fontSize = element.frame.height / Double(max(1, sample.inkLines)) / Self.lineHeightPerPoint
      }
      let requirement: Requirement
      switch kind {
      case .graphicalObject: requirement = .graphicalObject
      case .regularText: requirement = .regularText
      case .largeText: requirement = .largeText
      case .boldText:
        requirement = fontSize.map { Self.isLarge(fontSize: $0, bold: true) } == true ? .largeText : .regularText
      case .ignore, nil:
        requirement = fontSize.map { Self.isLarge(fontSize: $0, bold: false) } == true ? .largeText : .regularText
      }
      findings.append(
        Finding(
          identifier: element.identifier, elementType: element.elementType, text: text ?? element.label,
          frame: element.frame, requirement: requirement, fontSize: fontSize.map { ($0 * 10).rounded() / 10 },
          ink: sample.ink, background: sample.background,
          ratio: Self.contrastRatio(sample.ink, sample.background), required: requiredRatio(for: requirement)))
    }
    return Report(
      level: level, failsSnapshot: failsSnapshot, findings: findings, unmeasured: unmeasured,
      unmatchedRegions: unmatched)
  }

  /// The colours measured in one box.
  struct Sample: Equatable {
    var ink: RGBAColor
    var background: RGBAColor
    /// Bands of rows holding ink, separated by rows without (small bands, such as an i's dot,
    /// not counted): the lines of text.
    var inkLines: Int
  }

  /// Pixels nearer than this (Euclidean, in 8-bit RGB) to the background are background.
  static let backgroundTolerance = 10

  /// The background (the dominant colour: the most common colour at 5 bits a channel, averaged
  /// over the pixels of that bin) and the ink (among the glyph cores, the one three quarters up
  /// in distance from the background) of `box`; `nil` when every pixel is background.
  static func measure(_ image: RGBAImage, in box: PixelRect) -> Sample? {
    let pixels = image.pixels
    var bins: [Int: (count: Int, red: Int, green: Int, blue: Int)] = [:]
    for y in box.y..<box.maxY {
      for x in box.x..<box.maxX {
        let offset = (y * image.width + x) * 4
        let (r, g, b) = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
        let key = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3
        let bin = bins[key] ?? (0, 0, 0, 0)
        bins[key] = (bin.count + 1, bin.red + r, bin.green + g, bin.blue + b)
      }
    }
    // The most pixels; among bins as full, the lowest key, so that the choice never depends on
    // the dictionary's order.
    guard let dominant = bins.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) })?.value else {
      return nil
    }
    let background = RGBAColor(
      red: UInt8(dominant.red / dominant.count), green: UInt8(dominant.green / dominant.count),
      blue: UInt8(dominant.blue / dominant.count))
    // Squared distance from the background, per pixel of the box.
    let (width, height) = (box.width, box.height)
    var distance = [Int](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let offset = ((box.y + y) * image.width + box.x + x) * 4
        let dr = Int(pixels[offset]) - Int(background.red)
        let dg = Int(pixels[offset + 1]) - Int(background.green)
        let db = Int(pixels[offset + 2]) - Int(background.blue)
        let squared = dr * dr + dg * dg + db * db
        distance[y * width + x] = squared > backgroundTolerance * backgroundTolerance ? squared : 0
      }
    }
    // Glyph cores: ink pixels no neighbour of which is farther from the background.
    var cores: [(distance: Int, x: Int, y: Int)] = []
    var inkRows = [Bool](repeating: false, count: height)
    for y in 0..<height {
      for x in 0..<width {
        let own = distance[y * width + x]
        guard own > 0 else { continue }
        inkRows[y] = true
        var isCore = true
        for dy in -1...1 where isCore {
          for dx in -1...1 where dx != 0 || dy != 0 {
            let (nx, ny) = (x + dx, y + dy)
            if nx >= 0, ny >= 0, nx < width, ny < height, distance[ny * width + nx] > own {
              isCore = false
              break
            }
          }
        }
        if isCore { cores.append((own, x, y)) }
      }
    }
    guard !cores.isEmpty else { return nil }
    cores.sort { $0.distance < $1.distance }
    let chosen = cores[(cores.count * 3) / 4]
    let ink = image[x: box.x + chosen.x, y: box.y + chosen.y]
    // Lines of ink: bands of rows with ink, counting those at least a third as tall as the tallest.
    var bands: [Int] = []
    var run = 0
    for row in inkRows + [false] {
      if row {
        run += 1
      } else if run > 0 {
        bands.append(run)
        run = 0
      }
    }
    let tallest = bands.max() ?? 0
    let lines = bands.filter { $0 * 3 >= tallest }.count
    return Sample(ink: ink.opaque, background: background, inkLines: lines)
  }
}

extension ContrastRecord {
  /// The record of `report`: its failures in words.
  public init(_ report: ContrastCheck.Report) {
    self.init(
      level: report.level, failsSnapshot: report.failsSnapshot, checked: report.findings.count,
      failures: report.sentences)
  }
}

extension RGBAColor {
  /// The colour with full alpha.
  fileprivate var opaque: RGBAColor { RGBAColor(red: red, green: green, blue: blue) }
}
