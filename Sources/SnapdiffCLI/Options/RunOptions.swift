import ArgumentParser
import SnapdiffCore

/// Which run a review command works on.
struct RunSelectionOptions: ParsableArguments {
  @Option(name: .customLong("run"), help: ArgumentHelp("The run id (default: the last run).", valueName: "id"))
  var runID: String?
}

/// The key selectors of `approve` and `reject`.
struct ReviewSelectionOptions: ParsableArguments {
  @Argument(help: ArgumentHelp("Snapshot keys or globs ('Onboarding*'); quote them.", valueName: "key"))
  var patterns: [String] = []

  @Option(
    help: ArgumentHelp(
      "Every snapshot in this key's group: the same change, or the same kind of edit (the same colour replaced by the same colour, the same element changed the same way, the same rendering-only difference). --dry-run lists them.",
      valueName: "key"))
  var sameAs: String?

  @Option(
    name: .customLong("except"),
    help: ArgumentHelp(
      "Leave out snapshots matching this key or glob (repeatable): a group's members you do not mean.", valueName: "key"
    ))
  var except: [String] = []

  @Option(
    help: ArgumentHelp(
      "Every failed snapshot whose difference is of this kind: rendering (anti-aliasing, text or edges re-rendered, content shifted by 1–2 px), shifted, moved (content moved 1–2 px alone, at rendering-tolerant), hairline, color, element or size.",
      valueName: "kind"))
  var difference: String?

  var selection: Review.Selection {
    Review.Selection(patterns: patterns, sameAs: sameAs, difference: difference, except: except)
  }
}
