import SnapdiffModel

/// A region of a page compared by a rule of its own, as Applitools Eyes' regions are: a page
/// declares them in `checkRegions` as it declares `ignoredElements`, with the same kinds of
/// element (``IgnorableElement``: selectors, ``ElementIdentifier``s, rectangles in points or
/// pixels, and on Apple platforms `XCUIElement`s, read when the snapshot is taken).
///
/// ```swift
/// final class FeedPage: SnapshotPage {
///   var checkRegions: [PageRegion] {
///     [.floating("~badge", by: 5), .layout("feed"), .strict(ElementIdentifier.logo), .content("~chart")]
///   }
/// }
/// ```
///
/// A `takeSnapshot` call adds its own for that snapshot only, in the same form:
///
/// ```swift
/// feedSteps.takeSnapshot(.loaded, checkRegions: [.floating(page.banner, by: 8), .ignore("~ad")])
/// ```
///
/// In a snapshot of one element (`takeSnapshot(_:of:)`), rectangles are given on the whole
/// screen, as XCUITest reports frames, and are moved into the element's crop; one wholly outside
/// it is dropped.
public struct PageRegion: Sendable, Equatable {
  public var kind: CheckRegion.Kind
  /// Where: `nil` when the element does not exist on screen (the region then covers nothing).
  public var area: IgnoredArea?
  /// For `floating`: how far the content may move, in pixels.
  public var offsets: CheckRegion.Offsets?

  public init(_ kind: CheckRegion.Kind, _ element: some IgnorableElement, offsets: CheckRegion.Offsets? = nil) {
    self.kind = kind
    self.area = element.ignoredArea
    self.offsets = offsets
  }

  /// Content that may move by up to `pixels` in every direction and must otherwise be the same.
  public static func floating(_ element: some IgnorableElement, by pixels: Int) -> PageRegion {
    PageRegion(.floating, element, offsets: .init(all: pixels))
  }

  /// Content that may move by up to these many pixels in each direction.
  public static func floating(
    _ element: some IgnorableElement, up: Int, down: Int, left: Int, right: Int
  ) -> PageRegion {
    PageRegion(.floating, element, offsets: .init(up: up, down: down, left: left, right: right))
  }

  /// Compared at `strict` whatever the snapshot's level.
  public static func strict(_ element: some IgnorableElement) -> PageRegion { PageRegion(.strict, element) }

  /// Colours do not count (compared at `ignore-colors`).
  public static func content(_ element: some IgnorableElement) -> PageRegion { PageRegion(.content, element) }

  /// Only structure counts: the elements inside are compared as the `layout` level does.
  public static func layout(_ element: some IgnorableElement) -> PageRegion { PageRegion(.layout, element) }

  /// Never counted: a mask, as an entry of `ignoredElements` is (for a `takeSnapshot` call that
  /// masks more than its page does).
  public static func ignore(_ element: some IgnorableElement) -> PageRegion { PageRegion(.ignore, element) }

  /// As the comparison takes it, in a frame of `scale` pixels per point: a rectangle in points
  /// becomes pixels (rounded outward, as masks are); `nil` when there is no area now.
  public func checkRegion(scale: Double) -> CheckRegion? {
    guard let area else { return nil }
    switch area {
    case .elements(let selector): return CheckRegion(kind, .element(selector), offsets: offsets)
    case .pixels(let rect): return CheckRegion(kind, .pixels(rect), offsets: offsets)
    case .points(let frame):
      return CheckRegion(kind, .pixels(SnapshotMasks.pixels(of: frame, scale: scale)), offsets: offsets)
    }
  }
}
