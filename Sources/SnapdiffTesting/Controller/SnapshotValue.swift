/// A snapshot's names, as a page-object suite's `SnapshotName` enums give them: `id` names the group
/// (`<id> - <test name>`), `name` the screen.
///
/// ```swift
/// extension HomeSteps {
///   enum SnapshotName: SnapshotValue {
///     static let id = "Home"
///     case view, search
///     var name: String {
///       switch self {
///       case .view: "Home"
///       case .search: "Home - search action"
///       }
///     }
///   }
/// }
/// ```
public protocol SnapshotValue {
  static var id: String { get }
  var name: String { get }
}

/// A test's own name, the same on Linux and macOS: XCTest says `-[HomeTests test_search]` on
/// macOS and `HomeTests.test_search` on Linux; Swift Testing says `test_search()`.
public enum TestName {
  /// `test_search` from any of those forms; any other text (`Search v2.0`) is kept as it is.
  public static func method(from name: String) -> String {
    var text = Substring(name)
    if text.hasPrefix("-[") && text.hasSuffix("]") && text.contains(" ") {
      text = text.dropFirst(2).dropLast()
      text = text[text.index(after: text.lastIndex(of: " ")!)...]
    } else if !text.contains(" "), let dot = text.lastIndex(of: "."), text[text.index(after: dot)...].hasPrefix("test")
    {
      text = text[text.index(after: dot)...]
    }
    if text.hasSuffix("()") { text = text.dropLast(2) }
    return String(text)
  }
}
