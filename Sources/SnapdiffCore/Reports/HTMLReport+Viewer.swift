extension HTMLReport {
  /// The viewer: one snapshot at a time over the whole window, fitted to it by default.
  ///
  /// Two panes (`.pane`) each hold a canvas with the three layers (baseline, current, diff),
  /// the divider and the boxes over the changed regions; the script fills them from the card
  /// opened and moves both canvases with one zoom and one pan, so 2-up stays in step. In the
  /// other modes the first pane alone shows the layers stacked. `.focus-actions` is empty: a
  /// review page puts its buttons there. The side panel shows the card's figures, layout
  /// changes and commands.
  static let viewer: String = {
    var html = "<section class=\"focus\" hidden tabindex=\"-1\" aria-label=\"Snapshot viewer\" data-mode=\"2up\">\n"
    html += "<div class=\"focus-bar\">"
    html += "<button type=\"button\" class=\"focus-close\" title=\"Back to the list (Esc)\">"
    html += "← List</button>"
    html += "<button type=\"button\" class=\"focus-prev\" title=\"Previous snapshot (k)\""
    html += " aria-label=\"Previous snapshot\">‹</button><span class=\"focus-pos\"></span>"
    html += "<button type=\"button\" class=\"focus-next\" title=\"Next snapshot (j)\""
    html += " aria-label=\"Next snapshot\">›</button>"
    html += "<h2 class=\"focus-title\"></h2><span class=\"badge focus-status\"></span>\n"
    html += "<div class=\"modes\" role=\"group\" aria-label=\"View mode\">"
    for (number, (mode, label)) in viewModes.enumerated() {
      html += "<button type=\"button\" data-mode=\"\(mode)\" title=\"\(label) (\(number + 1))\""
      html += " aria-pressed=\"false\">\(label)</button>"
    }
    html += "</div>\n"
    html += "<div class=\"zoom modes\" role=\"group\" aria-label=\"Zoom\">"
    html += "<button type=\"button\" data-zoom=\"fit\" title=\"Fit to the window (f)\">Fit</button>"
    html += "<button type=\"button\" data-zoom=\"out\" title=\"Zoom out (-)\" aria-label=\"Zoom out\">−"
    html += "</button><span class=\"zoom-level\" aria-live=\"polite\"></span>"
    html += "<button type=\"button\" data-zoom=\"in\" title=\"Zoom in (+)\" aria-label=\"Zoom in\">+"
    html += "</button><button type=\"button\" data-zoom=\"1\" title=\"Actual pixels (0)\">1:1</button>"
    html += "</div>\n"
    html += "<button type=\"button\" class=\"next-change\" title=\"Next changed region (n;"
    html += " previous: Shift+N)\">Next change</button><span class=\"change-pos\"></span>\n"
    html += "<div class=\"focus-actions\"></div>"
    html += "</div>\n"
    html += "<div class=\"focus-controls\">"
    html += "<label class=\"controls for-slider\">baseline <input class=\"slider\" type=\"range\""
    html += " min=\"0\" max=\"100\" value=\"50\" aria-label=\"Divider: baseline on the left, current"
    html += " on the right\"> current</label>"
    html += "<label class=\"controls for-blend\">baseline <input class=\"blend\" type=\"range\""
    html += " min=\"0\" max=\"100\" value=\"50\" aria-label=\"Opacity of the current frame\">"
    html += " current</label>"
    html += "<div class=\"controls for-toggle\"><button type=\"button\" class=\"flip\">Flip</button>"
    html += " showing <b class=\"flip-state\">current</b>; click the image or press t to flip.</div>"
    html += "<span class=\"hint\">Drag to pan, wheel to zoom · keys: j/k snapshot, 1–5 view, f fit, 0 1:1,"
    html += " +/− zoom, n/N change, t flip, [ ] divider, Esc list</span>"
    html += "</div>\n"
    html += "<div class=\"focus-body\"><div class=\"panes\">\n"
    for pane in ["a", "b"] {
      html += "<div class=\"pane pane-\(pane)\"><div class=\"canvas\">"
      for (kind, label) in [("base", "baseline"), ("top", "current"), ("diff", "diff")] {
        html += "<figure class=\"layer \(kind)\"><img alt=\"\(label)\" draggable=\"false\">"
        html += "</figure>"
      }
      html += "<div class=\"divider\"></div><div class=\"boxes\"></div></div>"
      html += "<span class=\"pane-label\"></span></div>\n"
    }
    html += "</div>\n<aside class=\"focus-side\" aria-label=\"About this snapshot\"></aside>"
    html += "</div>\n</section>\n"
    return html
  }()
}
