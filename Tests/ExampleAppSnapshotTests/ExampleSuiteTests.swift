import ExampleApp
import SnapdiffCore
import SnapdiffTesting
import XCTest

/// The onboarding flow: snapshots of both steps.
final class OnboardingSnapshotTests: BaseTest {
  override func makeSnapshotController() -> SnapshotController? {
    .snapdiff(test: self)
      .append(allowedPages: ^\.onboarding)
  }

  func test_onboarding() {
    steps.onboarding
      .takeSnapshot(.welcome)
      .tapContinue()
      .takeSnapshot(.skills)
    XCTAssertEqual(
      pages.snapshotController?.verdicts.map(\.key),
      [
        "Onboarding - test_onboarding/Onboarding - welcome",
        "Onboarding - test_onboarding/Onboarding - skills",
      ])
  }
}

/// The result list and the profile, whose clock and ad banner change on every run: the masks
/// keep them out of the comparison.
final class ResultListSnapshotTests: BaseTest {
  override func makeSnapshotController() -> SnapshotController? {
    .snapdiff(test: self)
      .append(allowedPages: ^\.resultList, ^\.profile)
  }

  func test_results_and_profile() {
    steps.onboarding.tapContinue().tapShowMyJobs()
    steps.resultList.takeSnapshot(.list).openProfile()
    steps.profile.takeSnapshot(.view)
    let statuses = pages.snapshotController?.verdicts.map(\.status) ?? []
    XCTAssertFalse(statuses.contains(.failed), "\(statuses)")
    XCTAssertFalse(statuses.contains(.skipped), "\(statuses)")
  }
}

/// A page the controller does not allow: the snapshot is skipped, and says so.
final class SkippedSnapshotTests: BaseTest {
  override func makeSnapshotController() -> SnapshotController? {
    .snapdiff(test: self)
      .append(allowedPages: ^\.onboarding)
  }

  func test_profile_not_allowed() {
    steps.onboarding.tapContinue().tapShowMyJobs()
    steps.resultList.openProfile()
    steps.profile.takeSnapshot(.view)
    let verdict = pages.snapshotController?.verdicts.last
    XCTAssertEqual(verdict?.status, .skipped)
    XCTAssertEqual(verdict?.key, "Profile - test_profile_not_allowed/Profile")
    XCTAssertEqual(verdict?.message?.contains("is not an allowed page"), true)
  }
}

/// A deliberate change (the Log out button moved 8 points down) fails with a diff image and a
/// message that names the moved element, while the suite itself stays green.
final class DeliberateChangeTests: BaseTest {
  var scratch: String!

  override func makeSnapshotController() -> SnapshotController? {
    scratch = NSTemporaryDirectory() + "snapdiff-example-\(UUID().uuidString)"
    let checker = SnapshotChecker.local(
      baselines: "baselines", frames: scratch + "/frames", artifacts: scratch + "/artifacts",
      recordMode: .never)
    return SnapshotController(testName: name, checker: checker).append(allowedPages: ^\.profile)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: scratch)
    super.tearDown()
  }

  func test_profile() throws {
    var failures: [String] = []
    pages.snapshotController?.onFailure = { failures.append($0) }
    // The same test name as the committed baseline's, with the button moved.
    pages.snapshotController?.initializeSnapshot(name: "test_results_and_profile")
    pages.snapshotController?.testName = "test_results_and_profile"
    app.movesLogoutButton = true
    steps.onboarding.tapContinue().tapShowMyJobs()
    steps.resultList.openProfile()
    steps.profile.takeSnapshot(.view)

    let verdict = try XCTUnwrap(pages.snapshotController?.verdicts.last)
    XCTAssertEqual(verdict.status, .failed)
    XCTAssertEqual(failures.count, 1)
    let message = try XCTUnwrap(failures.first)
    XCTAssertTrue(
      message.contains("Snapshot 'Profile - test_results_and_profile/Profile' does not match its baseline"), message)
    XCTAssertTrue(message.contains("button 'logoutButton' moved 8 pt down"), message)
    let diff = try XCTUnwrap(verdict.diffPath)
    XCTAssertTrue(message.contains(diff))
    XCTAssertEqual(try PNGDecoder().decode(contentsOf: diff).size, PixelSize(width: 780, height: 1688))
  }
}
