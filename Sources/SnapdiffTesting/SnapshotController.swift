import SnapdiffCore

/// Decides which pages may take snapshots, captures them with their `SnapShooter`, and checks
/// them: the seed's `SnapshotController`, self-hosted.
///
/// ```swift
/// override func makeSnapshotController() -> SnapshotController<PageFactory>? {
///   .snapdiff(test: self)
///     .append(allowedPages: ^\.onboarding, ^\.autosuggestWithSkills, ^\.autosuggest)
/// }
/// ```
///
/// A snapshot on a page that is not allowed is skipped: the test says so on standard error, and
/// the frames folder records it for `snapdiff check`, which lists it as `skipped`.
public final class SnapshotController<Factory: AnyObject> {
  /// The shooter for pages that have none of their own.
  public var snapShooter: SnapShooter?
  /// Where snapshots are checked.
  public var checker: SnapshotChecker
  /// Pages that may take snapshots, as functions of the factory (`^\.home`).
  public private(set) var allowedPages: [(Factory) -> any Page]
  /// Every page may take snapshots (the allow list is ignored).
  public let allowsEveryPage: Bool
  /// The test's own name (`test_search`), for keys `<id> - <test name>/<name>`.
  public var testName: String
  /// What became of every snapshot so far, in order.
  public private(set) var verdicts: [SnapshotVerdict] = []
  /// Receives failure messages instead of the running test, when set (to test the tests).
  public var onFailure: ((String) -> Void)?

  private var batchName: String?

  public init(
    testName: String, checker: SnapshotChecker = .automatic(), snapShooter: SnapShooter? = nil,
    allowsEveryPage: Bool = false
  ) {
    self.testName = TestName.method(from: testName)
    self.checker = checker
    self.snapShooter = snapShooter
    self.allowsEveryPage = allowsEveryPage
    allowedPages = []
  }

  /// Allows more pages; chainable.
  @discardableResult
  public func append(allowedPages pages: (Factory) -> any Page...) -> Self {
    allowedPages += pages
    return self
  }

  /// Whether `page` may take snapshots: it is one of the allowed pages of `factory`.
  public func isAllowed(page: any Page, in factory: Factory) -> Bool {
    allowsEveryPage || allowedPages.contains { $0(factory) === page }
  }

  /// Starts a batch: later keys read `<id> - <name>/…` (the seed's `initializeSnapshot(name:)`).
  public func initializeSnapshot(name: String) {
    batchName = name
  }

  /// The key of snapshot `name` in group `id`: `<id> - <test name>/<name>`.
  public func key(id: String, name: String) -> String {
    "\(id) - \(batchName ?? testName)/\(name)"
  }

  /// Takes the snapshot `name` of `page`: skipped when the page is not allowed or has no
  /// shooter, otherwise captured and checked; a mismatch fails the running test.
  @discardableResult
  public func takeSnapshot(
    _ name: String, id: String, page: any SnapshotPage, in factory: Factory,
    file: StaticString = #filePath, line: UInt = #line
  ) -> SnapshotVerdict {
    let key = key(id: id, name: name)
    let verdict: SnapshotVerdict
    if !isAllowed(page: page, in: factory) {
      verdict = skip(key, reason: "page '\(page.id)' (\(type(of: page))) is not an allowed page of the SnapshotController")
    } else if let shooter = page.snapShooter ?? snapShooter {
      do {
        verdict = try checker.verify(shooter.capture(), key: key, ignoredElements: page.ignoredElements)
      } catch {
        verdict = SnapshotVerdict(key: key, status: .failed, message: "Snapshot '\(key)' could not be taken: \(error)")
      }
    } else {
      verdict = skip(key, reason: "page '\(page.id)' (\(type(of: page))) has no snapShooter")
    }
    verdicts.append(verdict)
    if verdict.status == .failed, let message = verdict.message {
      if let onFailure { onFailure(message) } else { IssueReporter.record(message, file: file, line: line) }
    }
    return verdict
  }

  private func skip(_ key: String, reason: String) -> SnapshotVerdict {
    IssueReporter.note("snapdiff: skipped snapshot '\(key)': \(reason)")
    do {
      try checker.recordSkip(key: key, reason: reason)
    } catch {
      IssueReporter.note("snapdiff: could not record the skip of '\(key)': \(error)")
    }
    return SnapshotVerdict(key: key, status: .skipped, message: reason)
  }
}

extension SnapshotController {
  /// snapdiff's controller for a test: checks as `SnapshotChecker.automatic()` decides, the test's name in
  /// keys, only the pages you append allowed.
  public static func snapdiff(testName: String, checker: SnapshotChecker = .automatic()) -> SnapshotController {
    SnapshotController(testName: testName, checker: checker)
  }

  /// A controller that lets every page take snapshots.
  public static func everyPage(testName: String, checker: SnapshotChecker = .automatic()) -> SnapshotController {
    SnapshotController(testName: testName, checker: checker, allowsEveryPage: true)
  }
}

prefix operator ^

/// Turns a key path to a page of the factory into the function an allow list holds, as the
/// seed's operator does (key paths do not work with protocols; functions do):
/// `.append(allowedPages: ^\.onboarding)`.
public prefix func ^ <Factory, P: Page>(_ keyPath: KeyPath<Factory, P>) -> (Factory) -> any Page {
  { factory in factory[keyPath: keyPath] }
}
