#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Short, readable descriptions of `DecodingError`s: what is wrong, and where in the document.
public enum JSONProblem {
  /// The problem, named from `document` (`the settings part of 'login'`): `… is missing "name"`
  /// at the top level, `…: $.ignoreRegions[0].x should be a number` further in.
  public static func describe(_ error: any Error, in document: String) -> String {
    let problem = describe(error, document: document)
    return problem.hasPrefix(document) ? problem : "\(document): \(problem)"
  }

  /// - Parameter document: what the top level is called.
  public static func describe(_ error: any Error, document: String = "the document") -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    func path(_ context: DecodingError.Context) -> String {
      let parts = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
      return parts.isEmpty ? document : "$" + parts.joined()
    }
    switch error {
    case .typeMismatch(let type, let context):
      return "\(path(context)) should be \(typeName(type))"
    case .valueNotFound(let type, let context):
      return "\(path(context)) should be \(typeName(type)), not null"
    case .keyNotFound(let key, let context):
      return "\(path(context)) is missing \"\(key.stringValue)\""
    case .dataCorrupted(let context):
      let underlying = context.underlyingError.map { ": \($0)" } ?? ""
      return "\(path(context)): \(context.debugDescription)\(underlying)"
    @unknown default:
      return String(describing: error)
    }
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Int.Type: "a number"
    case is Bool.Type: "true or false"
    case is String.Type: "a string"
    default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
    }
  }
}
