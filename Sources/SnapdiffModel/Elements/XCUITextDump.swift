/// Reads the text XCUITest prints for `XCUIApplication().debugDescription` (or any
/// `XCUIElement`'s, or `po app` in lldb) into an element tree:
///
/// ```text
/// Attributes: Application, 0x600000c0c1c0, pid: 12345, label: 'Example'
/// Element subtree:
///  →Application, 0x600000c0c1c0, pid: 12345, label: 'Example'
///     Window (Main), 0x600000c0c2a0, {{0.0, 0.0}, {390.0, 844.0}}
///       Button, 0x600000c0c3b0, {{16.0, 100.0}, {358.0, 50.0}}, label: 'Log in', Selected
/// Path to element:
/// …
/// ```
///
/// Only the lines under `Element subtree:` are read; the first line that is not an element (a
/// blank line, `Path to element:`, `Query chain:`) ends the tree. Nesting follows indentation,
/// whatever its step. Type names map to `ElementType` (`StaticText` → `.staticText`); names this
/// model does not know become `.other`. The screen is sized from the application's frame when
/// the dump has one, else from the main (or first non-empty) window, else from the root's
/// children. Elements printed without a frame get the screen's.
///
/// A dump copied as a Swift or JSON string literal (`"Attributes: …\nElement subtree:\n …"`, as
/// `po app.debugDescription` and Appium's `mobile: source` print it) is unescaped first.
///
/// ```swift
/// let tree = try XCUITextDump.parse(text, path: "Home.txt", scale: 3)
/// ```
public enum XCUITextDump {
  /// Parses a dump.
  ///
  /// - Parameters:
  ///   - text: the dump; `\n`, `\r\n` or `\r` line endings.
  ///   - path: the file it came from, named in errors.
  ///   - scale: pixels per point for the tree: 1, 2 or 3 (the dump holds points only).
  /// - Returns: the tree, rooted at the element the description was asked for. When the subtree
  ///   has several top-level elements, they are wrapped in an `.other` root covering the screen.
  /// - Throws: `ConfigurationError` naming the file and, where there is one, the line: no
  ///   `Element subtree:` line, no elements under it, a malformed or out-of-range frame, no frame
  ///   anywhere to size the screen from, or a scale other than 1, 2 or 3.
  public static func parse(_ text: String, path: String? = nil, scale: Int = 1) throws
    -> ElementTree
  {
    let name = path ?? "XCUITest dump"
    guard (1...3).contains(scale) else {
      throw ConfigurationError("\(name): scale must be 1, 2 or 3, not \(scale)")
    }
    var lines = split(text)
    var header = headerIndex(lines)
    var whichLine = "line"
    let escapedHeader = #"Element subtree:\n"#
    if header.map({ lines[$0].contains(escapedHeader) }) ?? text.contains(escapedHeader) {
      lines = split(unescaped(text))
      header = headerIndex(lines)
      whichLine = "unescaped line"
    }
    guard let header else {
      throw ConfigurationError(
        "\(name): no 'Element subtree:' line, so this is not an XCUITest debugDescription dump "
          + "(print XCUIApplication().debugDescription in a UI test and save what it prints)")
    }
    var nodes: [Node] = []
    var index = header + 1
    // Joining lines to close a quote re-reads them; in all, at most 64 times the dump's length
    // (lines past that are read on their own), so no dump takes more than linear time.
    var joinBudget = 64 * text.utf8.count
    while index < lines.count {
      if lines[index].allSatisfy(\.isWhitespace) {
        if nodes.isEmpty {
          index += 1
          continue
        }
        break
      }
      let line: Line?
      let last: Int
      do {
        (line, last) = try readElement(lines, from: index, budget: &joinBudget)
      } catch {
        throw ConfigurationError("\(name): \(whichLine) \(index + 1): \(error)")
      }
      guard let line else { break }
      nodes.append(Node(line: line))
      index = last + 1
    }
    guard !nodes.isEmpty else {
      throw ConfigurationError(
        "\(name): \(whichLine) \(header + 1): 'Element subtree:' is followed by no elements")
    }
    link(&nodes)
    try checkLimits(nodes, name: name)
    guard let screen = screenFrame(nodes) else {
      throw ConfigurationError(
        "\(name): no element under 'Element subtree:' has a frame with a width and a height, "
          + "so the screen's size is unknown")
    }
    let root = build(nodes, screen: screen)
    return ElementTree(
      scale: scale, screen: ElementTree.Size(width: screen.width, height: screen.height),
      root: root)
  }

