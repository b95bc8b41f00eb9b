import SnapdiffModel

/// Decides which pages may take snapshots, captures them with their `SnapShooter`, and checks
/// them: the `SnapshotController` of page-object UI-test suites written for a hosted checker,
/// self-hosted.
///
/// ```swift
/// override func makeSnapshotController() -> SnapshotController? {
///   .snapdiff(test: self)
///     .append(allowedPages: ^\.onboarding, ^\.autosuggestWithSkills, ^\.autosuggest)
/// }
/// ```
///
/// A snapshot on a page that is not allowed is skipped: the test says so on standard error, and
/// the frames folder (or the service's run) records it, so `snapdiff check` lists it as `skipped`.
public final class SnapshotController {
  /// The shooter for pages that have none of their own.
  public var snapShooter: SnapShooter?
  /// Where snapshots are checked.
  public var checker: SnapshotChecker
  /// Pages that may take snapshots (`^\.home`).
  public private(set) var allowedPages: [AllowedPage]
  /// Every page may take snapshots (the allow list is ignored).
  public let allowsEveryPage: Bool
  /// The test's own name (`test_search`), for keys `<id> - <test name>/<name>`.
  public var testName: String
  /// What became of every snapshot so far, in order.
  public private(set) var verdicts: [SnapshotVerdict] = []
  /// Receives failure messages instead of the running test, when set (to test the tests).
  public var onFailure: ((String) -> Void)?
  /// Receives notes (skips, recorded baselines) instead of standard error, when set.
  public var onNote: ((String) -> Void)?
  /// How long a snapshot waits for a moving screen to hold still (default: up to 2 s for two
  /// equal captures; `.off` captures once).
  public var stableCapture: StableCapture = .default
  /// Receives every checked frame's files (``FramesFolder/files(of:key:masks:)``): on Apple
  /// platforms `.snapdiff(test:)` sets it to ``FrameAttachments/xctest``, so the test results
  /// carry the frames; nil attaches nothing.
  public var frameAttachments: FrameAttachments?

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

  /// Allows more pages; chainable. Takes what `^\.page` makes, or any function from the page
  /// factory to a page (a page-object suite's own `^` returns one).
  @discardableResult
  public func append<Factory: AnyObject>(allowedPages pages: ((Factory) -> any Page)...) -> Self {
    allowedPages += pages.map(AllowedPage.init)
    return self
  }

  /// Allows more pages; chainable.
  @discardableResult
  public func append(allowedPages pages: [AllowedPage]) -> Self {
    allowedPages += pages
    return self
  }

  /// Whether `page` may take snapshots: it is one of the allowed pages of `factory`. Pages are
  /// matched by their class and `id`, so a factory that makes a new page object on every access
  /// (`var home: HomePage { HomePage() }`) works as one that keeps them.
  public func isAllowed(page: any Page, in factory: AnyObject) -> Bool {
    allowsEveryPage || allowedPages.contains { $0.matches(page, in: factory) }
  }

  /// Starts a batch: later keys read `<id> - <name>/…` (a page-object suite's `initializeSnapshot(name:)`).
  /// An XCTest name (`-[SearchTests test_x]` on macOS, `SearchTests.test_x` on Linux) is cut to
  /// its method, so keys are the same on every platform.
  public func initializeSnapshot(name: String) {
    batchName = TestName.method(from: name)
  }

  /// The key of snapshot `name` in group `id`: `<id> - <test name>/<name>`.
  public func key(id: String, name: String) -> String {
    "\(id) - \(batchName ?? testName)/\(name)"
  }

  /// Takes the snapshot `name` of `page`: skipped when the page is not allowed or has no
  /// shooter, otherwise captured and checked; a mismatch fails the running test.
  ///
  /// With `target`, the snapshot is of that element or region only (Eyes' `checkElement`,
  /// `checkRegion`): an `XCUIElement`, an ``ElementIdentifier`` or selector found in the frame's
  /// tree, an ``ElementFrame`` in points or a ``PixelRect``. The frame and its tree are cut to
  /// it, and the page's masks and regions follow; keys and baselines are as for whole screens.
  ///
  /// `checkRegions` adds regions to this snapshot only, after the page's own (``PageRegion``:
  /// floating, strict, content, layout, ignore), given on the whole screen as the page's are.
  @discardableResult
  public func takeSnapshot<P: SnapshotPage>(
    _ name: String, id: String, page: P, in factory: AnyObject, of target: (any IgnorableElement)? = nil,
    checkRegions: [PageRegion] = [], file: StaticString = #filePath, line: UInt = #line
  ) -> SnapshotVerdict {
    let key = key(id: id, name: name)
    let verdict: SnapshotVerdict
    if !isAllowed(page: page, in: factory) {
      let allowed = allowedPages.compactMap { $0.page(of: factory) }.map { "'\($0.id)' (\(type(of: $0)))" }
        .joined(separator: ", ")
      verdict = skip(
        key,
        reason: "page '\(page.id)' (\(type(of: page))) is not an allowed page of the SnapshotController"
          + " (allowed: \(allowed.isEmpty ? "none" : allowed))")
    } else if let shooter = page.snapShooter ?? snapShooter {
      verdict = check(key, page: page, shooter: shooter, target: target, checkRegions: checkRegions)
    } else {
      verdict = skip(key, reason: "page '\(page.id)' (\(type(of: page))) has no snapShooter")
    }
    verdicts.append(verdict)
    switch verdict.status {
    case .failed:
      if let message = verdict.message { fail(message, file: file, line: line) }
    case .recorded:
      note(
        "snapdiff: recorded a new baseline for '\(key)'\(verdict.baselinePath.map { " at \($0)" } ?? "")"
          + " (no baseline existed; with CI set or SNAPDIFF_RECORD=never a missing baseline fails instead)")
    case .passed, .skipped, .written:
      break
    }
    return verdict
  }

