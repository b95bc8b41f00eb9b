/// `index.html`: one self-contained page to review a run, written into the run folder; also the
/// base of `snapdiff serve`'s review page (``Embedding``).
///
/// - A header with the run id, its time, its environment and record mode, and how many
///   snapshots have each status (and how many hit an error).
/// - A toolbar: a checkbox per status present, a text filter on the key, the view mode the
///   viewer opens in.
/// - "N groups of changes": the failed snapshots' groups (`RunRecord.reviewGroups`: the same
///   change, or the same kind of edit), and the changes seen once.
/// - The snapshots grouped by status in `SnapshotStatus` order (failed, new, missing, rejected,
///   approved, passed), each in the record's order, as cards in a grid, a page of them at a
///   time. Failed snapshots in a group (`RunRecord.reviewGroups`) come first, as one block per
///   group with its count, its edit in words, its members listed and the `approve --same-as`
///   command. Passed snapshots are collapsed in a `<details>`. Every thumbnail loads lazily.
/// - Per snapshot: the key, the status, the figures (different pixels, ratio, areas), its error
///   if any, a thumbnail, and (in the viewer) the layout changes and the commands that approve
///   it.
/// - The viewer, over the whole window: one snapshot fitted to it, in 2-up (side by side, zoom
///   and pan in step), slider (the current frame over the baseline, cut at a divider), blend
///   (the current frame's opacity), toggle (a click flips between the two) and diff (the diff
///   image), with boxes over the changed regions and "next change".
///
/// Images are linked by the record's paths, relative to the run folder where the page lives,
/// each segment percent-encoded; every text is escaped. CSS and script are inline, with no
/// network access and no web fonts, and the same record always gives the same bytes. The script
/// is described in `HTMLReport.script` (it can check itself in a headless browser).
///
/// ```swift
/// try FileIO.writeAtomically(Array(HTMLReport.render(run).utf8), to: folder + "/index.html")
/// ```
public enum HTMLReport {
  /// The file's name in the run folder.
  public static let fileName = "index.html"

  /// The view modes, in the order their buttons appear: the `data-mode` value and the label.
  static let viewModes = [
    ("2up", "2-up"), ("slider", "Slider"), ("blend", "Blend"), ("toggle", "Toggle"),
    ("diff", "Diff"),
  ]

  /// The whole page, ending with a line feed.
  ///
  /// - Parameters:
  ///   - run: The run.
  ///   - embedding: What a page built on the report adds (see ``Embedding``); none for the
  ///     run folder's `index.html`.
  public static func render(_ run: RunRecord, embedding: Embedding = Embedding()) -> String {
    let counts = run.counts
    let statuses = SnapshotStatus.allCases.sorted()
    let present = statuses.filter { counts[$0, default: 0] > 0 }
    let errors = run.snapshots.count { $0.error != nil }

    var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    html += "<meta name=\"generator\" content=\"snapdiff\">\n"
    let summary = present.filter { $0 != .passed }
      .map { "\(counts[$0, default: 0]) \($0.rawValue)" }
    let title =
      "snapdiff run \(run.id)" + (summary.isEmpty ? "" : ": ")
      + summary.joined(separator: ", ")
    html += "<title>\(text(title))</title>\n<style>\n\(styles)</style>\n\(embedding.head)</head>\n"
    html += "<body"
    for (name, value) in embedding.bodyAttributes.sorted(by: { $0.key < $1.key }) {
      html += " \(name)=\"\(attribute(value))\""
    }
    html += ">\n" + embedding.top

    html += header(run, counts: counts, statuses: statuses, errors: errors)
    html += toolbar(run, counts: counts, present: present)

    html += "<main>\n"
    if run.snapshots.isEmpty { html += "<p class=\"empty\">No snapshots in this run.</p>\n" }
    html += changesSummary(run, embedding: embedding)
    for status in present {
      html += group(status, of: run, embedding: embedding)
    }
    html += "</main>\n"
    html += viewer
    html += "<footer>"
    html +=
      embedding.footer
      ?? ("Written by snapdiff. Image paths are relative to this page's folder, the"
        + " run folder; review with <code>snapdiff approve</code> and"
        + " <code>snapdiff reject</code>.")
    html += "</footer>\n"
    html += "<script>\n\(script)</script>\n"
    if !embedding.script.isEmpty { html += "<script>\n\(embedding.script)</script>\n" }
    html += "</body>\n</html>\n"
    return html
  }

  /// The failed snapshots' groups, counted (``groupsSentence(groupSizes:failed:)``), then by
  /// kind of difference.
  private static func changesSummary(_ run: RunRecord, embedding: Embedding) -> String {
    let failed = run.snapshots.filter { $0.status == .failed }
    guard !failed.isEmpty else { return "" }
    var html = "<p class=\"changes-summary\">"
    html += groupsSentence(groupSizes: run.reviewGroups.map(\.keys.count), failed: failed.count)
    html += "</p>\n"
    // By kind of difference: the rendering-only failures of an OS or Xcode update as one count,
    // with the command that approves them, and the real changes apart.
    let differences = run.differenceGroups
    if !differences.isEmpty {
      html += "<ul class=\"difference-groups\" aria-label=\"Failed snapshots by kind of difference\">\n"
      for group in differences {
        html += "<li data-difference=\"\(attribute(group.group))\" data-count=\"\(group.keys.count)\">"
        html += text(group.sentence)
        if embedding.showsCommands {
          html += " <code class=\"command\">\(text(ApproveCommand.approveDifference(group.group, run: run.id)))</code>"
        }
        html += " <span class=\"group-actions\"></span></li>\n"
      }
      html += "</ul>\n"
    }
    return html
  }

