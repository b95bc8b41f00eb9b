#if os(Linux)  // the shim stands in for XCUITest where there is none
  import Foundation
  import SnapdiffModel
  import SnapdiffTestSupport

  /// The app the seed-style client tests: an onboarding screen of 120×200 points at scale 2, with
  /// a status-bar clock (`clock`, which the page ignores) and a Next button, drawn into the
  /// screenshot the shim hands out. `launch()` of the shim's XCUIApplication shows it.
  @MainActor enum ShimApp {
    static let scale = 2
    static let clockFrame = CGRect(x: 4, y: 2, width: 40, height: 16)
    static let buttonFrame = CGRect(x: 10, y: 150, width: 100, height: 30)
    /// What the screen shows: the clock's grey and the button's blue can be changed by a test.
    static var clockShade: UInt8 = 90
    static var buttonBlue: UInt8 = 255
    static func launch() {
      show()
    }

    /// Puts the screen as it is now into the shim's world.
    static func show() {
      ShimScreen.show(tree(), screenshot: screenshot())
    }

    static func tree() -> ElementTree {
      ElementTree(
        scale: scale, screen: .init(width: 120, height: 200),
        root: Element(
          identifier: "", elementType: .application, label: "Onboarding",
          frame: ElementFrame(x: 0, y: 0, width: 120, height: 200),
          children: [
            Element(
              identifier: "onboarding", elementType: .other, frame: ElementFrame(x: 0, y: 0, width: 120, height: 200),
              children: [
                Element(identifier: "clock", elementType: .staticText, label: "9:41", frame: frame(clockFrame)),
                Element(identifier: "nextButton", elementType: .button, label: "Next", frame: frame(buttonFrame)),
              ])
          ]))
    }

    static func screenshot() -> Data {
      let clock = scaled(clockFrame)
      let button = scaled(buttonFrame)
      return TestPNG.rgb(width: 120 * scale, height: 200 * scale) { x, y in
        if clock.contains(CGPoint(x: x, y: y)) { return (clockShade, clockShade, clockShade) }
        if button.contains(CGPoint(x: x, y: y)) { return (0, 122, buttonBlue) }
        return (250, 250, 250)
      }
    }

    private static func scaled(_ rect: CGRect) -> CGRect {
      CGRect(
        x: rect.minX * CGFloat(scale), y: rect.minY * CGFloat(scale), width: rect.width * CGFloat(scale),
        height: rect.height * CGFloat(scale))
    }

    private static func frame(_ rect: CGRect) -> ElementFrame {
      ElementFrame(x: Double(rect.minX), y: Double(rect.minY), width: Double(rect.width), height: Double(rect.height))
    }
  }
#endif
