import Foundation
import SnapdiffCore
import Testing

/// A run folder's report works wherever it is copied (a CI artifact): every image it shows loads
/// in headless Chromium from `file://`, after an approval, from a plain copy of the folder, from
/// `report --out` and from `report --out --single-file`.
@Suite("portable reports")
struct PortableReportTests {
  static let chromium = ExternalTool.chromium

  /// Appended to a copy of the page beside it: loads every image the page shows or links (each
  /// `<img src>`, and the viewer's `<a data-image href>` links, which it loads when opened), then
  /// writes on `<body>` how many distinct images there are and which did not load.
  static let probe = """
    <script>
    (function () {
      var urls = [];
      document.querySelectorAll('img[src], a[data-image]').forEach(function (e) {
        var url = e.getAttribute('src') || e.getAttribute('href');
        if (url && urls.indexOf(url) < 0) urls.push(url);
      });
      var images = urls.map(function (url) { var i = new Image(); i.src = url; return i; });
      var tries = 0;
      (function wait() {
        if (images.every(function (i) { return i.complete; }) || tries++ > 100) {
          var failed = images.filter(function (i) { return !(i.naturalWidth > 0); })
            .map(function (i) { return (i.getAttribute('src') || '').slice(0, 60); });
          document.body.setAttribute('data-probe-images', String(images.length));
          document.body.setAttribute('data-probe-failed', failed.join(' | '));
          document.body.setAttribute('data-probe', 'done');
        } else { setTimeout(wait, 50); }
      })();
    })();
    </script>
    """

  /// Opens `page` (with the probe) in Chromium: (images, failed sources).
  static func load(_ page: String, scratch: String) throws -> (images: Int, failed: String) {
    let html = try String(contentsOfFile: page, encoding: .utf8)
    let probePage = (page as NSString).deletingLastPathComponent + "/probe.html"
    try (html.replacingOccurrences(of: "</body>", with: probe + "</body>")).write(
      toFile: probePage, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: probePage) }
    let dom = try HeadlessChromium.dumpDOM(
      URL(fileURLWithPath: probePage).absoluteString, profile: scratch + "/chromium-profile", budget: 5000, timeout: 60
    ).standardOutput
    guard let body = HeadlessChromium.bodyAttributes(dom) else {
      Issue.record("no <body> in Chromium's output: \(dom.prefix(300))")
      return (0, "")
    }
    func attribute(_ name: String) -> String? { body[name] }
    #expect(attribute("data-probe") == "done", "the probe did not finish: \(body)")
    return (Int(attribute("data-probe-images") ?? "") ?? 0, attribute("data-probe-failed") ?? "?")
  }

  @Test(
    "the report of an approved run, copied elsewhere or exported, shows every image in Chromium",
    .enabled(if: chromium != nil, "needs chromium (Debian: apt-get install chromium)"), .timeLimit(.minutes(3)))
  func copiedReportLoadsEveryImage() throws {
    try withWorkspace { workspace in
      let changed = "Home - test_search/Home"
      let kept = "Profile - test_profile/Profile"
      try workspace.writeFrame(changed, Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)]))
      try workspace.writeFrame(kept, Workspace.screen([PixelRect(x: 30, y: 10, width: 8, height: 20)]))
      try workspace.writeFrame("Gone/Removed", Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      try workspace.removeFrame("Gone/Removed")
      try workspace.writeFrame(changed, Workspace.screen([PixelRect(x: 5, y: 12, width: 10, height: 10)]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      #expect(try workspace.snapdiff(["approve", changed]).status == 0)
      let id = try workspace.lastRun()["id"] as! String

      // A plain copy of the run folder, far from the store and the blobs.
      let elsewhere = workspace.root + "/elsewhere/artifact"
      try FileManager.default.createDirectory(
        atPath: workspace.root + "/elsewhere", withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: workspace.root + "/.snapdiff/runs/" + id, toPath: elsewhere)
      let html = try String(contentsOfFile: elsewhere + "/index.html", encoding: .utf8)
      #expect(!html.contains("../"), "the report links outside its folder")
      let copied = try Self.load(elsewhere + "/index.html", scratch: workspace.root)
      // failed-then-approved: baseline, current, diff; missing: baseline; passed: baseline.
      #expect(copied.images == 5, "\(copied)")
      #expect(copied.failed == "")

      // report --out, then moved; and one self-contained file. Cards show thumbnails (3); the
      // approved and passed snapshots' links open thumbnails (the approved one's 3, the passed
      // one's card's own), the missing one's its full baseline: 6 distinct images.
      #expect(try workspace.snapdiff(["report", id, "--out", "export"]).status == 0)
      try FileManager.default.moveItem(atPath: workspace.root + "/export", toPath: workspace.root + "/elsewhere/export")
      let exported = try Self.load(workspace.root + "/elsewhere/export/index.html", scratch: workspace.root)
      #expect(exported.images == 6 && exported.failed == "", "\(exported)")
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/elsewhere/export/junit.xml"))
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/elsewhere/export/run.json"))
      // --all-images: the 5 images at full size behind the links, the 3 cards' thumbnails.
      #expect(try workspace.snapdiff(["report", id, "--out", "every", "--all-images"]).status == 0)
      let every = try Self.load(workspace.root + "/every/index.html", scratch: workspace.root)
      #expect(every.images == 8 && every.failed == "", "\(every)")

      let single = try workspace.snapdiff(["report", id, "--out", "single", "--single-file"])
      #expect(single.status == 0, "\(single.standardError)")
      #expect(try FileSystem.files(under: workspace.root + "/single") == ["index.html"])
      let inlined = try Self.load(workspace.root + "/single/index.html", scratch: workspace.root)
      #expect(inlined.images == 6 && inlined.failed == "", "\(inlined)")

      // The negative control: a copy without its images shows them broken.
      try FileManager.default.removeItem(atPath: elsewhere + "/images")
      let broken = try Self.load(elsewhere + "/index.html", scratch: workspace.root)
      #expect(broken.images == 5 && broken.failed.split(separator: "|").count == 5)
    }
  }
}