  private static func header(
    _ run: RunRecord, counts: [SnapshotStatus: Int], statuses: [SnapshotStatus], errors: Int
  ) -> String {
    var html = "<header class=\"page-head\">\n"
    html += "<h1>snapdiff <span class=\"run\">run <code>\(text(run.id))</code></span></h1>\n"
    var meta = ["<time datetime=\"\(attribute(run.createdAt))\">\(text(run.createdAt))</time>"]
    if let environment = run.environment {
      meta.append("environment <code>\(text(environment))</code>")
    }
    meta.append("record mode <code>\(run.recordMode.rawValue)</code>")
    meta.append(ReportFormat.plural(run.snapshots.count, "snapshot", "snapshots"))
    if run.currentDirectory == RunSession.incomingDirectory {
      meta.append(
        run.closedAt == nil
          ? "open: taking frames from a remote runner"
          : run.complete
            ? "a service run closed complete: baselines it did not receive are missing"
            : "a service run: the frames posted to it (none is missing)")
    } else if !run.complete {
      meta.append("a partial run: not every frame was checked")
    }
    html += "<p class=\"meta\">" + meta.joined(separator: " · ") + "</p>\n"
    html += "<ul class=\"counts\">\n"
    for status in statuses {
      let count = counts[status, default: 0]
      html += "<li class=\"st-\(status.rawValue)\(count == 0 ? " zero" : "")\">"
      html += "<span class=\"dot\"></span><b>\(ReportFormat.count(count))</b> \(status.rawValue)"
      html += "</li>\n"
    }
    if errors > 0 {
      html += "<li class=\"st-error\"><span class=\"dot\"></span>"
      html += "<b>\(ReportFormat.count(errors))</b> \(errors == 1 ? "error" : "errors")</li>\n"
    }
    html += "</ul>\n</header>\n"
    return html
  }

  private static func toolbar(
    _ run: RunRecord, counts: [SnapshotStatus: Int], present: [SnapshotStatus]
  ) -> String {
    var html = "<div class=\"toolbar\">\n"
    if !present.isEmpty {
      html += "<fieldset class=\"status-filter\"><legend>Show</legend>\n"
      for status in present {
        html += "<label class=\"st-\(status.rawValue)\"><input type=\"checkbox\""
        html += " value=\"\(status.rawValue)\" checked> \(status.rawValue)"
        html += " <span class=\"count\">\(ReportFormat.count(counts[status, default: 0]))</span>"
        html += "</label>\n"
      }
      html += "</fieldset>\n"
    }
    html += "<input class=\"name-filter\" type=\"search\" placeholder=\"Filter by name\""
    html += " aria-label=\"Filter snapshots by name\">\n"
    html += "<div class=\"mode-all\">View all as <div class=\"modes\" role=\"group\""
    html += " aria-label=\"View every snapshot as\">"
    for (mode, label) in viewModes {
      html += "<button type=\"button\" data-mode=\"\(mode)\">\(label)</button>"
    }
    html += "</div></div>\n"
    let total = run.snapshots.count
    html += "<span class=\"shown\" aria-live=\"polite\">\(total) of \(total) shown</span>\n"
    html += "</div>\n"
    return html
  }

  /// A status's section. Failed snapshots come by group: each group of two or more
  /// (`RunRecord.reviewGroups`) as one block with its count, then the changes seen once.
  private static func group(_ status: SnapshotStatus, of run: RunRecord, embedding: Embedding)
    -> String
  {
    let members = run.snapshots.indices.filter { run.snapshots[$0].status == status }
    let heading =
      "<span class=\"badge\">\(status.rawValue)</span>"
      + " <span class=\"count\">\(ReportFormat.count(members.count))</span>"
    var html = "<section class=\"group st-\(status.rawValue)\" data-status=\"\(status.rawValue)\""
    html += " id=\"\(status.rawValue)\">\n"
    if status == .passed {
      html += "<details>\n<summary><h2>\(heading)</h2></summary>\n"
    } else {
      html += "<h2>\(heading)</h2>\n"
    }
    var rest = members
    if status == .failed {
      let index = Dictionary(
        run.snapshots.indices.map { (run.snapshots[$0].key, $0) }, uniquingKeysWith: { a, _ in a })
      for (number, change) in run.reviewGroups.enumerated() {
        let indices = change.keys.compactMap { index[$0] }
        html += reviewGroup(change, id: "g\(number + 1)", indices: indices, run: run, embedding: embedding)
        rest.removeAll { indices.contains($0) }
      }
      // Always there on a review page (hidden when empty): a group whose members were approved
      // but one leaves that one here.
      if rest.count < members.count {
        html += "<h3 class=\"once\"\(rest.isEmpty ? " hidden" : "")>"
        html += ReportFormat.plural(rest.count, "change seen once", "changes seen once")
        html += "</h3>\n"
      }
    }
    html += "<div class=\"cards\">\n"
    for index in rest {
      html += card(run.snapshots[index], id: "s\(index)", run: run, embedding: embedding)
    }
    html += "</div>\n"
    if status == .passed { html += "</details>\n" }
    html += "</section>\n"
    return html
  }

  /// `text` escaped for element content.
  static func text(_ text: String) -> String { Markup.escape(text) }

  /// `text` escaped for a quoted attribute value.
  static func attribute(_ text: String) -> String { Markup.escape(text, attribute: true) }
}
