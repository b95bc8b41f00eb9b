extension LayoutChange {
  /// The record of a layout comparison's change.
  public init(_ change: LayoutComparison.Change) {
    self.init(
      identifier: change.identifier, elementType: change.elementType.rawValue, change: change.kind.rawValue,
      dx: change.dx, dy: change.dy, dWidth: change.dWidth, dHeight: change.dHeight, description: change.sentence)
  }
}
