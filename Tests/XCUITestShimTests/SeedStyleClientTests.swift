#if os(Linux)
  import Foundation
  import SnapdiffModel
  import SnapdiffTesting
  import XCTest

  /// The seed-style client (SeedStyleClient/, one line changed from the hosted checker's
  /// version) run as XCTest runs it, against the shim's app: the onboarding page snapshots with
  /// its clock masked by an `XCUIElement`, the profile page (not allowed) is skipped, and a real
  /// change fails the test where the engine links.
  final class SeedStyleClientTests: XCTestCase {
    private var scratch = ""
    private var ci: String?

    override func setUp() {
      super.setUp()
      scratch = NSTemporaryDirectory() + "snapdiff-seed-client-\(UUID().uuidString)"
      for (name, folder) in [
        ("SNAPDIFF_BASELINES", "baselines"), ("SNAPDIFF_FRAMES", "frames"), ("SNAPDIFF_ARTIFACTS", "artifacts"),
      ] {
        setenv(name, scratch + "/" + folder, 1)
      }
      unsetenv("SNAPDIFF_SERVICE_URL")
      // The first run records, as on a new simulator: not CI's record mode `never`.
      ci = ProcessInfo.processInfo.environment["CI"]
      unsetenv("CI")
    }

    override func tearDown() {
      for name in ["SNAPDIFF_BASELINES", "SNAPDIFF_FRAMES", "SNAPDIFF_ARTIFACTS"] { unsetenv(name) }
      if let ci { setenv("CI", ci, 1) }
      try? FileManager.default.removeItem(atPath: scratch)
      MainActor.assumeIsolated {
        ShimApp.clockShade = 90
        ShimApp.buttonBlue = 255
      }
      super.tearDown()
    }

    /// Runs the client's `test_onboarding` as XCTest would (setUp, the test, tearDown); the
    /// failures it would record, and its verdicts.
    private func runClient() -> (failures: Int, verdicts: [SnapshotVerdict]) {
      let test = OnboardingApplitoolsTests(name: "test_onboarding") { ($0 as! OnboardingApplitoolsTests).onboarding() }
      test.setUp()
      var failures: [String] = []
      test.pages.snapshotController?.onFailure = { failures.append($0) }
      // What `.snapdiff(test:)` sets on Apple platforms (corelibs XCTest has no attachments; the
      // shim's XCTContext records them).
      test.pages.snapshotController?.frameAttachments = .xctest
      MainActor.assumeIsolated { XCUIShimWorld.attachments = [] }
      test.onboarding()
      test.tearDown()
      lastFailures = failures
      return (failures.count, test.pages.snapshotController?.verdicts ?? [])
    }

    private var lastFailures: [String] = []

    /// The seed's base extension of `Page` (`type` in XCUITest's type, `screen` from
    /// `app.descendants(matching: type)`) compiles beside snapdiff's `Page` and finds the pages'
    /// screens; the client's steps tap, and its BaseTest launches with arguments.
    func test_theSeedsPageExtensionFindsScreensAndTheStepsAct() throws {
      MainActor.assumeIsolated {
        XCUIShimWorld.actions = []
        XCUIShimWorld.launches = []
      }
      _ = runClient()
      MainActor.assumeIsolated {
        XCTAssertEqual(XCUIShimWorld.actions, ["tap nextButton"])
        XCTAssertEqual(XCUIShimWorld.launches.last?.arguments, ["-UITests", "-AppleLanguages", "(en)"])
        XCTAssertEqual(XCUIShimWorld.launches.last?.environment, ["UITEST_DISABLE_ANIMATIONS": "1"])
        let onboarding = OnboardingPage()
        XCTAssertTrue(onboarding.screen.exists)
        XCTAssertEqual(onboarding.screen.identifier, "onboarding")
        XCTAssertEqual(onboarding.type, .other)
        XCTAssertEqual(onboarding.nextButton.label, "Next")
        XCTAssertEqual(onboarding.title.label, "9:41")
        XCTAssertEqual(onboarding.pageDots.count, 0)
        XCTAssertTrue(onboarding.waitForAppearance(timeout: 1))
        // A page whose screen is not shown: its `screen` does not exist, its queries are empty.
        let autosuggest = AutosuggestPage()
        XCTAssertEqual(autosuggest.type, .any)
        XCTAssertFalse(autosuggest.screen.exists)
        XCTAssertTrue(autosuggest.waitForDisappearance(timeout: 1))
        XCTAssertFalse(autosuggest.searchField.exists)
        XCTAssertEqual(autosuggest.suggestions.count, 0)
        XCTAssertFalse(autosuggest.clearButton.exists)
        XCTAssertFalse(autosuggest.keyboardVisible)
        // Queries by type, identifier and index over the screen as XCUITest answers them.
        XCTAssertEqual(app.descendants(matching: .any).count, 3)
        XCTAssertEqual(app.children(matching: .other).element.identifier, "onboarding")
        XCTAssertEqual(app.otherElements.matching(identifier: "onboarding").count, 1)
        XCTAssertEqual(app.otherElements.containing(.button, identifier: "nextButton").count, 1)
        XCTAssertEqual(app.descendants(matching: .any).element(boundBy: 1).identifier, "clock")
        XCTAssertEqual(app.staticTexts["9:41"].identifier, "clock")
        XCTAssertFalse(app.buttons.element(boundBy: 5).exists)
        XCTAssertTrue(app.buttons["nextButton"].isHittable)
        XCTAssertFalse(autosuggest.suggestion(containing: "swift").exists)
        let labelled = app.descendants(matching: .any).matching(
          NSPredicate { element, _ in (element as? XCUIElementAttributes)?.label == "Next" })
        XCTAssertEqual(labelled.firstMatch.identifier, "nextButton")
        XCTAssertEqual(
          app.otherElements.containing(
            NSPredicate { element, _ in (element as? XCUIElementAttributes)?.label == "9:41" }
          )
          .count, 1)
      }
    }

    func test_theSeedsCodeRunsWithOneLineChanged() throws {
      let key = "Onboarding - test_onboarding/Onboarding"
      let first = runClient()
      XCTAssertEqual(first.failures, 0)
      XCTAssertEqual(first.verdicts.map(\.key), [key, "Profile - test_onboarding/Profile"])
      let engine = first.verdicts[0].status == .recorded
      XCTAssertEqual(first.verdicts[0].status, engine ? .recorded : .written)
      XCTAssertEqual(first.verdicts[1].status, .skipped)

      // What snapdiff check reads: the screenshot as taken, the tree, and the clock's frame
      // (4, 2, 40×16 points) as pixels at scale 2.
      let frames = scratch + "/frames/"
      let png = try Data(contentsOf: URL(fileURLWithPath: frames + key + ".png"))
      XCTAssertEqual(png, MainActor.assumeIsolated { ShimApp.screenshot() })
      let tree = try ElementTree.load(frames + key + ".tree.json")
      XCTAssertEqual(tree.scale, 2)
      XCTAssertEqual(tree.root.allElements().first { $0.identifier == "nextButton" }?.label, "Next")
      let settings = try JSONDecoder().decode(
        SnapshotSettings.self, from: Data(contentsOf: URL(fileURLWithPath: frames + key + ".snapdiff.json")))
      XCTAssertEqual(settings.ignoreRegions, [PixelRect(x: 8, y: 4, width: 80, height: 32)])
      XCTAssertTrue(FileManager.default.fileExists(atPath: frames + "Profile - test_onboarding/Profile.skipped.json"))

      // The test's results carry the same files, kept when it passes, named by their path in a
      // frames folder (a device's frames come back this way).
      let attached = MainActor.assumeIsolated { XCUIShimWorld.attachments }
      XCTAssertEqual(attached.map(\.activity), Array(repeating: "snapdiff: \(key)", count: 3))
      XCTAssertEqual(
        attached.map { $0.attachment.name },
        ["frame", "tree", "masks"].map { "snapdiff-\($0)-Onboarding%20-%20test_onboarding%2FOnboarding" })
      XCTAssertEqual(attached.map(\.attachment.uniformTypeIdentifier), ["public.png", "public.json", "public.json"])
      XCTAssertTrue(attached.allSatisfy { $0.attachment.lifetime == .keepAlways })
      for (activity, attachment) in attached {
        let file = try XCTUnwrap(FrameAttachmentName.parse(attachment.name ?? ""))
        let onDisk = try Data(contentsOf: URL(fileURLWithPath: frames + file.key.relativePath(suffix: file.suffix)))
        XCTAssertEqual(attachment.data, onDisk, "\(activity): \(attachment.name ?? "")")
      }

      // The clock changes: masked, so the snapshot passes.
      MainActor.assumeIsolated { ShimApp.clockShade = 20 }
      let clockChanged = runClient()
      XCTAssertEqual(clockChanged.failures, 0)
      XCTAssertEqual(clockChanged.verdicts.first?.status, engine ? .passed : .written)

      // The button's colour changes: the test fails where the engine compares in-process; an iOS
      // bundle's frames folder holds the changed frame for `snapdiff check`.
      MainActor.assumeIsolated { ShimApp.buttonBlue = 120 }
      let buttonChanged = runClient()
      XCTAssertEqual(buttonChanged.failures, engine ? 1 : 0)
      XCTAssertEqual(buttonChanged.verdicts.first?.status, engine ? .failed : .written)
      if engine {
        let message = try XCTUnwrap(buttonChanged.verdicts.first?.message)
        XCTAssertTrue(
          message.hasPrefix(
            "Snapshot '\(key)' does not match its baseline: 12,000 of 96,000 pixels differ (12.5%) in 1 area: 200×60 at (20, 300)"
          ), message)
        XCTAssertEqual(lastFailures, [message])
      }
    }
  }
#endif
