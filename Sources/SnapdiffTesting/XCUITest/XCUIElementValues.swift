import SnapdiffModel

/// One element of an XCUITest element snapshot (`XCUIElementSnapshot`), as plain values: what
/// the Apple-only shooter reads off XCUITest, so that every decision about it (types, frames,
/// scale, masks) is made by plain Swift that is compiled and tested on every platform.
public struct XCUIElementValues: Sendable, Equatable {
  /// `XCUIElement.ElementType`'s raw value (`button` is 9).
  public var elementTypeRawValue: UInt
  public var identifier: String
  public var label: String
  /// The element's value, as text (`XCUIElementAttributes.value` is `Any?`).
  public var value: String?
  public var placeholderValue: String?
  /// In points, in screen coordinates.
  public var frame: ElementFrame
  public var isEnabled: Bool
  public var isSelected: Bool
  public var children: [XCUIElementValues]

  public init(
    elementTypeRawValue: UInt, identifier: String = "", label: String = "", value: String? = nil,
    placeholderValue: String? = nil, frame: ElementFrame, isEnabled: Bool = true, isSelected: Bool = false,
    children: [XCUIElementValues] = []
  ) {
    self.elementTypeRawValue = elementTypeRawValue
    self.identifier = identifier
    self.label = label
    self.value = value
    self.placeholderValue = placeholderValue
    self.frame = frame
    self.isEnabled = isEnabled
    self.isSelected = isSelected
    self.children = children
  }

  /// snapdiff's element for this one and its descendants. Empty values become nil; a frame
  /// XCUITest reports as null or infinite (`CGRectNull` for an element off screen) becomes an
  /// empty frame at the origin, as the text-dump parser does.
  public func element() -> Element {
    Element(
      identifier: identifier, elementType: ElementType(xcuiRawValue: elementTypeRawValue), label: label,
      value: value.flatMap { $0.isEmpty ? nil : $0 },
      placeholderValue: placeholderValue.flatMap { $0.isEmpty ? nil : $0 },
      frame: Self.usable(frame), isEnabled: isEnabled, isSelected: isSelected,
      children: children.map { $0.element() })
  }

  private static func usable(_ frame: ElementFrame) -> ElementFrame {
    let values = [frame.x, frame.y, frame.width, frame.height]
    guard values.allSatisfy({ $0.isFinite && abs($0) <= ElementFrame.maximumExtent }), frame.width >= 0,
      frame.height >= 0
    else { return ElementFrame(x: 0, y: 0, width: 0, height: 0) }
    return frame
  }
}

/// How the XCUITest shooter turns what it read into a frame.
public enum XCUICapture {
  /// The tree of an application's snapshot, for a screenshot of `screenshotSize` pixels: the
  /// screen is the application element's frame, and the scale is how many pixels of the
  /// screenshot a point is (1, 2 or 3; a simulator's screenshot is taken at the device's scale).
  ///
  /// - Throws: `ConfigurationError` when the application has no frame, or the screenshot's
  ///   width is not 1, 2 or 3 times it.
  public static func tree(of application: XCUIElementValues, screenshotSize: PixelSize?) throws -> ElementTree {
    let root = application.element()
    let screen = ElementTree.Size(width: root.frame.width, height: root.frame.height)
    guard screen.width > 0, screen.height > 0 else {
      throw ConfigurationError("the application's element snapshot has no frame (is the app running?)")
    }
    let scale = try screenshotSize.map { try Self.scale(pixels: $0, points: screen) } ?? 1
    return ElementTree(scale: scale, screen: screen, root: root)
  }

  /// Pixels per point: the screenshot's width over the screen's, which must be 1, 2 or 3 (in
  /// either orientation).
  public static func scale(pixels: PixelSize, points: ElementTree.Size) throws -> Int {
    for scale in [1, 2, 3] {
      let width = points.width * Double(scale)
      let height = points.height * Double(scale)
      if abs(width - Double(pixels.width)) < 1, abs(height - Double(pixels.height)) < 1 { return scale }
    }
    throw ConfigurationError(
      "the screenshot is \(pixels) pixels but the screen \(ElementFrame.format(points.width))×\(ElementFrame.format(points.height)) "
        + "points: not 1, 2 or 3 pixels a point (was the screenshot taken of another element than the app?)")
  }
}

/// What the XCUITest shooter does with the status bar, whose clock, battery and signal change
/// between runs while the app's screen does not.
public enum StatusBarPolicy: Sendable, Equatable {
  /// Compare it like the rest (for a simulator whose status bar is fixed with
  /// `xcrun simctl status_bar booted override --time 9:41 …`).
  case keep
  /// Mask the status bar's frame as the system reports it (SpringBoard's status bar element).
  case mask
  /// Mask a band of this many points at the top of the screen.
  case maskTop(points: Double)

  /// The area to mask, given the status bar's frame as found (nil when none was found) and the
  /// screen's width in points.
  public func ignoredArea(statusBarFrame: ElementFrame?, screenWidth: Double) -> IgnoredArea? {
    switch self {
    case .keep: nil
    case .mask: statusBarFrame.flatMap { $0.width > 0 && $0.height > 0 ? .points($0) : nil }
    case .maskTop(let points): points > 0 ? .points(ElementFrame(x: 0, y: 0, width: screenWidth, height: points)) : nil
    }
  }
}

extension ElementType {
  /// The type whose `XCUIElement.ElementType` raw value this is: Apple's list (`any` = 0 …
  /// `statusItem` = 82) in its order, which ``ElementType`` keeps; `other` for a value newer
  /// than this list.
  public init(xcuiRawValue: UInt) {
    let all = ElementType.allCases
    self = xcuiRawValue < UInt(all.count) ? all[Int(xcuiRawValue)] : .other
  }
}
