#if os(Linux)  // the shim stands in for XCUITest where there is none
  import Foundation
  import SnapdiffModel
  import SnapdiffTestSupport
  import SnapdiffTesting

  /// Screens for the shim: an element snapshot shaped like a real XCUITest dump (from the
  /// fixtures), and a screenshot of it as PNG bytes made here (stored deflate blocks: no codec).
  enum ShimScreen {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures")

    /// The tree a fixture dump describes, as the text-dump parser reads it.
    static func dumpTree(_ name: String, scale: Int = 1) throws -> ElementTree {
      let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
      return try XCUITextDump.parse(text, path: name, scale: scale)
    }

    /// The shim's snapshot of `tree`: the same elements as XCUITest objects, the application's
    /// frame the screen (or `appFrame`: an app that does not fill the screen).
    @MainActor static func snapshot(of tree: ElementTree, appFrame: CGRect? = nil) -> ShimElementSnapshot {
      func node(_ element: Element) -> ShimElementSnapshot {
        let raw = UInt(ElementType.allCases.firstIndex(of: element.elementType)!)
        return ShimElementSnapshot(
          elementType: XCUIElement.ElementType(rawValue: raw)!, identifier: element.identifier, label: element.label,
          value: element.value, frame: CGRect(element.frame), isEnabled: element.isEnabled,
          isSelected: element.isSelected,
          children: element.children.map(node))
      }
      let root = node(tree.root)
      root.frame = appFrame ?? CGRect(x: 0, y: 0, width: tree.screen.width, height: tree.screen.height)
      return root
    }

    /// Sets the shim's world to `tree` and a screenshot of `width`×`height` pixels.
    @MainActor static func show(
      _ tree: ElementTree, screenshot png: Data, statusBar: CGRect? = nil, appFrame: CGRect? = nil,
      springBoard: CGRect? = nil
    ) {
      XCUIShimWorld.application = snapshot(of: tree, appFrame: appFrame)
      XCUIShimWorld.screenshotPNG = png
      XCUIShimWorld.statusBarFrame = statusBar
      XCUIShimWorld.screenFrame = springBoard
    }

    /// A plain screenshot of `width`×`height` pixels.
    static func blank(width: Int, height: Int) -> Data {
      TestPNG.rgb(width: width, height: height) { _, _ in (250, 250, 250) }
    }
  }

  extension CGRect {
    init(_ frame: ElementFrame) {
      self.init(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
    }
  }
#endif
