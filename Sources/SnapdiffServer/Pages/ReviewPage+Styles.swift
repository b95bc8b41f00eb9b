// The review pages' styles, inline in every page.
@available(macOS 14, iOS 17, tvOS 17, *)
extension ReviewPage {
  static let pageStyles = #"""
    :root { color-scheme: light dark; --bg: #f6f8fa; --card: #fff; --fg: #1f2328; --muted: #59636e;
      --line: #d1d9e0; --accent: #0969da; --failed: #cf222e; --passed: #1a7f37; --new: #0969da;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      font-size: 15px; line-height: 1.45; }
    @media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --card: #151b23; --fg: #e6edf3;
      --muted: #9198a1; --line: #3d444d; --accent: #4493f8; --failed: #ff7b72; --passed: #3fb950;
      --new: #58a6ff; } }
    body { margin: 0; background: var(--bg); color: var(--fg); }
    a { color: var(--accent); }
    code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
    .runs { padding: 16px 24px 40px; }
    .runs h1 { font-size: 1.4rem; margin: 4px 0 12px; }
    .muted { color: var(--muted); font-weight: 400; }
    .filter { padding: 6px 10px; min-width: 280px; margin-bottom: 12px; border: 1px solid var(--line);
      border-radius: 6px; background: var(--card); color: var(--fg); }
    table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); }
    th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { font-weight: 600; color: var(--muted); font-size: 0.9em; }
    tbody tr:hover { background: var(--bg); }
    .pages { margin-top: 12px; display: flex; gap: 12px; }
    .empty { color: var(--muted); }
    .badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 0.85em;
      font-weight: 600; color: #fff; background: var(--c, var(--muted)); }
    .badge.failed { --c: var(--failed); } .badge.passed { --c: var(--passed); }

    """#

  /// The bar's styles, on every page. Badges take their colour from `--c` (the report's
  /// status classes set it), so that the bar's open badge never overrides a status colour.
  static let barStyles = #"""
    .serve-bar { display: flex; align-items: center; gap: 16px; padding: 8px 24px;
      background: var(--card); border-bottom: 1px solid var(--line); flex-wrap: wrap; }
    .serve-title { flex: 1; color: var(--muted); }
    .serve-bar .token input { margin-left: 6px; padding: 3px 8px; width: 14em; border: 1px solid var(--line);
      border-radius: 6px; background: var(--bg); color: var(--fg); }
    .badge.open { --c: var(--new, #0969da); }

    """#

  /// The review controls' styles: buttons on cards, in the viewer and on change groups, an
  /// error beside the control that caused it, the confirmation of a review as a toast.
  static let reviewStyles = #"""
    .review-message { position: fixed; bottom: 16px; left: 16px; z-index: 30; max-width: 40em;
      margin: 0; padding: 8px 14px; border-radius: 8px; background: var(--card);
      border: 1px solid var(--line); box-shadow: 0 4px 16px rgb(0 0 0 / 0.2); }
    .review-actions { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
    .review-actions button, .group-actions button, .focus-actions button, .toolbar .review-actions button {
      font: inherit; font-size: 0.88em; padding: 3px 10px; border-radius: 6px; cursor: pointer;
      border: 1px solid var(--line); background: var(--card); color: var(--fg); }
    button.approve { background: var(--passed); border-color: var(--passed); color: var(--on-status); }
    button.reject { border-color: var(--rejected); color: var(--rejected); }
    .review-actions button:disabled, .group-actions button:disabled, .focus-actions button:disabled {
      opacity: 0.5; cursor: wait; }
    .action-error { color: var(--error); font-size: 0.88em; flex-basis: 100%; overflow-wrap: anywhere; }
    .shortcuts { color: var(--muted); font-size: 0.88em; }

    """#
}
