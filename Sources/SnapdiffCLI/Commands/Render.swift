import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff render TREE -o PNG`: an element tree as pixels.
  struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Draw an element tree (JSON) into a PNG, the same pixels on every machine.",
      discussion: """
        The tree file holds {"scale": 3, "screen": {"width": 390, "height": 844}, "root": ELEMENT}; \
        see docs/element-trees.md for the format. Exit status: 0 on success, 2 when the tree cannot be \
        read or the PNG cannot be written.
        """
    )

    @Argument(
      help: ArgumentHelp(
        "The element tree: JSON, or XCUITest's debugDescription text (.txt).", valueName: "tree"))
    var tree: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG to write.", valueName: "path"))
    var output: String

    @Option(help: ArgumentHelp("Pixels per point, 1–3 (default: the tree's scale).", valueName: "n"))
    var scale: Int?

    func validate() throws {
      if let scale, !(1...3).contains(scale) { throw ValidationError("--scale must be 1, 2 or 3, not \(scale)") }
    }

    func run() throws {
      try reportingErrors {
        let loaded = try ElementTree.load(anyFormat: tree, scale: scale ?? 1)
        let image = ElementRenderer().render(loaded, scale: scale)
        try PNGEncoder().write(image, to: output)
        print("\(output): \(image.width)×\(image.height)")
      }
    }
  }
}
