import SnapdiffCore

/// How a page's frame is captured: the mechanism the seed keeps swappable. snapdiff ships
/// shooters that render the page's element tree, read a PNG (and its tree) from a file, or take a
/// frame from a closure; a platform shooter (XCUIScreen on iOS) is one more closure.
///
/// ```swift
/// var snapShooter: SnapShooter? { .tree { app.currentScreenTree() } }
/// var snapShooter: SnapShooter? { .png { "/tmp/screens/home.png" } }
/// ```
public struct SnapShooter: Sendable {
  /// Names the mechanism in messages.
  public let name: String
  private let captureFrame: @Sendable () throws -> Frame

  public init(name: String, capture: @escaping @Sendable () throws -> Frame) {
    self.name = name
    captureFrame = capture
  }

  /// Captures the frame now.
  public func capture() throws -> Frame { try captureFrame() }

  /// Renders the element tree the closure returns (pixels in memory, never encoded to compare).
  public static func tree(_ tree: @escaping @Sendable () throws -> ElementTree) -> SnapShooter {
    SnapShooter(name: "tree") {
      let tree = try tree()
      return Frame(image: ElementRenderer().render(tree), tree: tree, path: "rendered element tree")
    }
  }

  /// Reads the PNG at the path the closure returns, with `NAME.tree.json` beside it if present
  /// (or a tree file, rendered).
  public static func png(_ path: @escaping @Sendable () -> String) -> SnapShooter {
    SnapShooter(name: "png") { try Frame.load(path()) }
  }

  /// Whatever frame the closure makes.
  public static func frame(_ make: @escaping @Sendable () throws -> Frame) -> SnapShooter {
    SnapShooter(name: "frame", capture: make)
  }
}