  /// The `ElementType` for a name as XCUITest prints it (`StaticText`, `NavigationBar`); `.other`
  /// for names this model does not know (`RemotePlaceholder`).
  public static func elementType(named name: String) -> ElementType {
    guard let first = name.first else { return .other }
    return ElementType(rawValue: first.lowercased() + name.dropFirst()) ?? .other
  }

  /// The element line at `start`, joined with the lines after it while a quoted text is open
  /// (a label with line breaks), up to `maximumContinuation` lines and never across a section
  /// header. Without a closing quote in reach, the line is read on its own.
  ///
  /// - Returns: the element (`nil` if the line is not one) and the index of its last line.
  private static func readElement(_ lines: [Substring], from start: Int, budget: inout Int)
    throws(Line.Problem) -> (Line?, Int)
  {
    guard let line = try Line.parse(lines[start]) else { return (nil, start) }
    guard line.hasOpenQuote else { return (line, start) }
    var text = String(lines[start])
    var last = start
    while last + 1 < lines.count, last - start < maximumContinuation {
      let next = lines[last + 1].drop { $0.isWhitespace || $0 == "→" }
      if next.hasPrefix("Path to element:") || next.hasPrefix("Query chain:") { break }
      last += 1
      text += "\n" + lines[last]
      // The open quote can only close at a `'` of the added line (what follows the earlier
      // ones is unchanged): without a candidate, skip the parse. Re-parsing the joined text
      // for every added line made 5000 lines with unclosed quotes take minutes.
      guard mayCloseQuote(lines[last]), budget > 0 else { continue }
      budget -= text.utf8.count
      if let joined = try? Line.parse(Substring(text)), !joined.hasOpenQuote {
        return (joined, last)
      }
    }
    return (line, start)
  }

  /// Whether a quoted text could close on `line`: a `'` ends it or comes before `, `.
  private static func mayCloseQuote(_ line: Substring) -> Bool {
    line.contains("', ") || line.last(where: { !$0.isWhitespace }) == "'"
  }

  /// How many lines a quoted text may run on for.
  static let maximumContinuation = 50

  /// An element line and its place in the tree.
  struct Node {
    var line: Line
    var parent: Int?
    var children: [Int] = []
  }

  /// Lines on `\n`, `\r\n` and `\r` (Swift reads `\r\n` as one `Character`).
  private static func split(_ text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
  }

  private static func headerIndex(_ lines: [Substring]) -> Int? {
    lines.firstIndex {
      $0.drop { $0.isWhitespace || $0 == "\"" }.hasPrefix("Element subtree:")
    }
  }

  /// Undoes a string literal's escapes: `\n`, `\r`, `\t`, `\'`, `\"`, `\\` and `\uXXXX` (JSON
  /// writes `→` as `\u2192`). Other backslashes are kept.
  static func unescaped(_ text: String) -> String {
    var result = ""
    var iterator = Array(text)[...]
    while let character = iterator.popFirst() {
      guard character == "\\", let next = iterator.first else {
        result.append(character)
        continue
      }
      switch next {
      case "n": result.append("\n")
      case "r": result.append("\r")
      case "t": result.append("\t")
      case "'", "\"", "\\": result.append(next)
      case "u":
        let digits = String(iterator.dropFirst().prefix(4))
        guard digits.count == 4, let code = UInt32(digits, radix: 16),
          let scalar = Unicode.Scalar(code)
        else {
          result.append(character)
          continue
        }
        result.unicodeScalars.append(scalar)
        iterator = iterator.dropFirst(4)
      default:
        result.append(character)
        continue
      }
      iterator = iterator.dropFirst()
    }
    return result
  }

