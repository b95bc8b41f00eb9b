/// Which elements of two trees are the same element, as the layout comparison and the
/// text-aware level see them:
///
/// 1. the same type and identifier, when each tree has exactly one such element;
/// 2. of the rest, the same type and label, nearest centres first (ties by tree order);
/// 3. of the rest, the same type at an overlapping place (a relabelled element without
///    identifier), nearest first.
///
/// Two elements with different identifiers are never paired.
///
/// Steps 2 and 3 weigh every pair within a group (the elements of one type and label; of one
/// type), which costs the product of the group's sizes on both sides: a screen of hundreds of
/// elements weighs tens of thousands of pairs. Each step weighs at most `exactBudget` pairs that
/// way. A group that would take more (thousands of unidentified elements of one type and label:
/// an attack, or a dump of a huge list) is paired near-linearly instead: each element against
/// the other tree's elements within `window` places of its own in reading order (rows, then
/// columns) and in column order, nearest first; in step 2, what is left of the group then in
/// reading order. Either way, in step 2 every element of a group finds a partner while the other
/// tree has one left (unless their identifiers differ), as before.
///
/// - Complexity: O(`exactBudget` + n log n + n × `window`) for trees of n elements.
package struct ElementPairing {
  /// The most candidate pairs each step weighs one by one (16–24 MB of candidates).
  package static let exactBudget = 1_000_000
  /// How many places on either side, in each of the two orders, an element of a group too large
  /// for the budget is weighed against.
  package static let window = 8

  /// The pairs, as indices into the two element lists, ordered by the current one.
  package private(set) var pairs: [(old: Int, new: Int)] = []
  /// How many candidate pairs were weighed: at most 2 × `exactBudget` + 8 × `window` × the
  /// number of old elements, plus one per element left over in a large group.
  package private(set) var weighed = 0
  /// Whether a group was too large to weigh every pair of.
  package private(set) var approximated = false

  private let old: [Element]
  private let new: [Element]
  private var usedOld: [Bool]
  private var usedNew: [Bool]

  /// Pairs `old` (the baseline's elements) with `new` (the current frame's).
  package init(old: [Element], new: [Element]) {
    self.old = old
    self.new = new
    usedOld = [Bool](repeating: false, count: old.count)
    usedNew = [Bool](repeating: false, count: new.count)
    pairByIdentifier()
    var budget = Self.exactBudget
    for (olds, news) in groups(by: { $0.elementType.rawValue + "\u{1F}" + $0.label }) {
      pair(olds, news, overlapping: false, budget: &budget)
    }
    budget = Self.exactBudget
    for (olds, news) in groups(by: { $0.elementType.rawValue }) {
      pair(olds, news, overlapping: true, budget: &budget)
    }
    pairs.sort { $0.new < $1.new }
  }

  private mutating func take(_ oldIndex: Int, _ newIndex: Int) {
    pairs.append((oldIndex, newIndex))
    usedOld[oldIndex] = true
    usedNew[newIndex] = true
  }

  /// Step 1: identical type and identifier, when both sides have exactly one.
  private mutating func pairByIdentifier() {
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
      take(olds[0], news[0])
    }
  }

  /// The elements not yet paired, grouped by `key`, in tree order; groups that both sides have,
  /// in the keys' order (so that the budget is spent the same way on every run).
  private func groups(by key: (Element) -> String) -> [(olds: [Int], news: [Int])] {
    var byKey: [String: (olds: [Int], news: [Int])] = [:]
    for (index, element) in old.enumerated() where !usedOld[index] {
      byKey[key(element), default: ([], [])].olds.append(index)
    }
    for (index, element) in new.enumerated() where !usedNew[index] {
      byKey[key(element), default: ([], [])].news.append(index)
    }
    return byKey.sorted { $0.key < $1.key }.map(\.value).filter { !$0.olds.isEmpty && !$0.news.isEmpty }
  }

  /// A pair that may be taken, and how far apart its centres are.
  private struct Candidate: Comparable {
    var distance: Double
    var old: Int
    var new: Int

    static func < (a: Candidate, b: Candidate) -> Bool {
      (a.distance, a.old, a.new) < (b.distance, b.old, b.new)
    }
  }

  /// The candidate `(oldIndex, newIndex)`, unless their identifiers differ or, for step 3, their
  /// frames do not overlap.
  private func candidate(_ oldIndex: Int, _ newIndex: Int, overlapping: Bool) -> Candidate? {
    let a = old[oldIndex]
    let b = new[newIndex]
    if !a.identifier.isEmpty && !b.identifier.isEmpty && a.identifier != b.identifier { return nil }
    let one = a.frame
    let two = b.frame
    if overlapping && !(one.x < two.maxX && two.x < one.maxX && one.y < two.maxY && two.y < one.maxY) {
      return nil
    }
    return Candidate(distance: abs(one.midX - two.midX) + abs(one.midY - two.midY), old: oldIndex, new: newIndex)
  }

  /// Pairs one group, nearest first: every pair when the budget allows, else each element's
  /// neighbours (`window`).
  private mutating func pair(_ olds: [Int], _ news: [Int], overlapping: Bool, budget: inout Int) {
    var candidates: [Candidate] = []
    let exact = olds.count * news.count <= budget
    if exact {
      budget -= olds.count * news.count
      weighed += olds.count * news.count
      candidates.reserveCapacity(olds.count * news.count)
      for o in olds {
        for n in news {
          if let candidate = candidate(o, n, overlapping: overlapping) { candidates.append(candidate) }
        }
      }
    } else {
      approximated = true
      candidates = neighbours(olds, news, overlapping: overlapping)
    }
    candidates.sort()
    for candidate in candidates where !usedOld[candidate.old] && !usedNew[candidate.new] {
      take(candidate.old, candidate.new)
    }
    guard !exact && !overlapping else { return }
    // A large group's elements that found no partner among their neighbours: in reading order.
    let restOld = olds.filter { !usedOld[$0] }.sorted { readingOrder(old[$0].frame, $0, old[$1].frame, $1) }
    let restNew = news.filter { !usedNew[$0] }.sorted { readingOrder(new[$0].frame, $0, new[$1].frame, $1) }
    for (o, n) in zip(restOld, restNew) {
      weighed += 1
      if candidate(o, n, overlapping: false) != nil { take(o, n) }
    }
  }

  private func readingOrder(_ a: ElementFrame, _ i: Int, _ b: ElementFrame, _ j: Int) -> Bool {
    (a.midY, a.midX, i) < (b.midY, b.midX, j)
  }

  /// Each old element against the new ones within `window` places of its own place (its rank,
  /// scaled to the other side's count) in reading order, and likewise in column order: the same
  /// screen moved, scrolled or with a few elements added keeps its elements' ranks, or nearly.
  private mutating func neighbours(_ olds: [Int], _ news: [Int], overlapping: Bool) -> [Candidate] {
    func columnOrder(_ a: ElementFrame, _ i: Int, _ b: ElementFrame, _ j: Int) -> Bool {
      (a.midX, a.midY, i) < (b.midX, b.midY, j)
    }
    let orders = [
      (
        olds.sorted { readingOrder(old[$0].frame, $0, old[$1].frame, $1) },
        news.sorted { readingOrder(new[$0].frame, $0, new[$1].frame, $1) }
      ),
      (
        olds.sorted { columnOrder(old[$0].frame, $0, old[$1].frame, $1) },
        news.sorted { columnOrder(new[$0].frame, $0, new[$1].frame, $1) }
      ),
    ]
    var candidates: [Candidate] = []
    candidates.reserveCapacity(olds.count * 4 * Self.window)
    for (sortedOld, sortedNew) in orders {
      for (rank, o) in sortedOld.enumerated() {
        let place = rank * sortedNew.count / sortedOld.count
        for n in sortedNew[max(0, place - Self.window)..<min(sortedNew.count, place + Self.window)] {
          weighed += 1
          if let candidate = candidate(o, n, overlapping: overlapping) { candidates.append(candidate) }
        }
      }
    }
    return candidates
  }
}
