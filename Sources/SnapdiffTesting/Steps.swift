import SnapdiffCore

/// A factory of pages that knows the test's snapshot controller: the seed's `PageFactory`.
public protocol SnapshotPageFactory: AnyObject {
  var snapshotController: SnapshotController<Self>? { get }
}

/// Actions on one page: the seed's `Steps`.
public protocol Steps: AnyObject {
  associatedtype PageType: Page
  associatedtype Factory: SnapshotPageFactory
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
    factory.snapshotController?.initializeSnapshot(name: name)
    return self
  }

  /// Takes a snapshot of the page when the controller allows it; a mismatch fails the test.
  @discardableResult
  public func takeSnapshot(_ name: SnapshotName, file: StaticString = #filePath, line: UInt = #line) -> Self {
    factory.snapshotController?.takeSnapshot(
      name.name, id: SnapshotName.id, page: page, in: factory, file: file, line: line)
    return self
  }
}
