extension HTMLReport {
  /// What a page built on the report adds to it, so that it need not patch the report's markup:
  /// `snapdiff serve`'s review page passes one to ``HTMLReport/render(_:embedding:)`` with its
  /// bar, its styles, its review script and its thumbnail URLs.
  ///
  /// The report's script publishes `window.snapdiffReport` (see ``HTMLReport/script``) for the
  /// added script: the cards, the current one, the viewer, and the places (`.review-actions`,
  /// `.focus-actions`, `.group-actions`) where review controls go.
  ///
  /// ```swift
  /// var embedding = HTMLReport.Embedding()
  /// embedding.top = "<nav>…</nav>\n"
  /// embedding.script = "window.snapdiffReport.onChange(function (card) { … });"
  /// let html = HTMLReport.render(record, embedding: embedding)
  /// ```
  public struct Embedding: Sendable {
    /// Attributes added to `<body>`, written in name order (values are escaped).
    public var bodyAttributes: [String: String] = [:]
    /// Markup added at the end of `<head>` (a style sheet, a link).
    public var head = ""
    /// Markup before the report's header (a navigation bar).
    public var top = ""
    /// The footer's text (markup), instead of the report's note on relative image paths.
    public var footer: String?
    /// A script run after the report's own, with `window.snapdiffReport` ready.
    public var script = ""
    /// Whether each snapshot shows the `snapdiff approve` commands (a page with review
    /// buttons may leave them out).
    public var showsCommands = true
    /// The URL of a small version of a snapshot's image for its card, or `nil` for the image
    /// itself (loaded lazily and scaled down by the browser). The argument is the image's URL
    /// path as the card links it.
    public var thumbnail: (@Sendable (_ snapshot: SnapshotRecord, _ image: ImageKind) -> String?)?
    /// Keys of snapshots the page marks flaky (a badge on the card): the service's review page
    /// marks those `FlakySnapshots` finds in its recent runs.
    public var flakyKeys: Set<String> = []

    public init() {}
  }

  /// A snapshot's images, as the report names them.
  public enum ImageKind: String, Sendable, CaseIterable {
    case baseline, current, diff
  }
}

extension HTMLReport {
  /// A `/`-separated path as the report writes it in a URL: each segment percent-encoded, so
  /// that `#`, `?`, `%` and spaces in keys reach the server unchanged (for ``Embedding/thumbnail``).
  public static func urlPath(_ path: String) -> String { Markup.urlPath(path) }

  /// `text` escaped for HTML element content, as the reports escape theirs (`&`, `<`, `>`, and
  /// characters XML 1.0 forbids as U+FFFD): for pages around a report (the review page).
  public static func escapedText(_ text: String) -> String { Markup.escape(text) }

  /// `text` escaped for a quoted HTML attribute value, as the reports escape theirs.
  public static func escapedAttribute(_ text: String) -> String { Markup.escape(text, attribute: true) }
}