/// `report --out` as a CI artifact: small by default (thumbnails of every image, full images of
/// the snapshots that need review), every image with `--all-images`.
@Suite("report --out: a small artifact")
struct ReportExportSizeTests {
  @Test("thumbnails for every image, full size only for snapshots that need review; --all-images keeps all")
  func smallByDefault() throws {
    try withWorkspace { workspace in
      // Screens of 400×800: their thumbnails are 240×480.
      func screen(_ x: Int) -> RGBAImage {
        var image = RGBAImage(width: 400, height: 800, filledWith: RGBAColor(red: 250, green: 250, blue: 250))
        for y in 100..<160 {
          for column in x..<(x + 120) { image[x: column, y: y] = RGBAColor(red: 0, green: 122, blue: 255) }
        }
        return image
      }
      try workspace.writeFrame("Home", screen(20))
      try workspace.writeFrame("Profile", screen(60))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      try workspace.writeFrame("Home", screen(24))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let run = try workspace.lastRun()
      let snapshots = try #require(run["snapshots"] as? [[String: Any]])
      let home = try #require(snapshots.first { $0["key"] as? String == "Home" })
      let profile = try #require(snapshots.first { $0["key"] as? String == "Profile" })

      let output = try workspace.snapdiff(["report", "--out", "small"])
      #expect(output.status == 0, "\(output.standardError)")
      let small = workspace.root + "/small/"
      // Home failed: its baseline, frame and diff at full size; Profile passed: its baseline only
      // as a thumbnail.
      let full = Set(try FileSystem.files(under: small + "images"))
      let expected = Set(
        ["baselineHash", "currentHash", "diffHash"].compactMap { home[$0] as? String }.map { $0 + ".png" })
      #expect(full == expected && full.count == 3, "\(full)")
      let profileBaseline = try #require(profile["baselineHash"] as? String)
      #expect(!full.contains(profileBaseline + ".png"))
      let thumbnails = try FileSystem.files(under: small + "thumbnails")
      #expect(thumbnails.count == 4 && thumbnails.contains(profileBaseline + ".png"), "\(thumbnails)")
      let thumbnail = try PNGDecoder().decode(contentsOf: small + "thumbnails/" + profileBaseline + ".png")
      #expect(thumbnail.width == 240 && thumbnail.height == 480)
      let html = try String(contentsOfFile: small + "index.html", encoding: .utf8)
      #expect(html.contains("href=\"thumbnails/\(profileBaseline).png\""))
      #expect(!html.contains("images/\(profileBaseline).png"))

      #expect(try workspace.snapdiff(["report", "--out", "every", "--all-images"]).status == 0)
      #expect(try FileSystem.files(under: workspace.root + "/every/images").count == 4)
      let refused = try workspace.snapdiff(["report", "--all-images"])
      #expect(refused.status == 64 && refused.standardError.contains("--all-images goes with --out"))
    }
  }
}
