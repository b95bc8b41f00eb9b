#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What is on a screen, as XCUITest's element snapshots describe it: a tree of elements with an
/// identifier, a type, texts, a frame in points, and children. A file holds
/// `{"scale": 3, "screen": {"width": 390, "height": 844}, "root": <element>}`.
///
/// ```swift
/// let tree = try ElementTree.load("Home.tree.json")
/// let image = ElementRenderer().render(tree)
/// ```
public struct ElementTree: Sendable, Codable, Equatable {
  /// Pixels per point: 1, 2 or 3.
  public var scale: Int
  /// The screen's size in points.
  public var screen: Size
  public var root: Element

  public init(scale: Int = 1, screen: Size, root: Element) {
    self.scale = scale
    self.screen = screen
    self.root = root
  }

  /// A width and a height in points.
  public struct Size: Sendable, Codable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
      self.width = width
      self.height = height
    }
  }

  enum CodingKeys: String, CodingKey { case scale, screen, root }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    scale = try container.decodeIfPresent(Int.self, forKey: .scale) ?? 1
    guard [1, 2, 3].contains(scale) else {
      throw DecodingError.dataCorruptedError(
        forKey: .scale, in: container, debugDescription: "scale must be 1, 2 or 3, not \(scale)")
    }
    screen = try container.decode(Size.self, forKey: .screen)
    for (value, name) in [(screen.width, "width"), (screen.height, "height")]
    where !(value > 0 && value <= ElementFrame.maximumExtent) {
      throw DecodingError.dataCorruptedError(
        forKey: .screen, in: container,
        debugDescription:
          "the screen's \(name) must be above 0 and at most \(Int(ElementFrame.maximumExtent)) points, not \(value)")
    }
    root = try container.decode(Element.self, forKey: .root)
  }
}

/// A rectangle in points.
public struct ElementFrame: Sendable, Codable, Equatable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  /// The largest coordinate or size a frame may have, in points.
  public static let maximumExtent = 100_000.0

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  enum CodingKeys: String, CodingKey { case x, y, width, height }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    x = try container.decode(Double.self, forKey: .x)
    y = try container.decode(Double.self, forKey: .y)
    width = try container.decode(Double.self, forKey: .width)
    height = try container.decode(Double.self, forKey: .height)
    for (value, key) in [(x, CodingKeys.x), (y, .y), (width, .width), (height, .height)] {
      guard value.isFinite, abs(value) <= Self.maximumExtent else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container, debugDescription: "\(value) is out of range (±\(Int(Self.maximumExtent)) points)")
      }
    }
    for (value, key) in [(width, CodingKeys.width), (height, .height)] where value < 0 {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container, debugDescription: "a \(key.stringValue) cannot be negative (\(value))")
    }
  }

  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
  public var midX: Double { x + width / 2 }
  public var midY: Double { y + height / 2 }

  /// The rectangle in pixels at `scale`, rounded outwards so that nothing is lost from a mask.
  public func pixels(scale: Int) -> PixelRect {
    let s = Double(scale)
    let left = (x * s).rounded(.down)
    let top = (y * s).rounded(.down)
    let right = (maxX * s).rounded(.up)
    let bottom = (maxY * s).rounded(.up)
    return PixelRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
  }

  public var description: String {
    "\(Self.format(width))×\(Self.format(height)) at (\(Self.format(x)), \(Self.format(y)))"
  }

  package static func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}

/// One element of a tree.
public struct Element: Sendable, Codable, Equatable {
  public var identifier: String
  public var elementType: ElementType
  public var label: String
  public var value: String?
  public var placeholderValue: String?
  public var frame: ElementFrame
  public var isEnabled: Bool
  public var isSelected: Bool
  public var hasFocus: Bool
  /// A style hint: the fill colour, `#RRGGBB` or `#RRGGBBAA`.
  public var background: HexColor?
  /// A style hint: the text or glyph colour.
  public var foreground: HexColor?
  public var children: [Element]

  public init(
    identifier: String = "", elementType: ElementType, label: String = "", value: String? = nil,
    placeholderValue: String? = nil, frame: ElementFrame, isEnabled: Bool = true,
    isSelected: Bool = false, hasFocus: Bool = false, background: HexColor? = nil,
    foreground: HexColor? = nil, children: [Element] = []
  ) {
    self.identifier = identifier
    self.elementType = elementType
    self.label = label
    self.value = value
    self.placeholderValue = placeholderValue
    self.frame = frame
    self.isEnabled = isEnabled
    self.isSelected = isSelected
    self.hasFocus = hasFocus
    self.background = background
    self.foreground = foreground
    self.children = children
  }

