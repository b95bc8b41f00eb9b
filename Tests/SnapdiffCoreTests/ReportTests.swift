import Foundation
import SnapdiffCore
import Testing

/// The run reports, checked the way their readers read them: `junit.xml` by Python's XML parser,
/// `reg.json` by a JSON decoder, `index.html` in headless Chromium (skipped when there is none).
@Suite("reports")
struct ReportTests {
  typealias F = ReportFixture

  // MARK: junit.xml

  /// What Python's `xml.etree.ElementTree` reads from a `junit.xml`.
  struct ParsedJUnit: Decodable {
    var root: String
    var rootAttributes: [String: String]
    var suites: [Suite]

    struct Suite: Decodable {
      var attributes: [String: String]
      var properties: [String: String]
      var cases: [Case]
    }

    struct Case: Decodable {
      var classname: String
      var name: String
      var children: [Child]
      var key: String { classname == "snapdiff" ? name : classname + "/" + name }
    }

    struct Child: Decodable {
      var tag: String
      var message: String?
      var type: String?
      var text: String?
    }

    static let script = """
      import json, sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      suites = []
      for suite in root.findall("testsuite"):
          cases = []
          for case in suite.findall("testcase"):
              children = [{"tag": c.tag, "message": c.get("message"), "type": c.get("type"),
                           "text": c.text} for c in case]
              cases.append({"classname": case.get("classname"), "name": case.get("name"),
                            "children": children})
          properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
          suites.append({"attributes": suite.attrib, "properties": properties, "cases": cases})
      print(json.dumps({"root": root.tag, "rootAttributes": root.attrib, "suites": suites}))
      """

    static func parse(_ path: String) throws -> ParsedJUnit {
      let run = try ExternalTool.run(["python3", "-c", script, path])
      guard run.status == 0 else {
        throw ReportTestError("python3 could not parse \(path): \(run.standardError)")
      }
      return try JSONDecoder().decode(ParsedJUnit.self, from: Data(run.standardOutput.utf8))
    }
  }

  static let hasPython = ExternalTool.path(["python3"]) != nil

  @Test(
    "junit.xml parses with a real XML parser, with a test case per snapshot",
    .enabled(if: hasPython))
  func junitStructure() throws {
    try withTemporaryDirectory { root in
      let fixture = try F.make(in: root, recordMode: .missing)
      let path = try fixture.write(JUnitReport.render(fixture.record), as: JUnitReport.fileName)
      let junit = try ParsedJUnit.parse(path)

      #expect(junit.root == "testsuites")
      #expect(junit.suites.count == 1)
      let suite = try #require(junit.suites.first)
      #expect(suite.attributes["name"] == "snapdiff")
      // failures: failed ×2 and rejected; errors: the broken frame; skipped: missing.
      let totals = ["tests": "9", "failures": "3", "errors": "1", "skipped": "1"]
      for (name, value) in totals {
        #expect(suite.attributes[name] == value, "testsuite \(name)")
        #expect(junit.rootAttributes[name] == value, "testsuites \(name)")
      }
      #expect(suite.attributes["timestamp"] == "2026-11-22T03:45:12.123Z")
      #expect(suite.properties["snapdiff.run"] == F.runID)
      #expect(suite.properties["snapdiff.recordMode"] == "missing")

      // Every key comes back whole, in order, as classname + "/" + name.
      #expect(suite.cases.map(\.key) == fixture.record.snapshots.map(\.key))
      let cases = Dictionary(uniqueKeysWithValues: suite.cases.map { ($0.key, $0) })
      func tags(_ key: String) -> [String] { cases[key]?.children.map(\.tag) ?? ["?"] }

      #expect(cases[F.failed]?.classname == "Home - test_search")
      #expect(cases[F.failed]?.name == "Home - search action")
      #expect(cases[F.passedFlat]?.classname == "snapdiff")

      let failure = try #require(cases[F.failed]?.children.first)
      #expect(failure.tag == "failure")
      #expect(failure.type == "failed")
      let message = try #require(failure.message)
      #expect(message.contains("143 of 1,200 pixels differ (11.917%) in 2 areas"))
      #expect(message.contains("diff: diff/\(F.failed).png"))
      #expect(message.contains("rejected before"))
      #expect(failure.text?.contains("snapdiff approve '\(F.failed)' --run \(F.runID)") == true)
      #expect(failure.text?.contains("snapdiff approve --same-as '\(F.failed)'") == true)

      let resized = try #require(cases[F.resized]?.children.first)
      #expect(resized.tag == "failure")
      let sizes = "sizes differ: baseline 1500×60, current 1800×90"
      #expect(resized.message?.contains(sizes) == true)
      // The shell quoting of the key's `'` survives the XML round trip.
      #expect(resized.text?.contains(#"'Cart & Checkout/Total <b>"price"</b> it'\''s'"#) == true)

      let rejected = try #require(cases[F.rejected]?.children.first)
      #expect(rejected.tag == "failure")
      #expect(rejected.type == "rejected")
      #expect(rejected.message?.hasPrefix("rejected: 143 of 1,200") == true)

      #expect(tags(F.new) == ["system-out"])
      #expect(cases[F.new]?.children.first?.text?.contains("baseline was recorded") == true)
      #expect(tags(F.missing) == ["skipped"])
      #expect(tags(F.approved) == ["system-out"])
      #expect(tags(F.passed) == [])
      #expect(tags(F.passedFlat) == [])

      let error = try #require(cases[F.broken]?.children.first)
      #expect(tags(F.broken) == ["error"])
      // The ANSI escape cannot be in XML: it became U+FFFD, the rest is intact.
      #expect(error.message == F.brokenError.replacingOccurrences(of: "\u{1B}", with: "\u{FFFD}"))
    }
  }

