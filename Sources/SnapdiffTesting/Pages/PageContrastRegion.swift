import SnapdiffModel

/// A region of a page held to contrast by a rule of its own, as Applitools Eyes' accessibility
/// regions are: a page declares them in `contrastRegions` as it declares `ignoredElements` and
/// `checkRegions`, with the same kinds of element (``IgnorableElement``: selectors,
/// ``ElementIdentifier``s, rectangles in points or pixels, and on Apple platforms `XCUIElement`s,
/// read when the snapshot is taken).
///
/// ```swift
/// final class LoginPage: SnapshotPage {
///   var contrastRegions: [PageContrastRegion] {
///     [.largeText("title"), .graphicalObject(app.images["logo"]), .ignoreContrast("~legal")]
///   }
/// }
/// ```
///
/// They only refine a contrast check that is on (`snapdiff.json`'s `contrast`, `check
/// --contrast`, the checker's settings): a selector picks elements in the frame's tree, a
/// rectangle holds the elements lying wholly inside it.
public struct PageContrastRegion: Sendable, Equatable {
  public var kind: ContrastRegion.Kind
  /// Where: `nil` when the element does not exist on screen (the region then holds nothing).
  public var area: IgnoredArea?

  public init(_ kind: ContrastRegion.Kind, _ element: some IgnorableElement) {
    self.kind = kind
    area = element.ignoredArea
  }

  /// Text held to the regular-text ratio (4.5:1 at AA), whatever its size.
  public static func regularText(_ element: some IgnorableElement) -> PageContrastRegion {
    PageContrastRegion(.regularText, element)
  }

  /// Text held to the large-text ratio (3:1 at AA), whatever its size.
  public static func largeText(_ element: some IgnorableElement) -> PageContrastRegion {
    PageContrastRegion(.largeText, element)
  }

  /// Bold text: large from 14 pt instead of 18 pt.
  public static func boldText(_ element: some IgnorableElement) -> PageContrastRegion {
    PageContrastRegion(.boldText, element)
  }

  /// A graphical object or control (WCAG 1.4.11): 3:1 at either level, text or not.
  public static func graphicalObject(_ element: some IgnorableElement) -> PageContrastRegion {
    PageContrastRegion(.graphicalObject, element)
  }

  /// Not checked for contrast (Eyes' `IgnoreContrast`).
  public static func ignoreContrast(_ element: some IgnorableElement) -> PageContrastRegion {
    PageContrastRegion(.ignore, element)
  }

  /// As the contrast check takes it, in a frame of `scale` pixels per point: a rectangle in
  /// points becomes pixels (rounded outward, as masks are); `nil` when there is no area now.
  public func contrastRegion(scale: Double) -> ContrastRegion? {
    guard let area else { return nil }
    switch area {
    case .elements(let selector): return ContrastRegion(kind: kind, selector: selector)
    case .pixels(let rect): return ContrastRegion(kind: kind, area: .pixels(rect))
    case .points(let frame):
      return ContrastRegion(kind: kind, area: .pixels(SnapshotMasks.pixels(of: frame, scale: scale)))
    }
  }
}
