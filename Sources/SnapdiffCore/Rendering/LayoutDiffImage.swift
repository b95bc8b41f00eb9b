/// Draws layout changes over the current frame: the frame faded, then for every change a box
/// where the element was (blue) and where it is (red); added elements in green, removed ones in
/// orange.
public enum LayoutDiffImage {
  public static let wasColor = RGBAColor(red: 0, green: 102, blue: 255)
  public static let isColor = RGBAColor(red: 255, green: 0, blue: 0)
  public static let addedColor = RGBAColor(red: 0, green: 170, blue: 0)
  public static let removedColor = RGBAColor(red: 255, green: 140, blue: 0)

  public static func draw(_ changes: [LayoutComparison.Change], over current: RGBAImage, scale: Int) -> RGBAImage {
    var canvas = Canvas(
      width: current.width, height: current.height, background: RGBAColor(red: 255, green: 255, blue: 255))
    canvas.withImage { $0 = current }
    // Fade what did not change, so the boxes stand out.
    canvas.fill(canvas.bounds, RGBAColor(red: 255, green: 255, blue: 255, alpha: 190), clip: canvas.bounds)
    let line = max(2, scale)
    for change in changes {
      switch change.kind {
      case .added:
        canvas.stroke(change.after!.pixels(scale: scale), width: line, addedColor, clip: canvas.bounds)
      case .removed:
        canvas.stroke(change.before!.pixels(scale: scale), width: line, removedColor, clip: canvas.bounds)
      case .moved, .resized, .relabelled:
        canvas.stroke(change.before!.pixels(scale: scale), width: line, wasColor, clip: canvas.bounds)
        canvas.stroke(change.after!.pixels(scale: scale), width: line, isColor, clip: canvas.bounds)
      }
    }
    return canvas.image
  }
}
