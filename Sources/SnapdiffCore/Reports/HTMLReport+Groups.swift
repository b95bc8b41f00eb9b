extension HTMLReport {
  /// The failed snapshots' groups in one sentence: `3 groups of changes in 160 failed
  /// snapshots: 150 of them in groups (the largest 120), 10 changes seen once.` A change only
  /// one snapshot has is not a group. The review page words its live count the same way
  /// (`groupsSentenceScript`).
  public static func groupsSentence(groupSizes: [Int], failed: Int) -> String {
    let grouped = groupSizes.reduce(0, +)
    var html = "<a href=\"#failed\"><b>"
    html +=
      groupSizes.isEmpty
      ? "no groups of changes" : ReportFormat.plural(groupSizes.count, "group of changes", "groups of changes")
    html += "</b></a> in " + ReportFormat.plural(failed, "failed snapshot", "failed snapshots")
    if !groupSizes.isEmpty {
      html += ": \(ReportFormat.count(grouped)) of them in groups"
      if groupSizes.count > 1 { html += " (the largest \(ReportFormat.count(groupSizes.max() ?? 0)))" }
      html += ", " + ReportFormat.plural(failed - grouped, "change seen once", "changes seen once")
    }
    return html + "."
  }

  /// `groupsSentence` in the page's script: `groupsSentence(sizes, failed)` returns the same
  /// markup from the cards as they are after a review.
  public static let groupsSentenceScript = #"""
    function groupsSentence(sizes, failed) {
      function count(n) { return n.toLocaleString("en-US"); }
      function plural(n, one, many) { return count(n) + " " + (n === 1 ? one : many); }
      var grouped = sizes.reduce(function (a, b) { return a + b; }, 0);
      var html = "<a href=\"#failed\"><b>"
        + (sizes.length ? plural(sizes.length, "group of changes", "groups of changes") : "no groups of changes")
        + "</b></a> in " + plural(failed, "failed snapshot", "failed snapshots");
      if (sizes.length) {
        html += ": " + count(grouped) + " of them in groups";
        if (sizes.length > 1) html += " (the largest " + count(Math.max.apply(null, sizes)) + ")";
        html += ", " + plural(failed - grouped, "change seen once", "changes seen once");
      }
      return html + ".";
    }
    """#

  /// A group of failed snapshots (``ReviewGroup``): its count and what they share in words, its
  /// members listed by key (the review page makes each one a checkbox, to leave it out of the
  /// group's approval), the command that approves them, and their cards. `.group-actions` is
  /// where a review page puts its buttons.
  static func reviewGroup(
    _ group: ReviewGroup, id: String, indices: [Int], run: RunRecord, embedding: Embedding
  ) -> String {
    let first = group.keys[0]
    var html = "<div class=\"change-group\" id=\"\(id)\" data-tier=\"\(group.tier.rawValue)\""
    if let hash = group.changeHash { html += " data-change=\"\(attribute(hash))\"" }
    html += " data-count=\"\(group.keys.count)\" data-key=\"\(attribute(first))\">\n"
    html +=
      "<header class=\"group-head\"><h3><span class=\"group-count\">\(ReportFormat.count(group.keys.count))</span>"
    html +=
      " snapshots, \(group.tier == .exact ? "one change" : "one kind of edit")</h3> <span class=\"muted group-edit\">"
    switch group.tier {
    case .exact:
      html += "the same pixels changed the same way (change <code>\(text(group.changeHash ?? ""))</code>)"
    case .similar:
      html += text(group.edit ?? "")
      html += "<span class=\"group-identical\">"
      html +=
        group.identicalMembers == 0
        ? ", each one's pixels its own"
        : ", \(group.identicalMembers) of them identical in "
          + ReportFormat.plural(group.identicalChanges, "change", "changes")
      html += "</span>"
    }
    html += "</span><div class=\"group-actions\"></div></header>\n"
    html += "<details class=\"group-members\"><summary>The \(group.keys.count) snapshots</summary><ul>\n"
    for key in group.keys {
      html += "<li data-key=\"\(attribute(key))\"><span class=\"member-key\">\(text(key))</span></li>\n"
    }
    html += "</ul></details>\n"
    if embedding.showsCommands {
      html += "<div class=\"commands\"><div class=\"command\"><code>"
      html += text(ApproveCommand.approveSameAs(first, run: run.id))
      html += "</code><button type=\"button\" class=\"copy\">Copy</button></div></div>\n"
    }
    html += "<div class=\"cards\">\n"
    for index in indices {
      html += card(run.snapshots[index], id: "s\(index)", run: run, embedding: embedding)
    }
    html += "</div>\n</div>\n"
    return html
  }
}
