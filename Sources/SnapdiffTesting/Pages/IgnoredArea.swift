import SnapdiffModel

/// A part of a frame that must not count in its comparison: the elements a selector picks in
/// the frame's tree, a rectangle in points (an element's frame on screen, converted with the
/// screen's scale), or a rectangle in pixels.
public enum IgnoredArea: Sendable, Equatable, CustomStringConvertible {
  /// An element selector: `clock`, `~banner`, `@statusBar`, `@staticText:clock`.
  case elements(String)
  /// A rectangle in points, as XCUITest reports an element's frame.
  case points(ElementFrame)
  /// A rectangle in pixels of the screenshot.
  case pixels(PixelRect)

  public var description: String {
    switch self {
    case .elements(let selector): "elements '\(selector)'"
    case .points(let frame): "\(frame) pt"
    case .pixels(let rect): "\(rect) px"
    }
  }
}

/// What a page's `ignoredElements` may hold: anything that names an area of the frame.
/// snapdiff's ``ElementIdentifier``, a selector `String`, an ``ElementFrame`` in points and a
/// ``PixelRect`` conform; on Apple platforms `XCUIElement` does too (its frame when the snapshot
/// is taken).
public protocol IgnorableElement {
  /// The area to mask, read when the snapshot is taken; nil: nothing to mask now (an element
  /// that does not exist on screen).
  var ignoredArea: IgnoredArea? { get }
}

extension ElementIdentifier: IgnorableElement {
  public var ignoredArea: IgnoredArea? { .elements(selectorText) }
}

extension String: IgnorableElement {
  public var ignoredArea: IgnoredArea? { .elements(self) }
}

extension ElementFrame: IgnorableElement {
  public var ignoredArea: IgnoredArea? { .points(self) }
}

extension PixelRect: IgnorableElement {
  public var ignoredArea: IgnoredArea? { .pixels(self) }
}

/// The ignored areas of a snapshot, split as the comparison takes them: selectors resolved in
/// the frame's tree, rectangles in pixels.
public struct SnapshotMasks: Sendable, Equatable {
  /// Element selectors (`clock`, `@staticText:clock`).
  public var selectors: [String] = []
  /// Rectangles in pixels, already converted from points.
  public var regions: [PixelRect] = []
  /// Regions compared by a rule of their own (floating, strict, content, layout, ignore), in
  /// pixels or by selector.
  public var checkRegions: [CheckRegion] = []
  /// Overrides of the contrast rule (regular, large or bold text, graphical object, ignored),
  /// in pixels or by selector: they refine a contrast check that is on.
  public var contrastRegions: [ContrastRegion] = []

  public init(
    selectors: [String] = [], regions: [PixelRect] = [], checkRegions: [CheckRegion] = [],
    contrastRegions: [ContrastRegion] = []
  ) {
    self.selectors = selectors
    self.regions = regions
    self.checkRegions = checkRegions
    self.contrastRegions = contrastRegions
  }

  public var isEmpty: Bool {
    selectors.isEmpty && regions.isEmpty && checkRegions.isEmpty && contrastRegions.isEmpty
  }

  /// The masks of `areas` for a frame of `scale` pixels per point: a rectangle in points covers
  /// every pixel it touches (rounded outward), so an element's anti-aliased edge is masked too.
  /// Check regions and contrast regions in points become pixels the same way.
  public init(
    _ areas: [IgnoredArea], scale: Double, checkRegions pageRegions: [PageRegion] = [],
    contrastRegions pageContrast: [PageContrastRegion] = []
  ) {
    checkRegions = pageRegions.compactMap { $0.checkRegion(scale: scale) }
    contrastRegions = pageContrast.compactMap { $0.contrastRegion(scale: scale) }
    for area in areas {
      switch area {
      case .elements(let selector): selectors.append(selector)
      case .pixels(let rect): regions.append(rect)
      case .points(let frame): regions.append(Self.pixels(of: frame, scale: scale))
      }
    }
  }

  /// `frame` in pixels at `scale`, rounded outward.
  public static func pixels(of frame: ElementFrame, scale: Double) -> PixelRect {
    func clamp(_ value: Double) -> Int { Int(max(min(value, 1e9), -1e9)) }
    let left = clamp((frame.x * scale).rounded(.down))
    let top = clamp((frame.y * scale).rounded(.down))
    let right = clamp(((frame.x + frame.width) * scale).rounded(.up))
    let bottom = clamp(((frame.y + frame.height) * scale).rounded(.up))
    return PixelRect(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0))
  }

  /// As the `settings` a frame carries to `snapdiff check` and the service.
  public var settings: SnapshotSettings { added(to: SnapshotSettings()) }

  /// `settings` with these masks and regions added to theirs (the one place a snapshot's masks
  /// become settings: the frames folder's file, the in-process check, the service's part).
  public func added(to settings: SnapshotSettings) -> SnapshotSettings {
    var result = settings
    func adding<T>(_ more: [T], to list: [T]?) -> [T]? { more.isEmpty ? list : (list ?? []) + more }
    result.ignoreElements = adding(selectors, to: settings.ignoreElements)
    result.ignoreRegions = adding(regions, to: settings.ignoreRegions)
    result.regions = adding(checkRegions, to: settings.regions)
    result.contrastRegions = adding(contrastRegions, to: settings.contrastRegions)
    return result
  }
}
