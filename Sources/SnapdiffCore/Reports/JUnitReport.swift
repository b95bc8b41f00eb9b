/// `junit.xml`: the run as one JUnit test suite, for CI systems that show test results (GitLab,
/// Jenkins, GitHub actions that read JUnit, Buildkite...).
///
/// - One `<testsuite name="snapdiff">` inside `<testsuites>`, with `tests`, `failures`, `errors`
///   and `skipped` counted from the test cases below, and the run's time as `timestamp`.
/// - One `<testcase>` per snapshot, in the record's order. `classname` is the key's first
///   `/`-component (the `<id> - <test name>` folder) and `name` the rest of the key, so that
///   `classname + "/" + name` is the key again; a key without `/` gets the classname `snapdiff`
///   and is its own name.
/// - A snapshot with an `error` is an `<error>` whatever its status. Otherwise `failed` and
///   `rejected` are a `<failure>` whose message gives the figures and the diff image's path;
///   `new` is a `<failure>` only when the run's record mode is `never` (nothing was recorded),
///   else it passes with a `<system-out>` saying what happened to its baseline; `missing` is
///   `<skipped>`; `approved` passes with a `<system-out>`; `passed` passes.
///
/// The text is XML 1.0 in UTF-8: every name and message is escaped, and characters XML forbids
/// become U+FFFD. The same record always gives the same bytes.
///
/// ```swift
/// try FileIO.writeAtomically(Array(JUnitReport.render(run).utf8), to: folder + "/junit.xml")
/// ```
public enum JUnitReport {
  /// The file's name in the run folder.
  public static let fileName = "junit.xml"

  /// The whole `junit.xml` text, ending with a line feed.
  public static func render(_ run: RunRecord) -> String {
    let cases = run.snapshots.map { testCase($0, in: run) }
    let failures = cases.count { $0.outcome == .failure }
    let errors = cases.count { $0.outcome == .error }
    let skipped = cases.count { $0.outcome == .skipped }
    let totals =
      "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
      + " skipped=\"\(skipped)\""

    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites name=\"snapdiff\" \(totals)>\n"
    xml += "  <testsuite name=\"snapdiff\" \(totals)"
    xml += " timestamp=\"\(attribute(run.createdAt))\">\n"
    xml += "    <properties>\n"
    var properties = [
      ("snapdiff.run", run.id), ("snapdiff.recordMode", run.recordMode.rawValue),
      ("snapdiff.complete", run.complete ? "true" : "false"),
      ("snapdiff.currentDirectory", run.currentDirectory),
      ("snapdiff.baselinesDirectory", run.baselinesDirectory),
    ]
    if let environment = run.environment {
      properties.append(("snapdiff.environment", environment))
    }
    for (name, value) in properties {
      xml += "      <property name=\"\(attribute(name))\" value=\"\(attribute(value))\"/>\n"
    }
    xml += "    </properties>\n"
    for testCase in cases { xml += testCase.xml }
    xml += "  </testsuite>\n"
    xml += "</testsuites>\n"
    return xml
  }

  /// What a test case counts as in the totals.
  enum Outcome { case pass, failure, error, skipped }