  private func check<P: SnapshotPage>(
    _ key: String, page: P, shooter: SnapShooter, target: (any IgnorableElement)?,
    checkRegions callRegions: [PageRegion]
  ) -> SnapshotVerdict {
    if let problem = page.ignoredElementsProblem {
      return SnapshotVerdict(key: key, status: .failed, message: "Snapshot '\(key)' was not taken: \(problem)")
    }
    do {
      // What one capture is checked as: cut to the target, with the page's masks and regions
      // (read now, for the screen just captured) moved into the cut.
      func prepared(_ captured: CapturedFrame) throws -> (frame: CapturedFrame, masks: SnapshotMasks) {
        var frame = captured
        var areas = try page.ignoredAreas().get()
        var regions = page.checkRegions + callRegions
        var contrast = page.contrastRegions
        if let target {
          let crop = try FrameCrop(target, in: frame)
          frame = try crop.apply(to: frame, target: target)
          areas = areas.compactMap(crop.moved)
          regions = regions.compactMap(crop.moved)
          contrast = contrast.compactMap(crop.moved)
        }
        let masks = SnapshotMasks(
          frame.ignoredAreas + areas, scale: frame.scale, checkRegions: regions, contrastRegions: contrast)
        return (frame, masks)
      }
      let matcher = stableCapture.stopsAtBaselineMatch ? checker.baselineMatcher(key: key) : nil
      let capture = try stableCapture.capture(
        with: shooter,
        matchesBaseline: matcher.map { matches in
          { captured in
            let (frame, masks) = try prepared(captured)
            return try matches(frame, masks)
          }
        })
      let (frame, masks) = try prepared(capture.frame)
      if let frameAttachments {
        let snapshotKey = try SnapshotKey(key)
        frameAttachments.attach(snapshotKey, try FramesFolder.files(of: frame, key: snapshotKey, masks: masks))
      }
      var verdict = try checker.verify(frame, key: key, masks: masks)
      verdict.captures = capture.captures
      if let wait = capture.note(timeout: stableCapture.timeout) {
        if verdict.status == .failed {
          verdict.message = (verdict.message ?? "Snapshot '\(key)' failed") + "\n  capture: " + wait
        } else {
          note("snapdiff: snapshot '\(key)': \(wait)")
        }
      }
      return verdict
    } catch {
      return SnapshotVerdict(key: key, status: .failed, message: "Snapshot '\(key)' could not be taken: \(error)")
    }
  }

  private func skip(_ key: String, reason: String) -> SnapshotVerdict {
    note("snapdiff: skipped snapshot '\(key)': \(reason)")
    do {
      try checker.recordSkip(key: key, reason: reason)
    } catch {
      note("snapdiff: could not record the skip of '\(key)': \(error)")
    }
    return SnapshotVerdict(key: key, status: .skipped, message: reason)
  }

  private func fail(_ message: String, file: StaticString, line: UInt) {
    if let onFailure { onFailure(message) } else { IssueReporter.record(message, file: file, line: line) }
  }

  private func note(_ message: String) {
    if let onNote { onNote(message) } else { IssueReporter.note(message) }
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

  /// The controller a page factory holds: its `snapshotController` property, found through
  /// ``SnapshotPageFactory`` or, for a factory that does not conform, by reflection on its stored
  /// properties (a page-object suite's `PageFactory` declares `var snapshotController: SnapshotController?`).
  ///
  /// - Returns: `.none` when the factory has no such property, `.some(nil)` when it has one that
  ///   is nil (snapshots are then not taken, as in the seed).
  static func held(by factory: AnyObject) -> SnapshotController?? {
    if let factory = factory as? any SnapshotPageFactory { return .some(factory.snapshotController) }
    var mirror: Mirror? = Mirror(reflecting: factory)
    while let current = mirror {
      for child in current.children where child.label == "snapshotController" {
        if let controller = child.value as? SnapshotController { return .some(controller) }
        if child.value is SnapshotController? { return .some(nil) }
      }
      mirror = current.superclassMirror
    }
    return .none
  }
}

/// One entry of a controller's allow list: a function from the page factory to a page.
public struct AllowedPage: CustomStringConvertible {
  private let page: (AnyObject) -> (any Page)?
  /// The factory's type, for messages.
  private let factoryType: String

  public init<Factory: AnyObject>(_ page: @escaping (Factory) -> any Page) {
    self.page = { ($0 as? Factory).map(page) }
    factoryType = "\(Factory.self)"
  }

  /// The page this entry names in `factory`; nil for a factory of another type.
  func page(of factory: AnyObject) -> (any Page)? { page(factory) }

  /// Whether `candidate` is this page of `factory`: the same object, or one of the same class
  /// with the same `id`.
  func matches(_ candidate: any Page, in factory: AnyObject) -> Bool {
    guard let allowed = page(factory) else { return false }
    return allowed === candidate
      || (ObjectIdentifier(type(of: allowed)) == ObjectIdentifier(type(of: candidate)) && allowed.id == candidate.id)
  }

  public var description: String { "a page of \(factoryType)" }
}

prefix operator ^

/// Turns a key path to a page of the factory into an allow-list entry, as a page-object suite's operator
/// does (key paths do not work with protocols; functions do):
/// `.append(allowedPages: ^\PageFactory.onboarding)`. Declaring the usual one-line `^` for
/// your factory type (`KeyPath<PageFactory, P>`) lets you write `^\.onboarding`.
public prefix func ^ <Factory: AnyObject, P: Page>(_ keyPath: KeyPath<Factory, P>) -> (Factory) -> any Page {
  { factory in factory[keyPath: keyPath] }
}
