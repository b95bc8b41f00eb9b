/// A JSON document with keys kept in the order they were given, written without Foundation so
/// that reports are byte-stable across platforms.
public indirect enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    lhs.serialized() == rhs.serialized()
  }

  /// The JSON text; `pretty` puts each member on its own line, indented by two spaces.
  public func serialized(pretty: Bool = false) -> String {
    var text = ""
    write(to: &text, pretty: pretty, indent: 0)
    return text
  }

  private func write(to text: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .int(let value): text += String(value)
    case .double(let value):
      if !value.isFinite {
        text += "null"
      } else if value == value.rounded() && abs(value) < 1e15 {
        text += String(Int(value))
      } else {
        text += String(value)
      }
    case .string(let value): JSONValue.writeString(value, to: &text)
    case .array(let values):
      writeContainer(
        open: "[", close: "]", count: values.count, to: &text, pretty: pretty, indent: indent
      ) { index, text in
        values[index].write(to: &text, pretty: pretty, indent: indent + 1)
      }
    case .object(let members):
      writeContainer(
        open: "{", close: "}", count: members.count, to: &text, pretty: pretty, indent: indent
      ) { index, text in
        JSONValue.writeString(members[index].0, to: &text)
        text += pretty ? ": " : ":"
        members[index].1.write(to: &text, pretty: pretty, indent: indent + 1)
      }
    }
  }

  private func writeContainer(
    open: String, close: String, count: Int, to text: inout String, pretty: Bool, indent: Int,
    element: (Int, inout String) -> Void
  ) {
    text += open
    guard count > 0 else {
      text += close
      return
    }
    for index in 0..<count {
      if index > 0 { text += "," }
      if pretty { text += "\n" + String(repeating: "  ", count: indent + 1) }
      element(index, &text)
    }
    if pretty { text += "\n" + String(repeating: "  ", count: indent) }
    text += close
  }

  private static func writeString(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}
