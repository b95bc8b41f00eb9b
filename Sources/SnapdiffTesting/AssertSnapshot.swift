import SnapdiffCore

/// Checks `frame` as snapshot `key` against the baseline store; the failure message, or `nil`.
///
/// ```swift
/// if let message = verifySnapshot(of: frame, key: "Home - test_search/Home") { print(message) }
/// ```
public func verifySnapshot(
  of frame: Frame, key: String, ignoring ignoredElements: [ElementIdentifier] = [],
  checker: SnapshotChecker = .automatic()
) -> String? {
  do {
    let verdict = try checker.verify(frame, key: key, ignoredElements: ignoredElements)
    return verdict.status == .failed ? verdict.message : nil
  } catch {
    return "Snapshot '\(key)' could not be checked: \(error)"
  }
}

/// Fails the running test (XCTest or Swift Testing) when `frame` does not match the baseline of
/// `key`; the message names the key, the figures, and the paths of baseline, current and diff.
///
/// ```swift
/// assertSnapshot(of: .tree(app.homeTree()), key: "Home - test_search/Home", ignoring: ["clock"])
/// ```
public func assertSnapshot(
  of frame: Frame, key: String, ignoring ignoredElements: [ElementIdentifier] = [],
  checker: SnapshotChecker = .automatic(), file: StaticString = #filePath, line: UInt = #line
) {
  if let message = verifySnapshot(of: frame, key: key, ignoring: ignoredElements, checker: checker) {
    IssueReporter.record(message, file: file, line: line)
  }
}

extension Frame {
  /// A frame rendered from an element tree.
  public static func tree(_ tree: ElementTree) -> Frame {
    Frame(image: ElementRenderer().render(tree), tree: tree, path: "rendered element tree")
  }
}
