extension XCUITextDump {
  /// One element line of a dump, as XCUITest prints it:
  ///
  /// ```text
  ///     Button, 0x6000, {{16.0, 100.0}, {358.0, 50.0}}, identifier: 'login', label: 'Log in'
  /// ```
  ///
  /// The type comes first (with an optional `(Main)`), then comma-separated fields in any order:
  /// an address (`0x…`), a frame (`{{x, y}, {width, height}}`), `key: value` pairs (`identifier`,
  /// `label`, `title`, `placeholderValue`, `value`, and ones that are skipped: `pid`, `traits`,
  /// `hitPoint`, …) and bare flags (`Selected`, `Disabled`, `Keyboard Focused`, `Focused`).
  struct Line: Equatable {
    /// The column of the type name: leading spaces, tabs and the `→` marker each count one.
    var indent: Int
    /// `StaticText`, `Window`, … as printed (without `(Main)`).
    var typeName: String
    /// Whether the type was printed with a parenthesised marker such as `Window (Main)`.
    var isMain = false
    /// The frame in points; `nil` when the line has none (an `Application` line, usually).
    var frame: ElementFrame?
    var identifier: String?
    var label: String?
    /// macOS elements often carry a `title` rather than a `label`.
    var title: String?
    var value: String?
    var placeholderValue: String?
    var isSelected = false
    var isDisabled = false
    var hasFocus = false
    /// Whether a quoted text ran to the end of the line without its closing quote: XCUITest
    /// prints a label's line breaks as they are, so the text may go on on the next line.
    var hasOpenQuote = false

    /// Why a line that looks like an element cannot be read.
    enum Problem: Error, Equatable, CustomStringConvertible {
      /// Not `{{x, y}, {width, height}}` with four numbers.
      case malformedFrame(String)
      /// Four numbers, but beyond what a frame may hold (±100000 points, no negative size).
      case frameOutOfRange(String)

      var description: String {
        switch self {
        case .malformedFrame(let text):
          return "malformed frame '\(text)': expected {{x, y}, {width, height}} with four numbers"
        case .frameOutOfRange(let text):
          return "frame '\(text)' is out of range: coordinates and sizes must be within "
            + "±\(Int(ElementFrame.maximumExtent)) points and sizes cannot be negative"
        }
      }
    }

    /// The flags XCUITest prints as bare words that this model keeps.
    static let flags = ["Selected", "Disabled", "Keyboard Focused", "Focused"]
    /// The keys an unquoted `value:` stops at (it may itself contain commas).
    static let knownKeys = [
      "identifier", "label", "title", "value", "placeholderValue", "pid", "traits", "hitPoint",
    ]

    /// Reads one line.
    ///
    /// - Returns: `nil` when the text is not an element line: prose, a section header such as
    ///   `Path to element:` or `Query chain:`, or a line that does not start with a capitalised
    ///   type name followed by a comma or the end of the line.
    /// - Throws: `Problem` when the line is an element but its frame cannot be read.
    static func parse(_ text: Substring) throws(Problem) -> Line? {
      var characters = Array(text)
      while characters.last?.isWhitespace == true { characters.removeLast() }
      var scanner = Scanner(characters)
      let indent = scanner.skip { $0 == " " || $0 == "\t" || $0 == "→" }
      guard let typeName = scanner.word(), typeName.first?.isUppercase == true else { return nil }
      var line = Line(indent: indent, typeName: typeName)
      if scanner.hasPrefix(" (") {
        guard let close = scanner.firstIndex(of: ")") else { return nil }
        scanner.position = close + 1
        line.isMain = true
      }
      guard scanner.isAtEnd || scanner.hasPrefix(", ") else { return nil }
      while scanner.hasPrefix(", ") {
        scanner.position += 2
        try line.readField(&scanner)
      }
      return line
    }

