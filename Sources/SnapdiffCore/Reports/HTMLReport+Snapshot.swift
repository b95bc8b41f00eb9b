extension HTMLReport {
  /// One snapshot's card (`<article>`): heading, figures, error, a thumbnail that opens the
  /// viewer, the layout changes, the review commands and links to its images.
  ///
  /// The card is what the viewer reads: the image links (`.files a[data-image]`), the changed
  /// regions (`data-regions`, `x,y,width,height` in image pixels, separated by spaces), the
  /// change (`data-change`) and the layout changes (`.layout li`).
  ///
  /// - Parameters:
  ///   - snapshot: The snapshot.
  ///   - id: The element id, `s<index in the record>`, which also makes a link to it.
  ///   - run: The run, for its id in the commands and its record mode.
  ///   - embedding: The page's thumbnails, and whether it shows commands.
  static func card(
    _ snapshot: SnapshotRecord, id: String, run: RunRecord, embedding: Embedding = Embedding()
  ) -> String {
    let status = snapshot.status.rawValue
    var html = "<article class=\"snap st-\(status)\" id=\"\(id)\" data-status=\"\(status)\""
    html += " data-key=\"\(attribute(snapshot.key))\""
    if snapshot.status == .failed, let change = snapshot.changeHash {
      html += " data-change=\"\(attribute(change))\""
    }
    if let difference = snapshot.difference, snapshot.status == .failed || snapshot.status == .rejected {
      html += " data-difference=\"\(attribute(difference.group))\""
    }
    if !snapshot.regions.isEmpty {
      let regions = snapshot.regions.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }
      html += " data-regions=\"\(regions.joined(separator: " "))\""
    }
    html += " tabindex=\"-1\">\n"

    let (group, name) = ReportFormat.splitKey(snapshot.key)
    html += "<header class=\"snap-head\"><h3>"
    if let group { html += "<span class=\"group-name\">\(text(group))/</span>" }
    html += "\(text(name))</h3> <span class=\"badge\">\(status)</span>"
    if snapshot.error != nil { html += " <span class=\"badge st-error\">error</span>" }
    if snapshot.previouslyRejected {
      html += " <span class=\"badge outline st-rejected\">rejected before</span>"
    }
    if snapshot.recorded { html += " <span class=\"badge outline\">baseline recorded</span>" }
    if snapshot.knownNoise != nil { html += " <span class=\"badge outline st-noise\">known noise</span>" }
    if embedding.flakyKeys.contains(snapshot.key) {
      html += " <span class=\"badge outline st-flaky\" title=\"its verdict flipped between recent runs on the same"
      html += " baseline and commit (snapdiff status --flaky)\">flaky</span>"
    }
    if let elsewhere = snapshot.approvedIn, snapshot.status == .approved {
      var title = "by \(elsewhere.user) at \(elsewhere.time), was \(elsewhere.previousStatus.rawValue) here"
      if elsewhere.rechecked == true { title += "; this frame is not the one approved, and passes against it" }
      html += " <span class=\"badge outline approved-in\" data-approved-in=\"\(attribute(elsewhere.run))\""
      html += " title=\"\(attribute(title))\">approved in run \(text(elsewhere.run))"
      html += elsewhere.rechecked == true ? " (re-checked)</span>" : "</span>"
    }
    html += " <a class=\"anchor\" href=\"#\(id)\" aria-label=\"Link to this snapshot\">#</a>"
    html += "</header>\n"

    if let noise = snapshot.knownNoise {
      let what = snapshot.status == .approved ? "Approved as known noise: the baseline stays; " : "Passed as "
      html +=
        "<p class=\"figures noise\">\(text(what + noise.sentence)): \(ReportFormat.count(snapshot.differentPixels))"
      html += " px differ, the same difference on the same baseline.</p>\n"
    }
    for line in notes(snapshot, run: run) {
      html += "<p class=\"\(line.kind)\">\(text(line.text))</p>\n"
    }
    if let error = snapshot.error {
      html += "<p class=\"problem\">\(text(error))</p>\n"
    }
    html += thumbnail(snapshot, embedding: embedding)
    if let layout = snapshot.layout, !layout.isEmpty {
      html += "<ul class=\"layout\" aria-label=\"Layout changes\">"
      for change in layout {
        html += "<li data-change=\"\(attribute(change.change))\">\(text(change.description))</li>"
      }
      html += "</ul>\n"
    }
    html += commands(snapshot, run: run, embedding: embedding)
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
    if let difference = snapshot.difference, snapshot.status == .failed || snapshot.status == .rejected {
      lines.append(("difference", "Difference: " + difference.sentence))
    }
    if !snapshot.regions.isEmpty {
      let areas = snapshot.regions.map(ReportFormat.region).joined(separator: ", ")
      lines.append(("areas", "Areas: " + areas))
    }
    if let uncounted = ReportFormat.uncounted(snapshot) {
      lines.append(("note", "Not counted: " + uncounted))
    }
    if let notes = snapshot.regionNotes, !notes.isEmpty {
      lines.append(("note", "Regions: " + notes.joined(separator: "; ")))
    }
    if let environment = snapshot.baselineEnvironment {
      lines.append(("note", "Baseline from the environment " + environment))
    }
    if let variant = snapshot.variant {
      let words = snapshot.status == .approved ? "Approved as the variant " : "Matched the accepted variant "
      lines.append(("note", words + variant))
    }
    if let contrast = snapshot.contrast, !contrast.failures.isEmpty {
      let words = "Contrast under \(contrast.level.rawValue): " + contrast.failures.joined(separator: "; ")
      lines.append((contrast.failsSnapshot ? "problem" : "note", words))
    }
    return lines
  }

  /// The images the viewer shows for a snapshot, by kind: a new snapshot shows its frame (its
  /// baseline, if recorded, is the same image), a passed one its baseline alone (known noise: all
  /// three).
  static func images(_ snapshot: SnapshotRecord) -> [(kind: ImageKind, path: String)] {
    // The images the run compared (inside the run folder when it keeps them by hash).
    var baseline = snapshot.baselineImage
    var current = snapshot.currentImage
    var diff = snapshot.diffImage
    switch snapshot.status {
    case .new: baseline = nil
    // Known noise shows what it let through: all three.
    case .passed where snapshot.knownNoise == nil:
      if baseline != nil { current = nil }
      diff = nil
    default: break
    }
    return [(ImageKind.baseline, baseline), (.current, current), (.diff, diff)]
      .compactMap { kind, path in path.map { (kind, $0) } }
  }

  /// The card's picture: the current frame (else the baseline), small and loaded lazily, as a
  /// button that opens the viewer.
  private static func thumbnail(_ snapshot: SnapshotRecord, embedding: Embedding) -> String {
    let images = images(snapshot)
    guard let shown = images.first(where: { $0.kind == .current }) ?? images.first else {
      return ""
    }
    let source = embedding.thumbnail?(snapshot, shown.kind) ?? Markup.urlPath(shown.path)
    var html = "<button type=\"button\" class=\"thumb\" title=\"View (Enter)\">"
    html += "<figure class=\"layer\">"
    html += "<img src=\"\(attribute(source))\" alt=\"\(shown.kind.rawValue): \(attribute(snapshot.key))\""
    html += " loading=\"lazy\" decoding=\"async\"></figure></button>\n"
    return html
  }

  /// The commands that approve the snapshot (failed, new, missing and rejected ones without an
  /// error), with copy buttons, and links to the image files (which the viewer shows).
  private static func commands(
    _ snapshot: SnapshotRecord, run: RunRecord, embedding: Embedding
  ) -> String {
    var html = ""
    var lines: [String] = []
    if embedding.showsCommands, snapshot.error == nil, snapshot.status.isReviewable {
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
    let files = images(snapshot)
    if !files.isEmpty {
      html += "<p class=\"files\">Open: "
      for (kind, path) in files {
        html += "<a href=\"\(attribute(Markup.urlPath(path)))\" data-image=\"\(kind.rawValue)\">"
        html += "\(kind.rawValue)</a>"
      }
      html += "</p>\n"
    }
    return html
  }
}
