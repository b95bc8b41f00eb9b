import SnapdiffModel

#if SNAPDIFF_ENGINE
  import SnapdiffCore
#endif

/// How a page's frame is captured: the mechanism the seed keeps swappable. snapdiff ships
/// shooters that render the page's element tree, read a PNG (and its tree) from a file, take the
/// simulator's screen with XCUITest (`.xcuiScreen(app)`, Apple platforms), or take a frame from
/// a closure.
///
/// ```swift
/// var snapShooter: SnapShooter? { .xcuiScreen(app) }
/// var snapShooter: SnapShooter? { .tree { app.currentScreenTree() } }
/// var snapShooter: SnapShooter? { .png { "/tmp/screens/home.png" } }
/// ```
public struct SnapShooter: Sendable {
  /// Names the mechanism in messages.
  public let name: String
  private let captureFrame: @Sendable () throws -> CapturedFrame

  public init(name: String, capture: @escaping @Sendable () throws -> CapturedFrame) {
    self.name = name
    captureFrame = capture
  }

  /// Captures the frame now.
  public func capture() throws -> CapturedFrame { try captureFrame() }

  /// The element tree the closure returns. Where the engine links it is rendered in memory and
  /// compared without encoding; elsewhere the tree itself is the frame, rendered by the service
  /// or by `snapdiff check`.
  public static func tree(_ tree: @escaping @Sendable () throws -> ElementTree) -> SnapShooter {
    SnapShooter(name: "tree") { CapturedFrame.rendering(try tree()) }
  }

  /// Reads the PNG at the path the closure returns, with `NAME.tree.json` beside it if present.
  public static func png(_ path: @escaping @Sendable () -> String) -> SnapShooter {
    SnapShooter(name: "png") {
      let file = path()
      let treeFile = (file.lowercased().hasSuffix(".png") ? String(file.dropLast(4)) : file) + ".tree.json"
      let tree = FileSystem.isFile(treeFile) ? try ElementTree.load(treeFile) : nil
      return CapturedFrame(png: try FileIO.read(file, limit: 1 << 30), tree: tree, source: file)
    }
  }

  /// Whatever frame the closure makes.
  public static func capture(_ make: @escaping @Sendable () throws -> CapturedFrame) -> SnapShooter {
    SnapShooter(name: "capture", capture: make)
  }
}

extension CapturedFrame {
  /// A frame made from an element tree: rendered in memory where the engine links, the tree
  /// alone elsewhere.
  public static func rendering(_ tree: ElementTree) -> CapturedFrame {
    var frame = CapturedFrame(png: nil, tree: tree, source: "rendered element tree")
    #if SNAPDIFF_ENGINE
      frame.image = ElementRenderer().render(tree)
    #endif
    return frame
  }
}
