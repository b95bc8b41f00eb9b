#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A folder of labelled pairs: PNGs and a `cases.json` that says which two images make each pair
/// and what their difference is.
///
/// ```json
/// [{"id": "login-ios18", "kind": "noise", "a": "pairs/login-a.png", "b": "pairs/login-b.png",
///   "noise_class": "rendering", "repo": "our-app"},
///  {"id": "cart-title", "kind": "change", "a": "pairs/cart-a.png", "b": "pairs/cart-b.png"}]
/// ```
///
/// `kind` is `noise`, `change` or `unknown`; `noise_class` and `repo` are optional, and any other
/// field (a note, a commit) is left alone. `a` and `b` are relative to the file's folder and must
/// stay inside it, links included.
public enum LabelledPairs {
  /// The file name looked for in a folder.
  public static let fileName = "cases.json"
  /// The largest `cases.json` read.
  public static let maximumBytes = 64 << 20

  /// Reads the pairs of `path`: a folder holding `cases.json`, or the JSON file itself.
  ///
  /// - Throws: `FileError` when the file cannot be read; `ConfigurationError` naming the file
  ///   (and the case) when it is not a list of cases, a case lacks a field or repeats an id, a
  ///   kind is unknown, or an image path is absolute, leads out of the folder (`..`, a link) or
  ///   names no file.
  public static func load(_ path: String) throws -> [LabelledPair] {
    let file = FileSystem.isDirectory(path) ? FileSystem.absolute(path) + "/" + fileName : FileSystem.absolute(path)
    guard FileSystem.isFile(file) else {
      throw FileError(
        path: file, message: FileSystem.isDirectory(path) ? "not found: the folder has no \(fileName)" : "not found")
    }
    let bytes = try FileIO.read(file, limit: maximumBytes)
    let entries: [Entry]
    do {
      entries = try JSONDecoder().decode([Entry].self, from: Data(bytes))
    } catch {
      throw ConfigurationError("\(file): not a list of labelled pairs: \(JSONProblem.describe(error))")
    }
    if entries.isEmpty { throw ConfigurationError("\(file): holds no pairs") }
    let folder = PathText.parent(of: file)
    let confinement = Confinement(root: folder, place: "folder")
    var seen: Set<String> = []
    return try entries.enumerated().map { index, entry in
      let name = "case \(index + 1) ('\(entry.id)')"
      guard seen.insert(entry.id).inserted else { throw ConfigurationError("\(file): \(name): the id is used twice") }
      guard let kind = LabelledPair.Kind(rawValue: entry.kind) else {
        let kinds = LabelledPair.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        throw ConfigurationError("\(file): \(name): kind '\(entry.kind)' is not one of \(kinds)")
      }
      func image(_ field: String, _ relative: String) throws -> String {
        if relative.isEmpty || relative.hasPrefix("/") {
          throw ConfigurationError("\(file): \(name): \(field) '\(relative)' must be a path relative to \(folder)")
        }
        let path = FileSystem.absolute(relative, relativeTo: folder)
        do {
          try confinement.check(path)
        } catch {
          let how = error.link.map { ": \($0) is a symbolic link that leads outside it" } ?? ""
          throw ConfigurationError("\(file): \(name): \(field) '\(relative)' leads outside the folder \(folder)\(how)")
        }
        guard FileSystem.isFile(path) else {
          throw ConfigurationError("\(file): \(name): \(field) '\(relative)' names no file (\(path))")
        }
        return path
      }
      return LabelledPair(
        id: entry.id, kind: kind, baseline: try image("a", entry.a), current: try image("b", entry.b),
        noiseClass: kind == .noise ? entry.noiseClass : nil, group: entry.repo)
    }
  }

  /// One case as `cases.json` holds it; other fields are allowed and ignored.
  private struct Entry: Decodable {
    var id: String
    var kind: String
    var a: String
    var b: String
    var noiseClass: String?
    var repo: String?

    enum CodingKeys: String, CodingKey {
      case id, kind, a, b, repo
      case noiseClass = "noise_class"
    }
  }
}
