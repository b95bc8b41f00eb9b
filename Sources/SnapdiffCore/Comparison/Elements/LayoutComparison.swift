/// Compares the layout of two element trees: which elements were added, removed, moved,
/// resized or relabelled, in points, so a failure can say "the Log in button moved 8 pt down".
///
/// Elements are paired by identifier and type first, then by type and label, nearest first,
/// then by type at an overlapping place (`ElementPairing`: near-linear however large the trees).
/// A child that moved with its parent is not reported: movement is measured relative to the
/// paired parent.
///
/// ```swift
/// let changes = LayoutComparison(tolerance: 1).changes(from: baselineTree, to: currentTree)
/// for change in changes { print(change.sentence) }   // button 'loginButton' moved 8 pt down
/// ```
public struct LayoutComparison: Sendable {
  /// Differences in position or size up to this many points are not changes. Default 1.
  public var tolerance: Double

  public init(tolerance: Double = 1) {
    self.tolerance = tolerance
  }

  /// What happened to one element.
  public struct Change: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case added, removed, moved, resized, relabelled }

    public var kind: Kind
    public var identifier: String
    public var elementType: ElementType
    public var label: String
    /// Where it was (nil when added) and where it is (nil when removed), in points.
    public var before: ElementFrame?
    public var after: ElementFrame?
    /// Movement relative to its parent, and change of size, in points.
    public var dx: Double = 0
    public var dy: Double = 0
    public var dWidth: Double = 0
    public var dHeight: Double = 0
    /// For `relabelled`: the new label.
    public var newLabel: String?

    /// The element as a tester names it: `button 'loginButton'`, or its label when it has no
    /// identifier.
    public var name: String {
      if !identifier.isEmpty { return "\(elementType.rawValue) '\(identifier)'" }
      if !label.isEmpty { return "\(elementType.rawValue) \"\(label)\"" }
      return elementType.rawValue
    }

    /// The change in words: `button 'loginButton' moved 8 pt down`.
    public var sentence: String {
      switch kind {
      case .added: return "\(name) added at \(after!.description)"
      case .removed: return "\(name) removed from \(before!.description)"
      case .moved:
        var parts: [String] = []
        if dx != 0 { parts.append("\(Self.points(abs(dx))) \(dx > 0 ? "right" : "left")") }
        if dy != 0 { parts.append("\(Self.points(abs(dy))) \(dy > 0 ? "down" : "up")") }
        return "\(name) moved \(parts.joined(separator: " and "))"
      case .resized:
        return
          "\(name) resized from \(ElementFrame.format(before!.width))×\(ElementFrame.format(before!.height)) to \(ElementFrame.format(after!.width))×\(ElementFrame.format(after!.height))"
      case .relabelled: return "\(name) relabelled \"\(label)\" → \"\(newLabel ?? "")\""
      }
    }

    static func points(_ value: Double) -> String { "\(ElementFrame.format((value * 100).rounded() / 100)) pt" }

    /// `{identifier, elementType, change, dx, dy, …}` for `--json`.
    public var json: JSONValue {
      var members: [(String, JSONValue)] = [
        ("identifier", .string(identifier)), ("elementType", .string(elementType.rawValue)),
        ("label", .string(label)), ("change", .string(kind.rawValue)),
        ("dx", .double(dx)), ("dy", .double(dy)), ("dWidth", .double(dWidth)), ("dHeight", .double(dHeight)),
      ]
      func frame(_ value: ElementFrame?) -> JSONValue {
        guard let value else { return .null }
        return .object([
          ("x", .double(value.x)), ("y", .double(value.y)), ("width", .double(value.width)),
          ("height", .double(value.height)),
        ])
      }
      members.append(("before", frame(before)))
      members.append(("after", frame(after)))
      if let newLabel { members.append(("newLabel", .string(newLabel))) }
      members.append(("description", .string(sentence)))
      return .object(members)
    }
  }

  /// An element with its place in the tree.
  private struct Node {
    var element: Element
    var parent: Int?
  }

  /// The changes from `baseline` to `current`, in the current tree's order (removed ones last).
  public func changes(from baseline: ElementTree, to current: ElementTree) -> [Change] {
    let old = Self.flatten(baseline.root)
    let new = Self.flatten(current.root)
    let pairs = pair(old, new)
    var oldToNew: [Int: Int] = [:]
    for (o, n) in pairs { oldToNew[o] = n }
    let newToOld = Dictionary(uniqueKeysWithValues: pairs.map { ($0.1, $0.0) })
    var changes: [Change] = []

    for (index, node) in new.enumerated() {
      let element = node.element
      guard let oldIndex = newToOld[index] else {
        // A child of an added element is part of it: one change.
        if let parent = node.parent, newToOld[parent] == nil { continue }
        changes.append(
          Change(
            kind: .added, identifier: element.identifier, elementType: element.elementType,
            label: element.label, before: nil, after: element.frame))
        continue
      }
      let before = old[oldIndex].element
      var base = Change(
        kind: .moved, identifier: element.identifier, elementType: element.elementType,
        label: before.label, before: before.frame, after: element.frame)
      // Movement relative to the parent's, so a moved container is one change, not fifty.
      var parentDX = 0.0
      var parentDY = 0.0
      if let parent = node.parent, let oldParent = newToOld[parent] {
        parentDX = new[parent].element.frame.x - old[oldParent].element.frame.x
        parentDY = new[parent].element.frame.y - old[oldParent].element.frame.y
      }
      let dx = element.frame.x - before.frame.x - parentDX
      let dy = element.frame.y - before.frame.y - parentDY
      if abs(dx) > tolerance || abs(dy) > tolerance {
        var moved = base
        moved.dx = abs(dx) > tolerance ? dx : 0
        moved.dy = abs(dy) > tolerance ? dy : 0
        changes.append(moved)
      }
      let dWidth = element.frame.width - before.frame.width
      let dHeight = element.frame.height - before.frame.height
      if abs(dWidth) > tolerance || abs(dHeight) > tolerance {
        base.kind = .resized
        base.dWidth = dWidth
        base.dHeight = dHeight
        changes.append(base)
      }
      if before.label != element.label {
        var relabelled = Change(
          kind: .relabelled, identifier: element.identifier,
          elementType: element.elementType, label: before.label, before: before.frame, after: element.frame)
        relabelled.newLabel = element.label
        changes.append(relabelled)
      }
    }
    for (index, node) in old.enumerated() where oldToNew[index] == nil {
      if let parent = node.parent, oldToNew[parent] == nil { continue }
      let element = node.element
      changes.append(
        Change(
          kind: .removed, identifier: element.identifier, elementType: element.elementType,
          label: element.label, before: element.frame, after: nil))
    }
    return changes
  }

  /// The elements of `baseline` and `current` that are the same element, paired as `changes`
  /// pairs them (the text-aware level compares paired text elements' labels and ink).
  func pairedElements(from baseline: ElementTree, to current: ElementTree) -> [(before: Element, after: Element)] {
    let old = Self.flatten(baseline.root)
    let new = Self.flatten(current.root)
    return pair(old, new).map { (old[$0.0].element, new[$0.1].element) }
  }

  /// The tree's elements in tree order (parents before children), walked without recursion.
  private static func flatten(_ root: Element) -> [Node] {
    var nodes: [Node] = []
    var pending: [(element: Element, parent: Int?)] = [(root, nil)]
    while let (element, parent) = pending.popLast() {
      nodes.append(Node(element: element, parent: parent))
      let index = nodes.count - 1
      for child in element.children.reversed() { pending.append((child, index)) }
    }
    return nodes
  }

  /// Pairs the elements (`ElementPairing`): by identifier, then type and label, then place.
  private func pair(_ old: [Node], _ new: [Node]) -> [(Int, Int)] {
    ElementPairing(old: old.map(\.element), new: new.map(\.element)).pairs.map { ($0.old, $0.new) }
  }
}
