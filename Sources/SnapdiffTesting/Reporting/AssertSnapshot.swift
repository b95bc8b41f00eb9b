import SnapdiffModel

#if SNAPDIFF_ENGINE
  import SnapdiffCore
#endif

/// Checks `frame` as snapshot `key`; the failure message, or `nil`.
///
/// ```swift
/// if let message = verifySnapshot(of: .rendering(app.homeTree()), key: "Home - test_search/Home") { print(message) }
/// ```
public func verifySnapshot(
  of frame: CapturedFrame, key: String, ignoring ignoredElements: [any IgnorableElement] = [],
  checker: SnapshotChecker = .automatic()
) -> String? {
  do {
    let masks = SnapshotMasks(frame.ignoredAreas + ignoredElements.compactMap(\.ignoredArea), scale: frame.scale)
    let verdict = try checker.verify(frame, key: key, masks: masks)
    return verdict.status == .failed ? verdict.message : nil
  } catch {
    return "Snapshot '\(key)' could not be checked: \(error)"
  }
}

/// Fails the running test (XCTest or Swift Testing) when `frame` does not match the baseline of
/// `key`; the message names the key, the figures, and the paths of baseline, current and diff.
///
/// ```swift
/// assertSnapshot(of: .rendering(app.homeTree()), key: "Home - test_search/Home", ignoring: ["clock"])
/// ```
public func assertSnapshot(
  of frame: CapturedFrame, key: String, ignoring ignoredElements: [any IgnorableElement] = [],
  checker: SnapshotChecker = .automatic(), file: StaticString = #filePath, line: UInt = #line
) {
  if let message = verifySnapshot(of: frame, key: key, ignoring: ignoredElements, checker: checker) {
    IssueReporter.record(message, file: file, line: line)
  }
}

#if SNAPDIFF_ENGINE
  /// ``verifySnapshot(of:key:ignoring:checker:)`` for a frame the engine made.
  public func verifySnapshot(
    of frame: Frame, key: String, ignoring ignoredElements: [any IgnorableElement] = [],
    checker: SnapshotChecker = .automatic()
  ) -> String? {
    verifySnapshot(of: CapturedFrame(frame), key: key, ignoring: ignoredElements, checker: checker)
  }

  /// ``assertSnapshot(of:key:ignoring:checker:file:line:)`` for a frame the engine made.
  public func assertSnapshot(
    of frame: Frame, key: String, ignoring ignoredElements: [any IgnorableElement] = [],
    checker: SnapshotChecker = .automatic(), file: StaticString = #filePath, line: UInt = #line
  ) {
    assertSnapshot(
      of: CapturedFrame(frame), key: key, ignoring: ignoredElements, checker: checker, file: file, line: line)
  }

  extension Frame {
    /// A frame rendered from an element tree.
    public static func tree(_ tree: ElementTree) -> Frame {
      Frame(image: ElementRenderer().render(tree), tree: tree, path: "rendered element tree")
    }
  }

  extension SnapShooter {
    /// Whatever engine frame the closure makes (a decoded PNG, pixels drawn in memory).
    public static func frame(_ make: @escaping @Sendable () throws -> Frame) -> SnapShooter {
      SnapShooter(name: "frame") { CapturedFrame(try make()) }
    }
  }
#endif