  /// Sets each node's parent: the nearest earlier node indented less.
  private static func link(_ nodes: inout [Node]) {
    var open: [(indent: Int, index: Int)] = []
    for index in nodes.indices {
      let indent = nodes[index].line.indent
      while let last = open.last, last.indent >= indent { open.removeLast() }
      if let parent = open.last?.index {
        nodes[index].parent = parent
        nodes[parent].children.append(index)
      }
      open.append((indent, index))
    }
  }

  /// Refuses a dump past `ElementTree.maximumDepth` or `maximumElementCount`, before a tree is
  /// built: its elements are encoded, rendered and compared by walks that recurse.
  private static func checkLimits(_ nodes: [Node], name: String) throws {
    // A wrapping root is added when there are several top-level elements.
    let wrapped = nodes.lazy.filter { $0.parent == nil }.count > 1 ? 1 : 0
    // Parents come before their children: one pass gives every level.
    var levels = [Int](repeating: 1, count: nodes.count)
    for index in nodes.indices {
      if let parent = nodes[index].parent { levels[index] = levels[parent] + 1 }
    }
    let depth = (levels.max() ?? 0) + wrapped
    if let problem = ElementTree.limitProblem(depth: depth, count: nodes.count + wrapped) {
      throw ConfigurationError("\(name): the element tree \(problem)")
    }
  }

  /// The screen as a frame at the origin: the application's frame (older Xcode versions print
  /// one), the main window's, the first window's with a size, the union of the root's children,
  /// or the root's own frame; the first of these with a width and a height.
  private static func screenFrame(_ nodes: [Node]) -> ElementFrame? {
    func sized(_ frame: ElementFrame?) -> ElementFrame? {
      guard let frame, frame.width > 0, frame.height > 0 else { return nil }
      let width = frame.maxX
      let height = frame.maxY
      guard width > 0, height > 0, max(width, height) <= ElementFrame.maximumExtent else {
        return nil
      }
      return ElementFrame(x: 0, y: 0, width: width, height: height)
    }
    let roots = nodes.indices.filter { nodes[$0].parent == nil }
    let root = nodes[roots[0]].line
    let windows = nodes.map(\.line).filter { elementType(named: $0.typeName) == .window }
    var candidates: [ElementFrame?] = []
    if roots.count == 1, elementType(named: root.typeName) == .application {
      candidates.append(root.frame)
    }
    candidates += windows.filter(\.isMain).map(\.frame)
    candidates += windows.map(\.frame)
    let tops = (roots.count == 1 ? nodes[roots[0]].children : roots).compactMap {
      nodes[$0].line.frame
    }
    if let right = tops.map(\.maxX).max(), let bottom = tops.map(\.maxY).max() {
      candidates.append(ElementFrame(x: 0, y: 0, width: right, height: bottom))
    }
    candidates += roots.map { nodes[$0].line.frame }
    return candidates.lazy.compactMap(sized).first
  }

  /// The elements, built from the last line to the first so that every child exists before its
  /// parent (no recursion, however deep the dump).
  private static func build(_ nodes: [Node], screen: ElementFrame) -> Element {
    var built = [Element?](repeating: nil, count: nodes.count)
    for index in nodes.indices.reversed() {
      let line = nodes[index].line
      let children = nodes[index].children.map { child -> Element in
        defer { built[child] = nil }
        return built[child]!
      }
      built[index] = Element(
        identifier: line.identifier ?? "", elementType: elementType(named: line.typeName),
        label: line.label ?? line.title ?? "", value: line.value,
        placeholderValue: line.placeholderValue, frame: line.frame ?? screen,
        isEnabled: !line.isDisabled, isSelected: line.isSelected, hasFocus: line.hasFocus,
        children: children)
    }
    let roots = nodes.indices.filter { nodes[$0].parent == nil }.map { built[$0]! }
    if roots.count == 1 { return roots[0] }
    return Element(elementType: .other, frame: screen, children: roots)
  }
}