  /// One `<testcase>` element, indented for its place in the document.
  static func testCase(_ snapshot: SnapshotRecord, in run: RunRecord) -> (
    outcome: Outcome, xml: String
  ) {
    let (group, name) = ReportFormat.splitKey(snapshot.key)
    let open =
      "    <testcase classname=\"\(attribute(group ?? "snapdiff"))\" name=\"\(attribute(name))\""
    func element(_ tag: String, type: String?, message: String, body: String?) -> String {
      var text = "      <\(tag)"
      if let type { text += " type=\"\(attribute(type))\"" }
      text += " message=\"\(attribute(message))\""
      guard let body else { return text + "/>\n" }
      return text + ">\(Markup.escape(body))</\(tag)>\n"
    }
    func wrap(_ children: String) -> String { open + ">\n" + children + "    </testcase>\n" }

    if let error = snapshot.error {
      let child = element("error", type: "error", message: error, body: details(snapshot, run))
      return (.error, wrap(child))
    }
    switch snapshot.status {
    case .failed, .rejected:
      var message = ReportFormat.figures(snapshot)
      if let difference = snapshot.difference { message += ": " + difference.sentence }
      if snapshot.status == .rejected {
        message = "rejected: " + message
      } else if snapshot.previouslyRejected {
        message += " (this change was rejected before)"
      }
      if let diff = snapshot.diff { message += "; diff: " + diff }
      let child = element(
        "failure", type: snapshot.status.rawValue, message: message, body: details(snapshot, run))
      return (.failure, wrap(child))
    case .new where run.recordMode == .never:
      let message =
        "no baseline: a new snapshot, not recorded because the record mode is never"
      let child = element("failure", type: "new", message: message, body: details(snapshot, run))
      return (.failure, wrap(child))
    case .new:
      let note =
        snapshot.recorded
        ? "new snapshot: its baseline was recorded (record mode \(run.recordMode.rawValue))"
        : "new snapshot: no baseline yet (record mode \(run.recordMode.rawValue))"
      return (.pass, wrap(systemOut(note + "\n" + details(snapshot, run))))
    case .missing:
      let message = "no current frame: the baseline has no snapshot in this run"
      return (.skipped, wrap(element("skipped", type: nil, message: message, body: nil)))
    case .skipped:
      let message = "skipped by the test: " + (snapshot.skipReason ?? "no reason given")
      return (.skipped, wrap(element("skipped", type: nil, message: message, body: nil)))
    case .approved:
      let variant = snapshot.variant.map { " as variant '\($0)'" } ?? ""
      return (.pass, wrap(systemOut("approved\(variant): " + ReportFormat.figures(snapshot))))
    case .passed:
      // A pass by an accepted variant names it (`approve KEY --variant NAME`).
      if let variant = snapshot.variant {
        return (.pass, wrap(systemOut("passed: matched the accepted variant '\(variant)'")))
      }
      return (.pass, open + "/>\n")
    }
  }

  private static func systemOut(_ text: String) -> String {
    "      <system-out>\(Markup.escape(text))</system-out>\n"
  }

  /// The body of a failure or error: paths, areas and the command to approve, one per line.
  static func details(_ snapshot: SnapshotRecord, _ run: RunRecord) -> String {
    var lines = ["snapshot: \(snapshot.key)", "status: \(snapshot.status.rawValue)"]
    if snapshot.error == nil && (snapshot.status == .failed || snapshot.status == .rejected) {
      lines.append("figures: " + ReportFormat.figures(snapshot))
      if let uncounted = ReportFormat.uncounted(snapshot) {
        lines.append("not counted: " + uncounted)
      }
      if !snapshot.regions.isEmpty {
        lines.append("areas: " + snapshot.regions.map(ReportFormat.region).joined(separator: ", "))
      }
    }
    // The baseline as the run compared it (in the run folder); the store's file may have
    // changed since.
    if let baseline = snapshot.baselineImage { lines.append("baseline: " + baseline) }
    if snapshot.baselineHash != nil, let file = snapshot.baseline { lines.append("baseline in the store: " + file) }
    if let current = snapshot.current { lines.append("current: " + current) }
    if let diff = snapshot.diff { lines.append("diff: " + diff) }
    if let environment = snapshot.baselineEnvironment {
      lines.append("baseline environment: " + environment)
    }
    if snapshot.previouslyRejected { lines.append("this change was rejected before") }
    if snapshot.error == nil, snapshot.status.isReviewable {
      lines.append("approve: " + ApproveCommand.approve(snapshot.key, run: run.id))
      if snapshot.status == .failed {
        lines.append(
          "approve the same change everywhere: "
            + ApproveCommand.approveSameAs(snapshot.key, run: run.id))
      }
    }
    return lines.joined(separator: "\n")
  }

  private static func attribute(_ text: String) -> String { Markup.escape(text, attribute: true) }
}