  enum CodingKeys: String, CodingKey {
    case identifier, elementType, label, value, placeholderValue, frame, isEnabled, isSelected
    case hasFocus, background, foreground, children
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    identifier = try container.decodeIfPresent(String.self, forKey: .identifier) ?? ""
    let typeName = try container.decode(String.self, forKey: .elementType)
    guard let type = ElementType(rawValue: typeName) else {
      let hint = ElementType.suggestion(for: typeName).map { " (did you mean '\($0.rawValue)'?)" } ?? ""
      throw DecodingError.dataCorruptedError(
        forKey: .elementType, in: container, debugDescription: "'\(typeName)' is not an element type\(hint)")
    }
    elementType = type
    label = try container.decodeIfPresent(String.self, forKey: .label) ?? ""
    value = try container.decodeIfPresent(String.self, forKey: .value)
    placeholderValue = try container.decodeIfPresent(String.self, forKey: .placeholderValue)
    frame = try container.decode(ElementFrame.self, forKey: .frame)
    isEnabled = try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? true
    isSelected = try container.decodeIfPresent(Bool.self, forKey: .isSelected) ?? false
    hasFocus = try container.decodeIfPresent(Bool.self, forKey: .hasFocus) ?? false
    background = try container.decodeIfPresent(HexColor.self, forKey: .background)
    foreground = try container.decodeIfPresent(HexColor.self, forKey: .foreground)
    children = try container.decodeIfPresent([Element].self, forKey: .children) ?? []
  }

  /// This element and every descendant, depth first (parents before children), walked without
  /// recursion.
  public func allElements() -> [Element] {
    var elements: [Element] = []
    var pending: [Element] = [self]
    while let element = pending.popLast() {
      elements.append(element)
      pending.append(contentsOf: element.children.reversed())
    }
    return elements
  }

  /// Whether a descendant (not this element) satisfies `predicate`; stops at the first.
  public func hasDescendant(where predicate: (Element) -> Bool) -> Bool {
    var pending = children
    while let element = pending.popLast() {
      if predicate(element) { return true }
      pending.append(contentsOf: element.children)
    }
    return false
  }
}

/// A colour written `#RRGGBB` or `#RRGGBBAA`.
public struct HexColor: Sendable, Codable, Equatable, CustomStringConvertible {
  public var color: RGBAColor

  public init(_ color: RGBAColor) { self.color = color }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let color = Self.parse(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(text)' is not a colour: write #RRGGBB or #RRGGBBAA")
    }
    self.color = color
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  static func parse(_ text: String) -> RGBAColor? {
    guard text.hasPrefix("#"), text.count == 7 || text.count == 9 else { return nil }
    guard let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
    let full = text.count == 7 ? value << 8 | 0xff : value
    return RGBAColor(
      red: UInt8(full >> 24), green: UInt8((full >> 16) & 0xff), blue: UInt8((full >> 8) & 0xff),
      alpha: UInt8(full & 0xff))
  }

  public var description: String {
    func hex(_ value: UInt8) -> String {
      let text = String(value, radix: 16, uppercase: true)
      return text.count == 1 ? "0" + text : text
    }
    return "#" + hex(color.red) + hex(color.green) + hex(color.blue) + (color.alpha == 255 ? "" : hex(color.alpha))
  }
}

extension ElementTree {
  /// Reads a tree file.
  ///
  /// - Throws: `FileError`, or `ConfigurationError` naming the file and the JSON path of the
  ///   problem (`$.root.children[2].frame.width`).
  public static func load(_ path: String) throws -> ElementTree {
    try decode(FileIO.read(path, limit: 1 << 28), path: path)
  }

  /// Reads a tree from JSON, or from XCUITest's text dump (`debugDescription`) when the file
  /// ends in `.txt`.
  public static func load(anyFormat path: String, scale: Int = 1) throws -> ElementTree {
    guard path.lowercased().hasSuffix(".txt") else { return try load(path) }
    let bytes = try FileIO.read(path, limit: 1 << 28)
    return try XCUITextDump.parse(String(decoding: bytes, as: UTF8.self), path: path, scale: scale)
  }

  /// A tree from JSON.
  ///
  /// - Throws: `ConfigurationError` naming `path`: the JSON path of a problem, or a tree nested
  ///   deeper than `maximumDepth` (found before decoding) or larger than `maximumElementCount`.
  public static func decode(_ bytes: [UInt8], path: String) throws -> ElementTree {
    let nesting = jsonNesting(bytes)
    if nesting > maximumJSONNesting {
      throw ConfigurationError("\(path): not a valid element tree: \(nestingProblem(nesting))")
    }
    let tree: ElementTree
    do {
      tree = try JSONDecoder().decode(ElementTree.self, from: Data(bytes))
    } catch {
      throw ConfigurationError("\(path): not a valid element tree: \(JSONProblem.describe(error))")
    }
    if let problem = tree.limitProblem {
      throw ConfigurationError("\(path): not a valid element tree: it \(problem)")
    }
    return tree
  }

  /// The tree as JSON, keys sorted.
  ///
  /// - Throws: `ConfigurationError` for a tree built in code past `maximumDepth` or
  ///   `maximumElementCount` (one read from a file was checked when it was read).
  public func encoded() throws -> [UInt8] {
    if let problem = limitProblem { throw ConfigurationError("the element tree \(problem)") }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(self)) + [0x0A]
  }

  /// The size of the rendered image in pixels.
  public var pixelSize: PixelSize {
    PixelSize(
      width: Int((screen.width * Double(scale)).rounded(.up)),
      height: Int((screen.height * Double(scale)).rounded(.up)))
  }
}
