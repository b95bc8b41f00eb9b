import Foundation
import SnapdiffCore
import Testing

/// Issue #29, items 1 and 5. Pairing the elements of two trees weighed every pair of elements of
/// one type and label: 5,000 unidentified elements took 855 MiB in the service, 40,000 took
/// 12.7 GB and ended in SIGABRT. A dump 3,000 levels deep overflowed the stack when encoded, and
/// from 260 levels its encoding error echoed the whole tree into run.json, junit.xml and the report.
@Suite("large and deep element trees")
struct LargeTreeTests {
  /// `count` unidentified `other` elements, 8×8 points on a 10-point grid of 39×84 cells (past
  /// 3,276 elements, cells hold several), moved by `shift` points.
  static func grid(_ count: Int, shift: Double = 0) -> ElementTree {
    let children = (0..<count).map { index in
      Element(
        elementType: .other,
        frame: ElementFrame(
          x: Double(index % 39) * 10 + shift, y: Double(index / 39 % 84) * 10 + shift, width: 8, height: 8))
    }
    return ElementTree(
      screen: ElementTree.Size(width: 390, height: 844),
      root: Element(
        elementType: .application, frame: ElementFrame(x: 0, y: 0, width: 390, height: 844), children: children))
  }

  @Test(
    "thousands of unidentified elements are paired in near-linear work, each with its moved self",
    arguments: [5_000, 40_000])
  func manyUnidentified(_ count: Int) {
    let baseline = Self.grid(count)
    let moved = Self.grid(count, shift: 2)
    let pairing = ElementPairing(old: baseline.root.allElements(), new: moved.root.allElements())
    #expect(pairing.approximated)
    #expect(pairing.pairs.count == count + 1)
    // Every pair: count² (25 million; 1.6 billion).
    let bound = 2 * ElementPairing.exactBudget + (8 * ElementPairing.window + 1) * (count + 1)
    #expect(pairing.weighed <= bound, "\(pairing.weighed) pairs weighed")
    let changes = LayoutComparison().changes(from: baseline, to: moved)
    #expect(changes.count == count)
    #expect(changes.allSatisfy { $0.kind == .moved && $0.dx == 2 && $0.dy == 2 })
    #expect(LayoutComparison().changes(from: baseline, to: baseline).isEmpty)
  }

  @Test("a large list with a row inserted: the rows below are moved, the new one added")
  func insertedRow() {
    // 3,000 cells in one column: one group of 9 million pairs, past the budget.
    func list(insertingAt inserted: Int?) -> ElementTree {
      var cells: [Element] = []
      for row in 0..<3_000 {
        let y = Double(row + (inserted.map { row >= $0 ? 1 : 0 } ?? 0)) * 20
        cells.append(Element(elementType: .cell, frame: ElementFrame(x: 0, y: y, width: 390, height: 20)))
      }
      if let inserted {
        cells.insert(
          Element(elementType: .cell, frame: ElementFrame(x: 0, y: Double(inserted) * 20, width: 390, height: 20)),
          at: inserted)
      }
      return ElementTree(
        screen: ElementTree.Size(width: 390, height: 60_100),
        root: Element(elementType: .other, frame: ElementFrame(x: 0, y: 0, width: 390, height: 60_100), children: cells)
      )
    }
    let changes = LayoutComparison().changes(from: list(insertingAt: nil), to: list(insertingAt: 1_500))
    // Nearest first: each old cell keeps its place where a new one is there, so the one left
    // over is the last (as every pair weighed would also say).
    #expect(changes.count == 1)
    #expect(changes.first?.kind == .added)
  }

