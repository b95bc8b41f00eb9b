/// The kind of edit a failed snapshot's change is, whatever else the screen shows and wherever
/// it sits: the same colour replaced by the same colour (a brand colour changed in a header
/// that also shows each screen's own title), the same elements changed the same way by their
/// trees (a button moved 8 pt down), the same rendering-only difference (anti-aliasing, text
/// re-rendered, content shifted by the same 1–2 px), content moved alone by the same pixels (a
/// title a new OS laid 2 px lower and nothing else). Two snapshots with the same `signature`
/// are one group to review (`ReviewGroup`), though their pixels differ.
///
/// A change with none of these (an element drawn differently without trees, a size change)
/// groups only with the same change to the pixel (`changeHash`).
///
/// ```swift
/// if let similar = SimilarChange(snapshot) { print(similar.description) }  // "colour #1E88E5 → #E53935"
/// ```
public struct SimilarChange: Sendable, Hashable {
  /// Equal for the same kind of edit: `tree: button 'login' moved 8 pt down`,
  /// `colour #1E88E5 → #E53935`, `rendering: anti-aliasing only`.
  public var signature: String
  /// The edit in words, for a group's heading.
  public var description: String

  /// The kind of edit `snapshot`'s change is; `nil` when it has none that groups (not failed,
  /// no difference recorded, or a difference that only its pixels describe).
  ///
  /// By its trees first (what an element did is what a person changed), then the colour pair,
  /// then the rendering-only kind.
  public init?(_ snapshot: SnapshotRecord) {
    let tree = (snapshot.layout ?? []).map(\.description).sorted() + (snapshot.text ?? []).sorted()
    if !tree.isEmpty {
      let words = tree.joined(separator: "; ")
      signature = "tree: " + words
      description = words
      return
    }
    guard let difference = snapshot.difference else { return nil }
    switch difference.kind {
    case .color, .hairline:
      guard let from = difference.from, let to = difference.to else { return nil }
      let what = difference.kind == .hairline ? "hairline colour" : "colour"
      signature = "\(what) \(from) → \(to)"
      description = "\(what) \(from) → \(to)"
    case .antialiasing, .rerendered:
      signature = "rendering: " + difference.kind.rawValue
      description = "rendering only: " + difference.sentence
    case .shifted:
      guard let shift = difference.shift else { return nil }
      let direction = "content shifted \(shift > 0 ? "down" : "up") by \(abs(shift)) px"
      if difference.isRenderingOnly {
        // A renderer's 1–2 px shift of a title sits at another row on each screen.
        signature = "rendering: " + direction
        description = "rendering only: " + direction
      } else {
        // A banner inserted: the same amount below the same row.
        signature = direction + " below y=\(difference.row ?? 0)"
        description = signature
      }
    case .moved:
      // The same nudge on many screens: a title a new OS laid 2 px lower everywhere.
      guard let move = difference.move else { return nil }
      signature = "content moved \(move.words) alone"
      description = "content moved \(move.words), nothing else re-rendered"
    case .element, .size:
      return nil
    }
  }
}
