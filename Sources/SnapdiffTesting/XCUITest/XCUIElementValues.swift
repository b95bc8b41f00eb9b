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

/// Where the application's elements lie in a screenshot of the whole screen: how many pixels a
/// point is, and the screenshot's size in points. XCUITest reports frames in points in screen
/// coordinates, and `XCUIScreen.main.screenshot()` is the whole screen, so a frame times the scale
/// is its place in the screenshot, whether the app fills the screen or not.
public struct ScreenGeometry: Sendable, Equatable {
  /// Pixels per point: 1, 2 or 3.
  public var scale: Int
  /// The screenshot's size in points (the screen the element tree is laid out on).
  public var screen: ElementTree.Size

  public init(scale: Int, screen: ElementTree.Size) {
    self.scale = scale
    self.screen = screen
  }
}

/// How the XCUITest shooter turns what it read into a frame.
public enum XCUICapture {
  /// Where the app's frame lies in a screenshot of `screenshotSize` pixels.
  ///
  /// - The app fills the screenshot at 1, 2 or 3 pixels a point (an app in full screen, in
  ///   either orientation as long as frames and screenshot agree): that scale.
  /// - Otherwise the scale is the screenshot's pixels over the screen's points (`screen`: on iOS
  ///   SpringBoard's frame, on macOS the display's size), in either orientation: an app in iPad
  ///   Split View, Slide Over or a Stage Manager window, a macOS app's window on the display.
  ///
  /// The app's frame must then lie inside the screenshot. Without a screenshot size (bytes that
  /// are not a PNG) the scale is 1 and the screen is the app's frame.
  ///
  /// - Throws: `ConfigurationError` when the application has no frame, when no scale of 1, 2 or
  ///   3 relates the screenshot to the app or the screen (Display Zoom: points that are not a whole
  ///   number of pixels), or when the app's frame lies outside the screenshot.
  public static func geometry(
    screenshotSize pixels: PixelSize?, application frame: ElementFrame, screen: ElementTree.Size? = nil
  ) throws -> ScreenGeometry {
    guard frame.width > 0, frame.height > 0 else {
      throw ConfigurationError("the application's element snapshot has no frame (is the app running?)")
    }
    guard let pixels else {
      return ScreenGeometry(scale: 1, screen: .init(width: frame.x + frame.width, height: frame.y + frame.height))
    }
    let appSize = ElementTree.Size(width: frame.width, height: frame.height)
    let scale: Int
    if frame.x == 0, frame.y == 0, let filling = wholeScale(pixels: pixels, points: appSize) {
      scale = filling
    } else if let screen,
      let found = wholeScale(pixels: pixels, points: screen)
        ?? wholeScale(pixels: pixels, points: .init(width: screen.height, height: screen.width))
    {
      scale = found
    } else {
      throw ConfigurationError(
        "the screenshot is \(pixels) pixels but the app's frame \(points(appSize)) points at (\(ElementFrame.format(frame.x)), \(ElementFrame.format(frame.y)))"
          + (screen.map { " on a screen of \(points($0)) points" } ?? "")
          + ": not 1, 2 or 3 pixels a point (Display Zoom makes points a fraction of a pixel: set it to Default;"
          + " or was the screenshot taken of another element than the screen?)")
    }
    let screenPoints = ElementTree.Size(
      width: Double(pixels.width) / Double(scale), height: Double(pixels.height) / Double(scale))
    // Half a point of slack: frames are rounded to pixels.
    guard frame.x >= -0.5, frame.y >= -0.5, frame.x + frame.width <= screenPoints.width + 0.5,
      frame.y + frame.height <= screenPoints.height + 0.5
    else {
      throw ConfigurationError(
        "the app's frame \(points(appSize)) points at (\(ElementFrame.format(frame.x)), \(ElementFrame.format(frame.y))) "
          + "lies outside the screenshot, \(points(screenPoints)) points at scale \(scale) (is the device rotated "
          + "while the screenshot is not?)")
    }
    return ScreenGeometry(scale: scale, screen: screenPoints)
  }

  /// The tree of an application's snapshot laid out on `geometry`'s screen.
  public static func tree(of application: XCUIElementValues, geometry: ScreenGeometry) -> ElementTree {
    ElementTree(scale: geometry.scale, screen: geometry.screen, root: application.element())
  }

  /// Pixels per point: the screenshot's width over the screen's, which must be 1, 2 or 3 (the
  /// screen's sizes in the screenshot's orientation).
  public static func scale(pixels: PixelSize, points: ElementTree.Size) throws -> Int {
    if let scale = wholeScale(pixels: pixels, points: points) { return scale }
    throw ConfigurationError(
      "the screenshot is \(pixels) pixels but the screen \(Self.points(points)) "
        + "points: not 1, 2 or 3 pixels a point (was the screenshot taken of another element than the app?)")
  }

  private static func wholeScale(pixels: PixelSize, points: ElementTree.Size) -> Int? {
    [1, 2, 3].first { scale in
      abs(points.width * Double(scale) - Double(pixels.width)) < 1
        && abs(points.height * Double(scale) - Double(pixels.height)) < 1
    }
  }

  private static func points(_ size: ElementTree.Size) -> String {
    "\(ElementFrame.format(size.width))×\(ElementFrame.format(size.height))"
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
