import ArgumentParser
import SnapdiffCore

/// Accessibility validation: WCAG contrast of the current frame's text elements
/// (`ContrastCheck`), from its element tree and pixels.
struct ContrastOptionGroup: ParsableArguments {
  @Option(
    name: .customLong("contrast"),
    help: ArgumentHelp(
      "Check the contrast of the current frame's text elements (from its element tree and pixels) against WCAG 2.x AA (4.5:1, large text 3:1) or AAA (7:1, large text 4.5:1). Reported apart from the pixel diff.",
      valueName: "AA|AAA"))
  var level: ContrastLevel?

  @Flag(
    name: .customLong("contrast-fails"),
    help: "An element under its contrast ratio fails the snapshot (default: reported only).")
  var fails = false

  @Option(
    name: .customLong("contrast-region"),
    help: ArgumentHelp(
      "Override the contrast rule for the elements a selector picks, or those inside a rectangle (X,Y,W,H pixels, X,Y,W,Hpt points): regular-text, large-text, bold-text (large from 14 pt), graphical-object (3:1) or ignore, as TYPE:AREA ('large-text:title', 'ignore:~logo', 'graphical-object:16,40,24,24pt'). Repeatable.",
      valueName: "type:area"))
  var regions: [String] = []

  /// The check the flags ask for, over `defaults` (`snapdiff.json`'s fields); `nil` when no
  /// level is set in either.
  func contrastCheck(defaults: SnapshotSettings = SnapshotSettings()) throws -> ContrastCheck? {
    var flags = SnapshotSettings()
    flags.contrast = level
    flags.contrastFails = fails ? true : nil
    flags.contrastRegions = try regions.map { text throws(ConfigurationError) in try ContrastRegion(text) }
    return flags.applied(to: defaults.applied(to: nil))
  }

  func validate() throws {
    for text in regions {
      do {
        try ContrastRegion(text).validated()
      } catch {
        throw ValidationError("--contrast-region: \(error)")
      }
    }
  }
}

extension ContrastLevel: ExpressibleByArgument {
  public init?(argument: String) { self.init(text: argument) }
}