  @Test("a new snapshot fails the JUnit report only in record mode never", .enabled(if: hasPython))
  func junitNewInNeverMode() throws {
    try withTemporaryDirectory { root in
      let fixture = try F.make(in: root, recordMode: .never)
      let path = try fixture.write(JUnitReport.render(fixture.record), as: JUnitReport.fileName)
      let junit = try ParsedJUnit.parse(path)
      let suite = try #require(junit.suites.first)
      #expect(suite.attributes["failures"] == "4")
      let new = try #require(suite.cases.first { $0.key == F.new })
      #expect(new.children.map(\.tag) == ["failure"])
      #expect(new.children.first?.type == "new")
      #expect(new.children.first?.message?.contains("record mode is never") == true)
    }
  }

  @Test("junit.xml escapes markup and replaces characters XML forbids")
  func junitEscaping() {
    var record = RunRecord(
      id: "r&1", createdAt: "t", currentDirectory: "a", baselinesDirectory: "b", environment: nil,
      recordMode: .missing, complete: true, snapshots: [])
    var snapshot = SnapshotRecord(key: "x<y>/\"q\" & 'a'\u{0}\u{FFFF}", status: .failed)
    snapshot.error = "bad\u{7}\nline"
    record.snapshots = [snapshot]
    let xml = JUnitReport.render(record)
    #expect(xml.contains(#"classname="x&lt;y&gt;" name="&quot;q&quot; &amp; &#39;a&#39;��""#))
    #expect(xml.contains(#"message="bad�&#10;line""#))
    #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  // MARK: reg.json

  /// reg-cli's `reg.json`.
  struct RegJSON: Decodable, Equatable {
    var failedItems, newItems, deletedItems, passedItems: [String]
    var expectedItems, actualItems, diffItems: [String]
    var actualDir, expectedDir, diffDir: String
  }

  @Test("reg.json has reg-cli's shape and lists each snapshot where reg-cli would")
  func regJSON() throws {
    try withTemporaryDirectory { root in
      let fixture = try F.make(in: root)
      let text = RegJSONReport.render(fixture.record)
      let path = try fixture.write(text, as: RegJSONReport.fileName)
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      let report = try JSONDecoder().decode(RegJSON.self, from: data)
      func png(_ keys: String...) -> [String] { keys.map { $0 + ".png" } }

      #expect(report.failedItems == png(F.failed, F.resized, F.rejected, F.broken))
      #expect(report.newItems == png(F.new))
      #expect(report.deletedItems == png(F.missing))
      #expect(report.passedItems == png(F.approved, F.passed, F.passedFlat))
      #expect(
        report.expectedItems
          == fixture.record.snapshots.map(\.key).filter { $0 != F.new }.map { $0 + ".png" })
      #expect(
        report.actualItems
          == fixture.record.snapshots.map(\.key).filter { $0 != F.missing }.map { $0 + ".png" })
      #expect(report.diffItems == png(F.failed, F.resized, F.rejected))
      #expect(report.actualDir == "../../../frames")
      #expect(report.expectedDir == "../../../baselines")
      #expect(report.diffDir == "diff")

      // Every item resolves to a real file from the folders, as reg-cli's readers resolve them.
      for item in report.diffItems {
        let file = fixture.runFolder + "/" + report.diffDir + "/" + item
        #expect(FileManager.default.fileExists(atPath: file), "\(file)")
      }
      for item in report.expectedItems where item != F.broken + ".png" {
        let file = fixture.runFolder + "/" + report.expectedDir + "/" + item
        #expect(FileManager.default.fileExists(atPath: file), "\(file)")
      }

      // Members in reg-cli's order, and a rebased copy for a report written elsewhere.
      let order = [
        "failedItems", "newItems", "deletedItems", "passedItems", "expectedItems",
        "actualItems", "diffItems", "actualDir", "expectedDir", "diffDir",
      ]
      let positions = order.compactMap { text.range(of: "\"\($0)\"")?.lowerBound }
      #expect(positions.count == order.count && positions == positions.sorted())
      let rebased = RegJSONReport.render(fixture.record) { ".snapdiff/runs/\(F.runID)/" + $0 }
      let moved = try JSONDecoder().decode(RegJSON.self, from: Data(rebased.utf8))
      #expect(moved.diffDir == ".snapdiff/runs/\(F.runID)/diff")
      #expect(moved.failedItems == report.failedItems)
    }
  }

  // MARK: index.html, in Swift

  @Test("index.html escapes keys: no markup from a snapshot's name reaches the page")
  func htmlEscaping() throws {
    try withTemporaryDirectory { root in
      let html = HTMLReport.render(try F.make(in: root).record)
      #expect(html.components(separatedBy: "<script").count == 2, "only the page's own script")
      #expect(html.components(separatedBy: "</script>").count == 2)
      #expect(!html.contains("<b>\"price\""))
      #expect(html.contains("Dark &lt;script&gt;alert(1)&lt;/script&gt;"))
      #expect(html.contains(#"data-key="Cart &amp; Checkout/Total &lt;b&gt;&quot;price&quot;"#))
      // Image paths are percent-encoded URLs; `#`, `?`, `%`, spaces and é would break them.
      #expect(html.contains(#"href="diff/Home%20-%20test_search/Home%20-%20search%20action.png""#))
      #expect(html.contains(#"src="../../../baselines/Legacy/Old%20%23%20banner%3F.png""#))
      #expect(html.contains(#"src="current/Onboarding/Welcome%20%E2%80%93%20caf%C3%A9.png""#))
      #expect(html.contains("Home%20-%20approved%20100%25.png"))
      // The commands to approve, quoted for a shell, then escaped for HTML.
      #expect(html.contains("<code>snapdiff approve '\(F.failed)' --run \(F.runID)</code>"))
      #expect(
        html.contains("<code>snapdiff approve --same-as '\(F.failed)' --run \(F.runID)</code>"))
      #expect(
        html.contains(
          #"<code>snapdiff approve 'Cart &amp; Checkout/Total &lt;b&gt;"price"&lt;/b&gt; it'\''s'"#)
      )
      #expect(!html.contains("approve --same-as '\(F.new)"))
      #expect(
        html.contains("<code>snapdiff approve 'Legacy/Old # banner?' --run \(F.runID)</code>"))
      #expect(!html.contains("approve '\(F.passed)'") && !html.contains("approve '\(F.approved)'"))
      #expect(!html.contains("approve '\(F.broken)'"), "an error is fixed, not approved")
      #expect(!html.contains("http://") && !html.contains("https://"), "no network")
    }
  }

  @Test("index.html groups snapshots by status, collapses passed ones and lazy-loads every image")
  func htmlLayout() throws {
    try withTemporaryDirectory { root in
      let record = try F.make(in: root).record
      let html = HTMLReport.render(record)
      let sections = ["failed", "new", "missing", "rejected", "approved", "passed"]
        .compactMap { html.range(of: "<section class=\"group st-\($0)\"")?.lowerBound }
      #expect(sections.count == 6 && sections == sections.sorted())
      let passed = String(html[try #require(sections.last)...])
      #expect(passed.contains("<details>\n<summary>"))
      #expect(!passed.contains("<details open"))
      #expect(passed.components(separatedBy: "loading=\"lazy\"").count == 3)
      let mainStart = try #require(html.range(of: "<main>")).lowerBound
      let mainEnd = try #require(html.range(of: "</main>")).upperBound
      let main = String(html[mainStart..<mainEnd])
      #expect(
        main.components(separatedBy: "<img ").count
          == main.components(separatedBy: "loading=\"lazy\"").count,
        "every card's image loads lazily (the viewer's load when it opens)")
      #expect(html.contains("<section class=\"focus\" hidden"), "one viewer for every snapshot")
      #expect(
        html.contains(
          "<title>snapdiff run \(F.runID): 3 failed, 1 new, 1 missing, 1 rejected,"
            + " 1 approved</title>"
        ))
      // Layout changes (frames with element trees) are listed in the card, for the viewer's
      // side panel; only where there are some.
      #expect(!html.contains("<ul class=\"layout\""))
      var withLayout = record
      let failed = try #require(withLayout.snapshots.firstIndex { $0.status == .failed })
      withLayout.snapshots[failed].layout = [
        try JSONDecoder().decode(
          LayoutChange.self,
          from: Data(
            (#"{"identifier": "loginButton", "elementType": "button", "change": "moved", "dx": 0, "dy": 8,"#
              + #" "dWidth": 0, "dHeight": 0, "description": "button 'loginButton' moved 8 pt <down>"}"#).utf8))
      ]
      let laidOut = HTMLReport.render(withLayout)
      #expect(
        laidOut.contains(
          "<ul class=\"layout\" aria-label=\"Layout changes\"><li data-change=\"moved\">button"
            + " 'loginButton' moved 8 pt &lt;down&gt;</li></ul>"))
      // The same record gives the same bytes, also after a round trip through run.json.
      let decoded = try RunRecord.decode(record.encoded(), path: "run.json")
      #expect(HTMLReport.render(decoded) == html)
      #expect(JUnitReport.render(decoded) == JUnitReport.render(record))
    }
  }

  @Test("approve commands survive a real shell", arguments: [F.failed, F.resized, "it's", "a'b'c"])
  func shellQuoting(_ key: String) throws {
    let command = ApproveCommand.approve(key, run: F.runID)
    let quoted = ApproveCommand.shellQuoted(key)
    #expect(command == "snapdiff approve \(quoted) --run \(F.runID)")
    let run = try ExternalTool.run(["sh", "-c", "printf '%s' \(quoted)"])
    #expect(run.standardOutput == key)
    #expect(ApproveCommand.shellQuoted("run 1", onlyIfNeeded: true) == "'run 1'")
  }

  // MARK: index.html, in a browser

  static let chromium = ExternalTool.chromium

  @Test(
    "index.html in headless Chromium: images load, every view mode switches, filters hide",
    .enabled(if: chromium != nil, "needs chromium (Debian: apt-get install chromium)"),
    .timeLimit(.minutes(1)))
  func htmlInChromium() throws {
    try withTemporaryDirectory { root in
      let fixture = try F.make(in: root)
      let html = HTMLReport.render(fixture.record)
      let path = try fixture.write(html, as: HTMLReport.fileName)
      // To look at the reports: SNAPDIFF_REPORT_SAMPLE=/tmp/sample swift test --filter ReportTests
      if let sample = ProcessInfo.processInfo.environment["SNAPDIFF_REPORT_SAMPLE"] {
        try fixture.write(JUnitReport.render(fixture.record), as: JUnitReport.fileName)
        try fixture.write(RegJSONReport.render(fixture.record), as: RegJSONReport.fileName)
        try? FileManager.default.removeItem(atPath: sample)
        try FileManager.default.copyItem(atPath: root, toPath: sample)
      }
      // A negative control: one image removed, which the page must report as broken.
      try FileManager.default.removeItem(atPath: fixture.runFolder + "/diff/\(F.rejected).png")

      let query = "HOME - test_SEARCH"
      let url =
        URL(fileURLWithPath: path).absoluteString + "#selftest="
        + query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      let run = try HeadlessChromium.dumpDOM(url, profile: root + "/chromium-profile", budget: 3000, timeout: 30)
      #expect(run.status == 0, "chromium: \(run.standardError.suffix(2000))")
      let body = try #require(
        HeadlessChromium.bodyAttributes(run.standardOutput), "no <body> in: \(run.standardOutput.prefix(500))")

      #expect(body["data-selftest"] == "done")
      let snapshots = fixture.record.snapshots
      let id = { (key: String) in "s\(snapshots.firstIndex { $0.key == key }!)" }

      // Images: every image outside the passed group, all loaded but the one removed.
      let passedStart = try #require(html.range(of: "<section class=\"group st-passed\""))
      let expectedImages =
        html[..<passedStart.lowerBound].components(separatedBy: "data-image=").count - 1
      #expect(body["data-images-total"] == String(expectedImages))
      #expect(body["data-images-loaded"] == String(expectedImages - 1))
      #expect(body["data-images-broken"] == id(F.rejected))

      // View modes: failed ×2, rejected and approved have 5 modes each; each switch is visible.
      #expect(body["data-modes-switched"] == "20")
      #expect(body["data-modes-changed"] == "20")
      #expect(body["data-modes-failures"] == "")
      #expect(body["data-controls-checked"] == "16")
      #expect(body["data-controls-failures"] == "")
      // Every shown image has a size, at one scale (the resized one too), fitted inside its
      // pane: 7 snapshots as opened, plus the 20 switches; the diff view without its image
      // shows nothing.
      #expect(body["data-layouts-checked"] == "27")
      #expect(body["data-layout-failures"] == "\(id(F.rejected)):diff:empty")
      // A box over every changed region, where the record says it is.
      let withRegions = snapshots.filter {
        $0.status != .passed && !$0.regions.isEmpty && ($0.baseline != nil || $0.current != nil)
      }
      #expect(body["data-boxes-checked"] == String(withRegions.count))
      #expect(body["data-box-failures"] == "")

      // Filters: each status alone shows exactly its snapshots; the name filter is a
      // case-insensitive substring of the key.
      #expect(body["data-status-filter"] == "ok")
      let matching = snapshots.indices.filter {
        snapshots[$0].key.lowercased().contains(query.lowercased())
      }
      let grouped = matching.sorted {
        (snapshots[$0].status, $0) < (snapshots[$1].status, $1)
      }
      #expect(body["data-name-filter-shown"] == grouped.map { "s\($0)" }.joined(separator: " "))
      #expect(matching.count == 3)
      #expect(body["data-shown-after-reset"] == String(snapshots.count))
    }
  }
}

struct ReportTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
