#if os(Linux)  // the shim stands in for XCUITest where there is none
  import SnapdiffTesting
  import XCTest

  // The seed's own base extension of `Page` (shared/seeds/000, "Pages / Base"), as the seed
  // writes it (only re-indented by scripts/format.sh): the page's screen element found by its
  // `id` and `type`, in XCUITest's own element type.
  // swift-format-ignore: NoAccessLevelOnExtensionDeclaration
  public extension Page {

    var type: XCUIElement.ElementType { .any }
    var screen: XCUIElement {
      let elements = app.descendants(matching: type)

      return id.isEmpty ? elements.firstMatch : elements[id].firstMatch
    }
  }

  // What such a layer builds on `screen` (the seed: "The `screen` property is used for methods
  // like `waitForAppearance/Disappearance`"), and the helpers its pages declare.
  extension Page {
    @discardableResult
    func waitForAppearance(timeout: TimeInterval = 5) -> Bool {
      screen.waitForExistence(timeout: timeout)
    }

    @discardableResult
    func waitForDisappearance(timeout: TimeInterval = 5) -> Bool {
      screen.waitForNonExistence(timeout: timeout)
    }

    func tap(_ element: XCUIElement) {
      element.tap()
    }

    func typeText(_ text: String, into element: XCUIElement) {
      element.tap()
      element.typeText(text)
    }

    func pick(_ index: Int, from query: XCUIElementQuery) -> XCUIElement {
      query.element(boundBy: index)
    }

    func swipeUp(on element: XCUIElement) {
      element.swipeUp()
    }
  }
#endif
