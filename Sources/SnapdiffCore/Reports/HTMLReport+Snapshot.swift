extension HTMLReport {
  /// One snapshot's `<article>`: heading, figures, error, images and review commands.
  ///
  /// - Parameters:
  ///   - snapshot: The snapshot.
  ///   - id: The element id, `s<index in the record>`, which also makes a link to it.
  ///   - run: The run, for its id in the commands and its record mode.
  static func card(_ snapshot: SnapshotRecord, id: String, run: RunRecord) -> String {
    let status = snapshot.status.rawValue
    var html = "<article class=\"snap st-\(status)\" id=\"\(id)\" data-status=\"\(status)\""
    html += " data-key=\"\(attribute(snapshot.key))\">\n"

    let (group, name) = ReportFormat.splitKey(snapshot.key)
    html += "<header class=\"snap-head\"><h3>"
    if let group { html += "<span class=\"group-name\">\(text(group))/</span>" }
    html += "\(text(name))</h3> <span class=\"badge\">\(status)</span>"
    if snapshot.error != nil { html += " <span class=\"badge st-error\">error</span>" }
    if snapshot.previouslyRejected {
      html += " <span class=\"badge outline st-rejected\">rejected before</span>"
    }
    if snapshot.recorded { html += " <span class=\"badge outline\">baseline recorded</span>" }
    html += " <a class=\"anchor\" href=\"#\(id)\" aria-label=\"Link to this snapshot\">#</a>"
    html += "</header>\n"

    for line in notes(snapshot, run: run) {
      html += "<p class=\"\(line.kind)\">\(text(line.text))</p>\n"
    }
    if let error = snapshot.error {
      html += "<p class=\"problem\">\(text(error))</p>\n"
    }
    html += viewer(snapshot)
    html += commands(snapshot, run: run)
    html += "</article>\n"
    return html
  }

  /// The lines under the heading: figures, areas and what was not counted, or what happened.
  private static func notes(_ snapshot: SnapshotRecord, run: RunRecord) -> [(
    kind: String, text: String
  )] {
    var lines: [(kind: String, text: String)] = []
    switch snapshot.status {
    case .new:
      let recorded =
        snapshot.recorded
        ? "its baseline was recorded from this run's frame"
        : run.recordMode == .never
          ? "it fails the run: record mode never records baselines" : "no baseline recorded yet"
      lines.append(("figures", "New snapshot: \(recorded)."))
    case .missing:
      lines.append(
        ("figures", "Missing: the baseline has no current frame in this run; approving deletes it.")
      )
    case .passed where snapshot.differentPixels == 0 && snapshot.totalPixels > 0:
      lines.append(("figures", "No pixel differs beyond the threshold."))
    default:
      if snapshot.totalPixels > 0 || snapshot.differentPixels > 0 {
        lines.append(("figures", ReportFormat.figures(snapshot)))
      }
    }
    if !snapshot.regions.isEmpty {
      let areas = snapshot.regions.map(ReportFormat.region).joined(separator: ", ")
      lines.append(("areas", "Areas: " + areas))
    }
    if let uncounted = ReportFormat.uncounted(snapshot) {
      lines.append(("note", "Not counted: " + uncounted))
    }
    if let environment = snapshot.baselineEnvironment {
      lines.append(("note", "Baseline from the environment " + environment))
    }
    return lines
  }

  /// The images and their view modes. With a baseline and a current frame: 2-up, slider, blend,
  /// toggle, and diff when there is a diff image. A new snapshot shows its frame (its baseline,
  /// if recorded, is the same image), a passed one its baseline alone, lazily; otherwise the
  /// images there are stand side by side.
  private static func viewer(_ snapshot: SnapshotRecord) -> String {
    var baseline = snapshot.baselineImage
    var current = snapshot.currentImage
    var diff = snapshot.diffImage
    switch snapshot.status {
    case .new: baseline = nil
    case .passed:
      if baseline != nil { current = nil }
      diff = nil
    default: break
    }
    let hasPair = baseline != nil && current != nil
    var modes: [(String, String)] = []
    if hasPair { modes = viewModes.filter { $0.0 != "diff" } }
    if hasPair && diff != nil { modes.append(("diff", "Diff")) }
    let layers = [
      ("base", "baseline", baseline), ("top", "current", current), ("diff", "diff", diff),
    ]
    let shown = layers.compactMap { kind, label, path in path.map { (kind, label, $0) } }
    if shown.isEmpty { return "" }
    let lazy = snapshot.status == .passed

    let mode = modes.isEmpty ? "single" : modes[0].0
    var html = "<div class=\"viewer\" data-mode=\"\(mode)\">\n"
    if modes.count > 1 {
      html += "<div class=\"modes\" role=\"group\" aria-label=\"View mode\">"
      for (value, label) in modes {
        html += "<button type=\"button\" data-mode=\"\(value)\""
        html += " aria-pressed=\"\(value == mode)\">\(label)</button>"
      }
      html += "</div>\n"
    }
    html += "<div class=\"stage\">\n"
    for (kind, label, path) in shown {
      let source = attribute(Markup.urlPath(path))
      html += "<figure class=\"layer \(kind)\" data-src=\"\(attribute(path))\">"
      html += "<img src=\"\(source)\" alt=\"\(label): \(attribute(snapshot.key))\""
      if let size = size(of: kind, snapshot) {
        html += " width=\"\(size.width)\" height=\"\(size.height)\""
      }
      html += lazy ? " loading=\"lazy\"" : ""
      html += " decoding=\"async\"><figcaption>\(label)</figcaption></figure>\n"
    }
    if hasPair {
      html += "<input class=\"slider\" type=\"range\" min=\"0\" max=\"100\" value=\"50\""
      html += " aria-label=\"Divider: baseline on the left, current on the right\">"
      html += "<div class=\"divider\"></div>\n"
    }
    html += "</div>\n"
    if hasPair {
      html += "<div class=\"controls for-slider\">Drag across the image:"
      html += " baseline on the left, current on the right.</div>\n"
      html += "<label class=\"controls for-blend\">baseline <input class=\"blend\" type=\"range\""
      html += " min=\"0\" max=\"100\" value=\"50\" aria-label=\"Opacity of the current frame\">"
      html += " current</label>\n"
      html += "<div class=\"controls for-toggle\"><button type=\"button\" class=\"flip\">Flip"
      html += "</button> showing <b class=\"flip-state\">current</b>; click the image to flip."
      html += "</div>\n"
    }
    html += "</div>\n"
    return html
  }

  /// The size to reserve for an image, when the record knows it (it does when sizes differ).
  private static func size(of kind: String, _ snapshot: SnapshotRecord) -> SnapshotRecord.Size? {
    switch kind {
    case "base": snapshot.baselineSize
    case "top": snapshot.currentSize
    default:
      snapshot.baselineSize.flatMap { baseline in
        snapshot.currentSize.map {
          SnapshotRecord.Size(
            width: max(baseline.width, $0.width), height: max(baseline.height, $0.height))
        }
      }
    }
  }

  /// The commands that approve the snapshot (failed, new, missing and rejected ones without an
  /// error), with copy buttons, and links to the image files.
  private static func commands(_ snapshot: SnapshotRecord, run: RunRecord) -> String {
    var html = ""
    var lines: [String] = []
    if snapshot.error == nil, ApproveCommand.reviewable.contains(snapshot.status) {
      lines.append(ApproveCommand.approve(snapshot.key, run: run.id))
      if snapshot.status == .failed {
        lines.append(ApproveCommand.approveSameAs(snapshot.key, run: run.id))
      }
    }
    if !lines.isEmpty {
      html += "<div class=\"commands\">\n"
      for line in lines {
        html += "<div class=\"command\"><code>\(text(line))</code>"
        html += "<button type=\"button\" class=\"copy\">Copy</button></div>\n"
      }
      html += "</div>\n"
    }
    let files = [
      ("baseline", snapshot.baselineImage), ("current", snapshot.currentImage), ("diff", snapshot.diffImage),
    ]
    .compactMap { label, path in path.map { (label, $0) } }
    if !files.isEmpty && snapshot.status != .passed {
      html += "<p class=\"files\">Open: "
      for (label, path) in files {
        html += "<a href=\"\(attribute(Markup.urlPath(path)))\" title=\"\(attribute(path))\">"
        html += "\(label)</a>"
      }
      html += "</p>\n"
    }
    return html
  }
}