    /// Reads the field at the scanner: a frame, an address, `key: value`, or a flag.
    private mutating func readField(_ scanner: inout Scanner) throws(Problem) {
      if scanner.hasPrefix("{{") {
        let frame = try Self.frame(&scanner)
        if self.frame == nil { self.frame = frame }
      } else if scanner.hasPrefix("0x") {
        scanner.position += 2
        _ = scanner.skip { $0.isHexDigit }
      } else if let key = scanner.key() {
        var text: String
        if scanner.hasPrefix("'") {
          let closed: Bool
          (text, closed) = scanner.quoted()
          hasOpenQuote = hasOpenQuote || !closed
        } else {
          text = scanner.unquoted(for: key)
        }
        switch key {
        case "identifier": identifier = text
        case "label": label = text
        case "title": title = text
        case "value": value = text
        case "placeholderValue": placeholderValue = text
        default: break  // pid, traits, hitPoint and keys of newer Xcode versions
        }
      } else {
        switch scanner.untilComma() {
        case "Selected": isSelected = true
        case "Disabled": isDisabled = true
        case "Keyboard Focused", "Focused": hasFocus = true
        default: break  // "Main Window" (Xcode 9) and flags this model has no place for
        }
      }
    }

    /// `text` cut at every `separator`, empty pieces kept. (The standard library's `split` with
    /// a separator of several characters is iOS 16 / macOS 13, later than the package's
    /// minimums.)
    private static func pieces(of text: Substring, separatedBy separator: String) -> [Substring] {
      var pieces: [Substring] = []
      var start = text.startIndex
      var index = start
      while index < text.endIndex {
        if text[index...].starts(with: separator) {
          pieces.append(text[start..<index])
          index = text.index(index, offsetBy: separator.count)
          start = index
        } else {
          index = text.index(after: index)
        }
      }
      pieces.append(text[start...])
      return pieces
    }

    /// Reads `{{x, y}, {width, height}}`. Numbers may be negative or fractional; `inf` and `nan`
    /// (XCUITest prints `CGRectNull` as `{{inf, inf}, {0.0, 0.0}}`) give an empty frame at the
    /// origin, since such an element is nowhere on screen.
    private static func frame(_ scanner: inout Scanner) throws(Problem) -> ElementFrame {
      guard let close = scanner.firstIndex(of: "}}") else {
        throw .malformedFrame(String(scanner.chars[scanner.position...]))
      }
      let text = String(scanner.chars[scanner.position..<close + 2])
      scanner.position = close + 2
      let inner = text.filter { !$0.isWhitespace }.dropFirst(2).dropLast(2)
      let pairs = pieces(of: inner, separatedBy: "},{").map {
        $0.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
      }
      guard pairs.count == 2, pairs.allSatisfy({ $0.count == 2 }) else {
        throw .malformedFrame(text)
      }
      let numbers = pairs[0] + pairs[1]
      guard numbers.allSatisfy(\.isFinite) else {
        return ElementFrame(x: 0, y: 0, width: 0, height: 0)
      }
      guard numbers.allSatisfy({ abs($0) <= ElementFrame.maximumExtent }), numbers[2] >= 0,
        numbers[3] >= 0
      else { throw .frameOutOfRange(text) }
      return ElementFrame(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }
  }
}

/// A cursor over the characters of one line (`→` and `\r\n` are one `Character` each).
private struct Scanner {
  let chars: [Character]
  var position: Int

  init(_ chars: [Character], position: Int = 0) {
    self.chars = chars
    self.position = position
  }

  var isAtEnd: Bool { position >= chars.count }

  func hasPrefix(_ text: String, at start: Int? = nil) -> Bool {
    var index = start ?? position
    for character in text {
      guard index < chars.count, chars[index] == character else { return false }
      index += 1
    }
    return true
  }

  /// The index of the next occurrence of `text` at or after the position.
  func firstIndex(of text: String) -> Int? {
    var index = position
    while index < chars.count {
      if hasPrefix(text, at: index) { return index }
      index += 1
    }
    return nil
  }

