/// A snapshot's names, as the seed's `SnapshotName` enums give them: `id` names the group
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
  /// `test_search` from any of those forms.
  public static func method(from name: String) -> String {
    var text = Substring(name)
    if text.hasPrefix("-[") && text.hasSuffix("]") {
      text = text.dropFirst(2).dropLast()
      if let space = text.lastIndex(of: " ") { text = text[text.index(after: space)...] }
    }
    if let dot = text.lastIndex(of: ".") { text = text[text.index(after: dot)...] }
    if let parenthesis = text.firstIndex(of: "(") { text = text[..<parenthesis] }
    return String(text)
  }
}
