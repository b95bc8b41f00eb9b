import SnapdiffModel

/// A factory of pages that holds the test's snapshot controller: a page-object suite's `PageFactory`.
/// Conforming is optional: a factory with a stored `var snapshotController: SnapshotController?`
/// is found without it.
public protocol SnapshotPageFactory: AnyObject {
  var snapshotController: SnapshotController? { get }
}

/// Actions on one page: a page-object suite's `Steps`.
public protocol Steps: AnyObject {
  associatedtype PageType: Page
  associatedtype Factory: AnyObject
  var page: PageType { get }
  var factory: Factory { get }
}

/// Steps whose page takes snapshots, named by `SnapshotName`.
///
/// ```swift
/// final class HomeSteps: SnapshotSteps {
///   let page: HomePage
///   let factory: PageFactory
///   …
/// }
/// homeSteps.initializeSnapshot(name: "test_search").takeSnapshot(.view).takeSnapshot(.search)
/// ```
public protocol SnapshotSteps: Steps where PageType: SnapshotPage {
  associatedtype SnapshotName: SnapshotValue
}

extension SnapshotSteps {
  /// Names the batch: keys become `<SnapshotName.id> - <name>/…`.
  @discardableResult
  public func initializeSnapshot(name: String) -> Self {
    controller()?.initializeSnapshot(name: name)
    return self
  }

  /// Takes a snapshot of the page when the controller allows it; a mismatch fails the test.
  ///
  /// `checkRegions` adds regions to this snapshot only, as the page's `checkRegions` declares
  /// them for all of its snapshots (Eyes' check settings on one check):
  /// `takeSnapshot(.loaded, checkRegions: [.floating(page.banner, by: 8), .ignore("~ad")])`.
  @discardableResult
  public func takeSnapshot(
    _ name: SnapshotName, checkRegions: [PageRegion] = [], file: StaticString = #filePath, line: UInt = #line
  ) -> Self {
    controller(file: file, line: line)?.takeSnapshot(
      name.name, id: SnapshotName.id, page: page, in: factory, checkRegions: checkRegions, file: file, line: line)
    return self
  }

  /// Takes a snapshot of one element or region of the page (Eyes' `checkElement` and
  /// `checkRegion`): `takeSnapshot(.card, of: page.jobCard)` with an `XCUIElement`, an
  /// ``ElementIdentifier`` or selector, an ``ElementFrame`` in points or a ``PixelRect``.
  /// The page's masks and regions, and `checkRegions`, are given on the whole screen and move
  /// into the element's crop.
  @discardableResult
  public func takeSnapshot(
    _ name: SnapshotName, of target: some IgnorableElement, checkRegions: [PageRegion] = [],
    file: StaticString = #filePath, line: UInt = #line
  ) -> Self {
    controller(file: file, line: line)?.takeSnapshot(
      name.name, id: SnapshotName.id, page: page, in: factory, of: target, checkRegions: checkRegions, file: file,
      line: line)
    return self
  }

  /// The factory's controller; a factory without a `snapshotController` property fails the test
  /// (a snapshot would otherwise never be taken, silently).
  private func controller(file: StaticString = #filePath, line: UInt = #line) -> SnapshotController? {
    switch SnapshotController.held(by: factory) {
    case .some(let controller): return controller
    case .none:
      IssueReporter.record(
        "\(Factory.self) has no snapshotController: declare `var snapshotController: SnapshotController?` "
          + "in it (or conform it to SnapshotPageFactory) and set it in setUp", file: file, line: line)
      return nil
    }
  }
}
