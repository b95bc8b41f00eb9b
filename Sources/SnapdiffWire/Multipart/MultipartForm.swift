import SnapdiffModel

/// A `multipart/form-data` body (RFC 7578), parsed strictly: the boundary from the content type,
/// a delimiter line before each part, `Content-Disposition: form-data; name="…"` on each, a
/// closing delimiter. A preamble and an epilogue are allowed (RFC 2046) and ignored; anything
/// else out of place is an error naming what was expected.
///
/// ```swift
/// let form = try MultipartForm(body: bytes, contentType: "multipart/form-data; boundary=x")
/// let frame = form.parts.first { $0.name == "frame" }?.body
/// ```
public struct MultipartForm: Sendable {
  public struct Part: Sendable {
    public var name: String
    public var filename: String?
    public var contentType: String?
    public var body: [UInt8]

    public init(name: String, filename: String? = nil, contentType: String? = nil, body: [UInt8]) {
      self.name = name
      self.filename = filename
      self.contentType = contentType
      self.body = body
    }
  }

  public var parts: [Part]

  /// The most header bytes a part may have.
  public static let maximumHeaderLength = 16 << 10

  /// Parses `body` (all of it at once: ``Reader`` is the same parser fed as the body arrives).
  ///
  /// - Throws: `MultipartError` for a body or content type that is not well-formed.
  public init(body: [UInt8], contentType: String) throws(MultipartError) {
    var reader = try Reader(contentType: contentType)
    try reader.consume(body)
    self = try reader.finish()
  }

  public init(parts: [Part]) { self.parts = parts }

  /// The boundary parameter of a `multipart/form-data` content type.
  public static func boundary(in contentType: String) throws(MultipartError) -> String {
    let fields = contentType.split(separator: ";").map { $0.trimmingSpaces }
    guard fields.first?.lowercased() == "multipart/form-data" else {
      throw MultipartError("the content type is not multipart/form-data")
    }
    for field in fields.dropFirst() {
      guard let equals = field.firstIndex(of: "=") else { continue }
      guard field[..<equals].trimmingSpaces.lowercased() == "boundary" else { continue }
      var value = field[field.index(after: equals)...].trimmingSpaces
      if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
        value = String(value.dropFirst().dropLast())
      }
      guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ (32...126).contains($0) }) else {
        throw MultipartError("the boundary must be 1 to 70 printable ASCII characters")
      }
      return value
    }
    throw MultipartError("the content type has no boundary parameter")
  }

  /// A part's headers: the disposition's name and file name, and the content type.
  public static func headers(_ bytes: [UInt8]) throws(MultipartError) -> Part {
    guard let text = UTF8Text.decode(bytes) else {
      throw MultipartError("a part's headers are not UTF-8")
    }
    var name: String?
    var filename: String?
    var contentType: String?
    for line in text.split(separator: "\r\n", omittingEmptySubsequences: false) {
      guard let colon = line.firstIndex(of: ":") else {
        throw MultipartError("a part's header line has no ':'")
      }
      let field = line[..<colon].trimmingSpaces.lowercased()
      let value = line[line.index(after: colon)...].trimmingSpaces
      switch field {
      case "content-disposition":
        let parameters = try dispositionParameters(value)
        name = parameters["name"]
        filename = parameters["filename"]
      case "content-type":
        contentType = value
      default:
        continue
      }
    }
    guard let name, !name.isEmpty else {
      throw MultipartError("a part has no Content-Disposition: form-data; name=\"…\"")
    }
    return Part(name: name, filename: filename, contentType: contentType, body: [])
  }

  /// `form-data; name="frame"; filename="a.png"` → `["name": "frame", "filename": "a.png"]`.
  private static func dispositionParameters(_ value: String) throws(MultipartError) -> [String: String] {
    var scalars = Substring(value)
    func token() -> Substring {
      let end = scalars.firstIndex { $0 == ";" || $0 == "=" } ?? scalars.endIndex
      defer { scalars = scalars[end...] }
      return scalars[..<end]
    }
    guard token().trimmingSpaces.lowercased() == "form-data" else {
      throw MultipartError("a part's Content-Disposition is not form-data")
    }
    var parameters: [String: String] = [:]
    while let first = scalars.first {
      guard first == ";" else { throw MultipartError("a Content-Disposition parameter is malformed") }
      scalars = scalars.dropFirst()
      let key = token().trimmingSpaces.lowercased()
      guard scalars.first == "=" else {
        if key.isEmpty { continue }
        throw MultipartError("Content-Disposition parameter '\(key)' has no value")
      }
      scalars = scalars.dropFirst().drop { $0 == " " || $0 == "\t" }
      if scalars.first == "\"" {
        var result = ""
        var index = scalars.index(after: scalars.startIndex)
        var closed = false
        while index < scalars.endIndex {
          let character = scalars[index]
          if character == "\\", scalars.index(after: index) < scalars.endIndex {
            index = scalars.index(after: index)
            result.append(scalars[index])
          } else if character == "\"" {
            closed = true
            break
          } else {
            result.append(character)
          }
          index = scalars.index(after: index)
        }
        guard closed else { throw MultipartError("Content-Disposition parameter '\(key)' has an unclosed quote") }
        scalars = scalars[scalars.index(after: index)...].drop { $0 == " " || $0 == "\t" }
        parameters[key] = result
      } else {
        parameters[key] = token().trimmingSpaces
      }
    }
    return parameters
  }

  /// The first index of `pattern` in `bytes` at or after `start` (and, with `within`, starting
  /// no further than that many bytes after it).
  public static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int, within: Int? = nil) -> Int? {
    guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
    var last = bytes.count - pattern.count
    if let within { last = min(last, start + within) }
    guard start <= last else { return nil }
    return bytes.withUnsafeBufferPointer { buffer -> Int? in
      var index = start
      while index <= last {
        if buffer[index] == first {
          var matched = true
          for offset in 1..<pattern.count where buffer[index + offset] != pattern[offset] {
            matched = false
            break
          }
          if matched { return index }
        }
        index += 1
      }
      return nil
    }
  }
}

/// A multipart body that is not well-formed, or a part refused while it was read.
public struct MultipartError: Error, Sendable, CustomStringConvertible {
  public var message: String
  /// The part that passed its limit, and the limit.
  public var tooLarge: (part: String, limit: Int)?
  /// A part whose name the reader was told to refuse.
  public var unknownPart: String?
  public init(_ message: String) { self.message = message }
  public var description: String { "malformed multipart/form-data body: \(message)" }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs.
  package var trimmingSpaces: String {
    let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" }
    var end = scalars.endIndex
    while end > scalars.startIndex {
      let before = scalars.index(before: end)
      guard scalars[before] == " " || scalars[before] == "\t" else { break }
      end = before
    }
    return String(String.UnicodeScalarView(scalars[..<end]))
  }
}
