/// The kinds of element, with XCUIElement.ElementType's names (`button`, `staticText`, …).
public enum ElementType: String, Sendable, Codable, CaseIterable {
  case any, other, application, group, window, sheet, drawer, alert, dialog, button, radioButton
  case radioGroup, checkBox, disclosureTriangle, popUpButton, comboBox, menuButton, toolbarButton
  case popover, keyboard, key, navigationBar, tabBar, tabGroup, toolbar, statusBar, table
  case tableRow, tableColumn, outline, outlineRow, browser, collectionView, slider, pageIndicator
  case progressIndicator, activityIndicator, segmentedControl, picker, pickerWheel
  case `switch`, toggle, link, image, icon, searchField, scrollView, scrollBar, staticText
  case textField, secureTextField, datePicker, textView, menu, menuItem, menuBar, menuBarItem
  case map, webView, incrementArrow, decrementArrow, timeline, ratingIndicator, valueIndicator
  case splitGroup, splitter, relevanceIndicator, colorWell, helpTag, matte, dockItem, ruler
  case rulerMarker, grid, levelIndicator, cell, layoutArea, layoutItem, handle, stepper, tab
  case touchBar, statusItem

  /// The closest known name to `text`, for "did you mean" hints.
  static func suggestion(for text: String) -> ElementType? {
    let lowered = text.lowercased()
    return allCases.min { distance($0.rawValue.lowercased(), lowered) < distance($1.rawValue.lowercased(), lowered) }
      .flatMap { distance($0.rawValue.lowercased(), lowered) <= 3 ? $0 : nil }
  }

  /// Levenshtein distance, for short names.
  private static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
