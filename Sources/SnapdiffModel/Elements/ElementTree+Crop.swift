extension ElementTree {
  /// The tree of the part of the screen inside `area` (points): the screen becomes `area`'s
  /// size, every frame is moved by `area`'s origin and cut to it, and elements wholly outside it
  /// (with all their descendants) are left out. What a snapshot of one element or region sees.
  public func cropped(to area: ElementFrame) -> ElementTree {
    let bounds = ElementFrame(x: 0, y: 0, width: area.width, height: area.height)
    func crop(_ element: Element) -> Element? {
      let children = element.children.compactMap(crop)
      let frame = element.frame.moved(by: -area.x, -area.y).intersection(bounds)
      guard frame != nil || !children.isEmpty else { return nil }
      var cropped = element
      cropped.frame = frame ?? ElementFrame(x: 0, y: 0, width: 0, height: 0)
      cropped.children = children
      return cropped
    }
    let root =
      crop(root) ?? Element(identifier: root.identifier, elementType: root.elementType, frame: bounds)
    return ElementTree(scale: scale, screen: Size(width: area.width, height: area.height), root: root)
  }
}

extension ElementFrame {
  /// The frame moved by `dx`, `dy` points.
  public func moved(by dx: Double, _ dy: Double) -> ElementFrame {
    ElementFrame(x: x + dx, y: y + dy, width: width, height: height)
  }

  /// The part of this frame inside `other`; nil when they share no area.
  public func intersection(_ other: ElementFrame) -> ElementFrame? {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(x + width, other.x + other.width)
    let bottom = min(y + height, other.y + other.height)
    guard right > left, bottom > top else { return nil }
    return ElementFrame(x: left, y: top, width: right - left, height: bottom - top)
  }
}
