/// Any field name, to list every field of a JSON object (a container keyed by a type's own
/// `CodingKeys` lists only those it knows).
private struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension Decoder {
  /// Refuses a field of the object being decoded that `keys` does not name: a misspelt
  /// `"treshold"` is an error naming it, not a setting silently left at its default.
  ///
  /// ```swift
  /// public init(from decoder: any Decoder) throws {
  ///   try decoder.refuseUnknownFields(CodingKeys.self)
  ///   let container = try decoder.container(keyedBy: CodingKeys.self)
  ///   …
  /// }
  /// ```
  ///
  /// - Throws: `DecodingError.dataCorrupted` at the object's path, saying which field is unknown
  ///   and which are known (``JSONProblem`` words it).
  public func refuseUnknownFields<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
    let known = Keys.allCases.map(\.stringValue)
    let fields = try container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue)
    guard let unknown = fields.sorted().first(where: { !known.contains($0) }) else { return }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: codingPath,
        debugDescription: "unknown field '\(unknown)' (the fields are \(known.joined(separator: ", ")))"))
  }
}
