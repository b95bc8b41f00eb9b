import SnapdiffModel

#if SNAPDIFF_ENGINE
  import SnapdiffCore
#endif

/// An element that takes its own screenshot: on Apple platforms `XCUIElement` (XCUITest crops
/// it to the element's frame), so a snapshot of one element needs no PNG decoder in the test.
public protocol SelfCapturingElement: IgnorableElement {
  /// The element's screenshot as PNG bytes; nil when it is not on screen.
  func elementScreenshotPNG() -> [UInt8]?
}

/// The part of a captured frame that one snapshot checks: an element (by the area it names now)
/// or a rectangle, as Eyes' `checkElement` and `checkRegion` do. The frame's tree is cut to it
/// (frames moved to its origin), its pixels too, and masks follow.
struct FrameCrop {
  /// The area in pixels of the full screenshot.
  let pixels: PixelRect
  /// The same area in points.
  let points: ElementFrame
  /// Pixels per point.
  let scale: Double

  /// The crop `target` names in `frame`.
  ///
  /// - Throws: ``FrameCropError`` when the target is not on the screen, or names elements and the
  ///   frame has no tree.
  init(_ target: any IgnorableElement, in frame: CapturedFrame) throws(FrameCropError) {
    guard let area = target.ignoredArea else { throw .notOnScreen("\(target)") }
    let scale = frame.scale
    self.scale = scale
    let full: PixelRect
    switch area {
    case .pixels(let rect): full = rect
    case .points(let rect): full = SnapshotMasks.pixels(of: rect, scale: scale)
    case .elements(let selector):
      guard let tree = frame.tree else { throw .needsTree(selector) }
      let found: [Element]
      do {
        found = try ElementSelector(selector).matches(in: tree)
      } catch {
        throw .badSelector(selector, "\(error)")
      }
      guard let first = found.first else { throw .notOnScreen("elements '\(selector)'") }
      full = found.dropFirst().reduce(SnapshotMasks.pixels(of: first.frame, scale: scale)) {
        $0.union(SnapshotMasks.pixels(of: $1.frame, scale: scale))
      }
    }
    let screen = frame.screenPixelSize
    pixels = screen.map { full.clamped(toWidth: $0.width, height: $0.height) } ?? full
    guard !pixels.isEmpty else { throw .notOnScreen("\(area)") }
    points = ElementFrame(
      x: Double(pixels.x) / scale, y: Double(pixels.y) / scale, width: Double(pixels.width) / scale,
      height: Double(pixels.height) / scale)
  }

  /// `frame` cut to this crop; `target`'s own screenshot is used when it takes one.
  func apply(to frame: CapturedFrame, target: any IgnorableElement) throws(FrameCropError) -> CapturedFrame {
    var cropped = frame
    cropped.source = "\(frame.source), cropped to \(pixels) px"
    cropped.tree = frame.tree?.cropped(to: points)
    cropped.ignoredAreas = frame.ignoredAreas.compactMap(moved)
    if let element = target as? any SelfCapturingElement, frame.png != nil {
      guard let png = element.elementScreenshotPNG() else { throw .notOnScreen("\(target)") }
      cropped.png = png
      #if SNAPDIFF_ENGINE
        cropped.image = nil
      #endif
      return cropped
    }
    #if SNAPDIFF_ENGINE
      if let image = frame.image {
        cropped.image = image.cropped(to: pixels)
      } else if let png = frame.png {
        do {
          let image = try PNGDecoder().decode(png, path: frame.source).cropped(to: pixels)
          cropped.png = try PNGEncoder().encode(image)
          cropped.image = image
        } catch {
          throw .pixels("\(error)")
        }
      }
    #else
      if frame.png != nil { throw .needsEngine }
    #endif
    return cropped
  }

  /// An area of the full screen, moved into the crop and cut to it; nil when it lies wholly
  /// outside. (Selectors are resolved in the cropped tree, whose frames are already moved.)
  func moved(_ area: IgnoredArea) -> IgnoredArea? {
    switch area {
    case .elements: return area
    case .points(let frame):
      return frame.intersection(points).map { .points($0.moved(by: -points.x, -points.y)) }
    case .pixels(let rect):
      guard rect.touches(pixels) else { return nil }
      let left = max(rect.x, pixels.x)
      let top = max(rect.y, pixels.y)
      return .pixels(
        PixelRect(
          x: left - pixels.x, y: top - pixels.y, width: min(rect.maxX, pixels.maxX) - left,
          height: min(rect.maxY, pixels.maxY) - top))
    }
  }

  /// A region of a page or a call, moved into the crop as masks are; nil when it lies wholly
  /// outside (it would compare nothing). A region whose element is not on screen stays as it is.
  func moved(_ region: PageRegion) -> PageRegion? {
    guard let area = region.area else { return region }
    var result = region
    guard let inside = moved(area) else { return nil }
    result.area = inside
    return result
  }

  /// A contrast region, moved into the crop as masks are; nil when it lies wholly outside.
  func moved(_ region: PageContrastRegion) -> PageContrastRegion? {
    guard let area = region.area else { return region }
    var result = region
    guard let inside = moved(area) else { return nil }
    result.area = inside
    return result
  }
}

/// Why a snapshot of an element or a region could not be cut from its frame.
enum FrameCropError: Error, CustomStringConvertible {
  case notOnScreen(String)
  case needsTree(String)
  case badSelector(String, String)
  case needsEngine
  case pixels(String)

  var description: String {
    switch self {
    case .notOnScreen(let target): "the snapshot's element or region (\(target)) is not on the screen"
    case .needsTree(let selector):
      "the snapshot's elements '\(selector)' are found in the frame's element tree, and the frame has none"
    case .badSelector(let selector, let problem): "the snapshot's selector '\(selector)' is malformed: \(problem)"
    case .needsEngine:
      "cutting a screenshot to a region needs the engine (Linux, macOS); on iOS, snapshot an XCUIElement, "
        + "which takes its own screenshot, or check the whole screen with the region's surroundings in ignoredElements"
    case .pixels(let problem): "the screenshot could not be cut to the region: \(problem)"
    }
  }
}

extension CapturedFrame {
  /// The screen's size in pixels: the PNG's, the image's, else the tree's (`ElementTree.pixelSize`).
  var screenPixelSize: PixelSize? {
    if let size = pixelSize { return size }
    #if SNAPDIFF_ENGINE
      if let image { return image.size }
    #endif
    return tree?.pixelSize
  }
}