  @Test("trees within the budget are paired exactly as weighing every pair pairs them")
  func exactWithinBudget() throws {
    // A deterministic screen of 400 elements: few types and labels, duplicated identifiers,
    // elements moved, relabelled, removed and added.
    var state: UInt32 = 29
    func next(_ bound: Int) -> Int {
      state = state &* 1_664_525 &+ 1_013_904_223
      return Int(state >> 8) % bound
    }
    let types: [ElementType] = [.other, .button, .staticText, .cell, .image]
    func element() -> Element {
      Element(
        identifier: next(4) == 0 ? "id\(next(30))" : "", elementType: types[next(types.count)],
        label: next(3) == 0 ? "" : "L\(next(8))",
        frame: ElementFrame(
          x: Double(next(380)), y: Double(next(830)), width: Double(1 + next(60)), height: Double(1 + next(40))))
    }
    let old = (0..<400).map { _ in element() }
    var new: [Element] = []
    for element in old {
      switch next(10) {
      case 0: continue
      case 1: new.append(self.element(from: element, dx: Double(next(9)) - 4, dy: Double(next(9)) - 4))
      case 2:
        var relabelled = element
        relabelled.label = "R\(next(3))"
        new.append(relabelled)
      case 3:
        new.append(element)
        new.append(self.element(from: element, dx: 3, dy: 0))
      default: new.append(element)
      }
    }
    let pairing = ElementPairing(old: old, new: new)
    #expect(!pairing.approximated)
    let expected = Self.everyPairWeighed(old, new)
    #expect(pairing.pairs.map { [$0.old, $0.new] } == expected.map { [$0.0, $0.1] })
    // The example screens too.
    for (one, two) in [("login", "login-moved"), ("login", "login")] {
      let a = try ElementTreeTests.login(one).root.allElements()
      let b = try ElementTreeTests.login(two).root.allElements()
      #expect(
        ElementPairing(old: a, new: b).pairs.map { [$0.old, $0.new] }
          == Self.everyPairWeighed(a, b).map { [$0.0, $0.1] })
    }
  }

  func element(from element: Element, dx: Double, dy: Double) -> Element {
    var moved = element
    moved.frame.x += dx
    moved.frame.y += dy
    return moved
  }

  /// The pairing as it was before issue #29: every pair of each step weighed, nearest first.
  static func everyPairWeighed(_ old: [Element], _ new: [Element]) -> [(Int, Int)] {
    var pairs: [(Int, Int)] = []
    var usedOld = Set<Int>()
    var usedNew = Set<Int>()
    func differ(_ a: Element, _ b: Element) -> Bool {
      !a.identifier.isEmpty && !b.identifier.isEmpty && a.identifier != b.identifier
    }
    func key(_ element: Element) -> String { element.elementType.rawValue + "\u{1F}" + element.identifier }
    var oldByKey: [String: [Int]] = [:]
    var newByKey: [String: [Int]] = [:]
    for (index, element) in old.enumerated() where !element.identifier.isEmpty {
      oldByKey[key(element), default: []].append(index)
    }
    for (index, element) in new.enumerated() where !element.identifier.isEmpty {
      newByKey[key(element), default: []].append(index)
    }
    for (name, olds) in oldByKey {
      guard let news = newByKey[name], olds.count == 1, news.count == 1 else { continue }
      pairs.append((olds[0], news[0]))
      usedOld.insert(olds[0])
      usedNew.insert(news[0])
    }
    for overlapping in [false, true] {
      var candidates: [(distance: Double, old: Int, new: Int)] = []
      for (o, a) in old.enumerated() where !usedOld.contains(o) {
        for (n, b) in new.enumerated() where !usedNew.contains(n) {
          guard a.elementType == b.elementType, overlapping || a.label == b.label, !differ(a, b) else { continue }
          let f = a.frame
          let g = b.frame
          if overlapping && !(f.x < g.maxX && g.x < f.maxX && f.y < g.maxY && g.y < f.maxY) { continue }
          candidates.append((abs(f.midX - g.midX) + abs(f.midY - g.midY), o, n))
        }
      }
      candidates.sort { ($0.distance, $0.old, $0.new) < ($1.distance, $1.old, $1.new) }
      for candidate in candidates where !usedOld.contains(candidate.old) && !usedNew.contains(candidate.new) {
        pairs.append((candidate.old, candidate.new))
        usedOld.insert(candidate.old)
        usedNew.insert(candidate.new)
      }
    }
    return pairs.sorted { $0.1 < $1.1 }
  }

  /// An XCUITest dump `levels` deep: an application, its window, then `Other`s one inside another.
  static func deepDump(_ levels: Int) -> String {
    var text =
      "Attributes: Application, 0x1, pid: 7, label: 'Deep'\nElement subtree:\n →Application, 0x1, pid: 7, label: 'Deep'\n"
    text += "    Window (Main), 0x2, {{0.0, 0.0}, {60.0, 40.0}}\n"
    for level in 3...max(3, levels) where level <= levels {
      text +=
        String(repeating: " ", count: level + 2)
        + "Other, 0x3, {{0.0, 0.0}, {60.0, 40.0}}, identifier: 'level\(level)'\n"
    }
    return text
  }

  @Test("a dump past the depth limit is refused when it is read, naming the file and the depth")
  func deepDumpRefused() throws {
    #expect(throws: ConfigurationError("deep.txt: the element tree is 3000 levels deep, over the limit of 200")) {
      try XCUITextDump.parse(Self.deepDump(3_000), path: "deep.txt")
    }
    // At the limit: read, written as JSON and read back.
    let tree = try XCUITextDump.parse(Self.deepDump(ElementTree.maximumDepth), path: "deep.txt")
    #expect(tree.measurements.depth == ElementTree.maximumDepth)
    #expect(try ElementTree.decode(tree.encoded(), path: "deep.tree.json") == tree)
    #expect(LayoutComparison().changes(from: tree, to: tree).isEmpty)
  }

  @Test("a JSON tree past the depth limit is refused before it is decoded; one built in code is not encoded")
  func deepJSONRefused() throws {
    var element = Element(elementType: .other, frame: ElementFrame(x: 0, y: 0, width: 1, height: 1))
    for _ in 1..<300 {
      element = Element(elementType: .other, frame: ElementFrame(x: 0, y: 0, width: 1, height: 1), children: [element])
    }
    let tree = ElementTree(screen: ElementTree.Size(width: 1, height: 1), root: element)
    #expect(tree.measurements.depth == 300 && tree.measurements.count == 300)
    #expect(throws: ConfigurationError("the element tree is 300 levels deep, over the limit of 200")) {
      try tree.encoded()
    }
    let open = String(
      repeating: #"{"elementType": "other", "frame": {"x": 0, "y": 0, "width": 1, "height": 1}, "children": ["#,
      count: 299)
    let json =
      #"{"screen": {"width": 1, "height": 1}, "root": "# + open
      + #"{"elementType": "other", "frame": {"x": 0, "y": 0, "width": 1, "height": 1}}"#
      + String(repeating: "]}", count: 299) + "}"
    #expect(
      throws: ConfigurationError(
        "deep.tree.json: not a valid element tree: its JSON nests 601 brackets deep, over the limit of 408 (200 levels of elements)"
      )
    ) {
      try ElementTree.decode(Array(json.utf8), path: "deep.tree.json")
    }
  }

  @Test("a tree past the element limit is refused")
  func tooManyElements() throws {
    let lines = Array(
      repeating: "      Other, 0x3, {{0.0, 0.0}, {1.0, 1.0}}", count: ElementTree.maximumElementCount + 1)
    let text =
      "Element subtree:\n →Application, 0x1, pid: 7\n    Window, 0x2, {{0.0, 0.0}, {60.0, 40.0}}\n"
      + lines.joined(separator: "\n") + "\n"
    #expect(throws: ConfigurationError("big.txt: the element tree has 100003 elements, over the limit of 100000")) {
      try XCUITextDump.parse(text, path: "big.txt")
    }
  }
}
