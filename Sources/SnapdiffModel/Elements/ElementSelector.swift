/// Picks elements of a tree by name, to mask them: the grammar of `--ignore-element`.
///
/// | selector | matches |
/// |---|---|
/// | `clock` | the elements whose identifier is exactly `clock` |
/// | `~banner` | identifiers that contain `banner` (as a page-object suite's `subscript(query:partial:)`) |
/// | `@image` | elements of type `image` |
/// | `@staticText:clock` | elements of type `staticText` whose identifier is exactly `clock` |
/// | `alert/okButton`, `@alert/@button` | the right side inside the left, at any depth |
///
/// ```swift
/// let selector = try ElementSelector("@navigationBar/~clock")
/// let rects = selector.pixelRects(in: tree)     // at the tree's scale
/// ```
public struct ElementSelector: Sendable, Hashable, CustomStringConvertible {
  /// One step of a selector.
  public enum Step: Sendable, Hashable {
    case identifier(String)
    case identifierContains(String)
    case type(ElementType)
    case typedIdentifier(ElementType, String)

    func matches(_ element: Element) -> Bool {
      switch self {
      case .identifier(let name): element.identifier == name
      case .identifierContains(let part): element.identifier.contains(part)
      case .type(let type): element.elementType == type
      case .typedIdentifier(let type, let name): element.elementType == type && element.identifier == name
      }
    }
  }

  public let text: String
  public let steps: [Step]

  /// Parses a selector.
  ///
  /// - Throws: `ConfigurationError` for an empty step or an unknown element type.
  public init(_ text: String) throws(ConfigurationError) {
    self.text = text
    var steps: [Step] = []
    for part in text.split(separator: "/", omittingEmptySubsequences: false) {
      let step = String(part)
      if step.isEmpty { throw ConfigurationError("element selector '\(text)' has an empty step") }
      if step.hasPrefix("@") {
        var name = String(step.dropFirst())
        var identifier: String?
        if let colon = name.firstIndex(of: ":") {
          identifier = String(name[name.index(after: colon)...])
          name = String(name[..<colon])
        }
        guard let type = ElementType(rawValue: name) else {
          let hint = ElementType.suggestion(for: name).map { " (did you mean '@\($0.rawValue)'?)" } ?? ""
          throw ConfigurationError("element selector '\(text)': '\(name)' is not an element type\(hint)")
        }
        if let identifier {
          guard !identifier.isEmpty else {
            throw ConfigurationError("element selector '\(text)': '@\(name):' needs an identifier")
          }
          steps.append(.typedIdentifier(type, identifier))
        } else {
          steps.append(.type(type))
        }
      } else if step.hasPrefix("~") {
        guard step.count > 1 else {
          throw ConfigurationError("element selector '\(text)': '~' needs a text to look for")
        }
        steps.append(.identifierContains(String(step.dropFirst())))
      } else {
        steps.append(.identifier(step))
      }
    }
    self.steps = steps
  }

  /// The elements with exactly this identifier (and, unless `.any`, this type).
  public init(identifier: String, type: ElementType = .any) {
    text = type == .any ? identifier : "@\(type.rawValue):\(identifier)"
    steps = [type == .any ? .identifier(identifier) : .typedIdentifier(type, identifier)]
  }

  /// The matching elements, in tree order (parents before children).
  public func matches(in tree: ElementTree) -> [Element] {
    var found: [Element] = []
    visit(tree.root, ancestors: [], into: &found)
    return found
  }

  /// The frames of the matching elements in pixels, at the tree's scale.
  public func pixelRects(in tree: ElementTree) -> [PixelRect] {
    matches(in: tree).map { $0.frame.pixels(scale: tree.scale) }
  }

  private func visit(_ element: Element, ancestors: [Element], into found: inout [Element]) {
    if steps.last!.matches(element) && ancestorsMatch(ancestors) { found.append(element) }
    let path = ancestors + [element]
    for child in element.children { visit(child, ancestors: path, into: &found) }
  }

  /// Whether the leading steps match some ancestors in order (not necessarily adjacent).
  private func ancestorsMatch(_ ancestors: [Element]) -> Bool {
    var step = 0
    let leading = steps.dropLast()
    for ancestor in ancestors where step < leading.count {
      if leading[leading.startIndex + step].matches(ancestor) { step += 1 }
    }
    return step == leading.count
  }

  public var description: String { text }
}

/// Element masks resolved against the trees of a comparison.
public struct ElementMasks: Sendable, Equatable {
  /// The rectangles to ignore, in pixels.
  public var regions: [PixelRect]
  /// Selectors that matched nothing in any tree: a dead mask hides nothing, and says so.
  public var unmatched: [String]

  /// Resolves `selectors` in every tree given (the baseline's and the current frame's: an
  /// element that moved is masked where it was and where it is).
  public static func resolve(_ selectors: [ElementSelector], in trees: [ElementTree]) -> ElementMasks {
    var regions: [PixelRect] = []
    var seen = Set<PixelRect>()
    var unmatched: [String] = []
    for selector in selectors {
      let rects = trees.flatMap { selector.pixelRects(in: $0) }
      if rects.isEmpty { unmatched.append(selector.text) }
      // A set beside the list: a selector may match every element of a large tree.
      for rect in rects where seen.insert(rect).inserted { regions.append(rect) }
    }
    return ElementMasks(regions: regions, unmatched: unmatched)
  }
}