  /// Moves past every character that matches; returns how many there were.
  mutating func skip(while matches: (Character) -> Bool) -> Int {
    let start = position
    while !isAtEnd, matches(chars[position]) { position += 1 }
    return position - start
  }

  /// Letters and digits starting with a letter: a type name or a key.
  mutating func word() -> String? {
    guard !isAtEnd, chars[position].isASCII, chars[position].isLetter else { return nil }
    let start = position
    _ = skip { $0.isASCII && ($0.isLetter || $0.isNumber) }
    return String(chars[start..<position])
  }

  /// `key: ` at the position: returns the key and moves past the colon and space.
  mutating func key() -> String? {
    let start = position
    guard let word = word(), hasPrefix(": ") else {
      position = start
      return nil
    }
    position += 2
    return word
  }

  /// Whether a field could start at `index`: `key: `, a flag, a frame or an address.
  func fieldStarts(at index: Int) -> Bool {
    if hasPrefix("{{", at: index) || hasPrefix("0x", at: index) { return true }
    var probe = Scanner(chars, position: index)
    return probe.key() != nil || flagStarts(at: index)
  }

  /// Whether a flag (`Selected`, `Keyboard Focused`) starts at `index` and ends the field.
  private func flagStarts(at index: Int) -> Bool {
    XCUITextDump.Line.flags.contains { flag in
      hasPrefix(flag, at: index)
        && (index + flag.count == chars.count || hasPrefix(",", at: index + flag.count))
    }
  }

  /// A quoted text at the position (which holds the opening `'`). XCUITest does not escape
  /// quotes inside (`'Indian Laurel Fig Tree 'Green Gem''`), so a `'` closes the text only where
  /// the line ends or `, ` and another field follow; `\'` and `\\` are read as escapes.
  ///
  /// - Returns: the text, and whether its closing quote was found (if not, the text is the
  ///   rest of the line).
  mutating func quoted() -> (text: String, closed: Bool) {
    position += 1
    var text = ""
    while !isAtEnd {
      let character = chars[position]
      if character == "\\", position + 1 < chars.count, ["'", "\\"].contains(chars[position + 1]) {
        text.append(chars[position + 1])
        position += 2
        continue
      }
      position += 1
      if character == "'",
        isAtEnd || (hasPrefix(", ") && fieldStarts(at: position + 2))
      {
        return (text, true)
      }
      text.append(character)
    }
    return (text, false)
  }

  /// An unquoted text, as `value:` is printed (`value: 0%`, `value: Widget, Stack`): up to the next
  /// `, ` followed by a known key or flag, or the end of the line. Other keys' unquoted values
  /// (`pid: 12`, `traits: 8589934592`, `hitPoint: {0.5, 0.5}`) end at the next comma or brace.
  mutating func unquoted(for key: String) -> String {
    let start = position
    if ["identifier", "label", "title", "value", "placeholderValue"].contains(key) {
      while !isAtEnd {
        if hasPrefix(", "), knownFieldStarts(at: position + 2) { break }
        position += 1
      }
    } else if hasPrefix("{") {
      var depth = 0
      while !isAtEnd {
        if chars[position] == "{" { depth += 1 }
        if chars[position] == "}" { depth -= 1 }
        position += 1
        if depth == 0 { break }
      }
    } else {
      _ = untilComma()
    }
    return String(chars[start..<position])
  }

  /// Whether a known key or flag starts at `index` (stricter than `fieldStarts`, since a value
  /// may contain `word: ` of its own).
  private func knownFieldStarts(at index: Int) -> Bool {
    if hasPrefix("{{", at: index) { return true }
    return XCUITextDump.Line.knownKeys.contains { hasPrefix($0 + ": ", at: index) }
      || flagStarts(at: index)
  }

  /// The text up to the next `, ` or the end of the line.
  mutating func untilComma() -> String {
    let start = position
    while !isAtEnd, !hasPrefix(", ") { position += 1 }
    return String(chars[start..<position])
  }
}
