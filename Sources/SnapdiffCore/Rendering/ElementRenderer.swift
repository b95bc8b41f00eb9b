/// Draws an element tree into pixels, deterministically: the same tree gives the same bytes on
/// every machine (integer drawing, a bitmap font that ships in the source, no system fonts).
///
/// Each element type has its own look: buttons are filled rounded rectangles with their label,
/// static text is text, images a hatched placeholder, text fields show their value (bullets when
/// secure) or their placeholder, switches are on or off, navigation and tab bars are bars with a
/// separator, alerts sit on a dimmed screen, cells have separators. Children are clipped to their
/// parent. Style hints (`background`, `foreground`) override the default colours.
///
/// ```swift
/// let image = ElementRenderer().render(try ElementTree.load("login.tree.json"))
/// try PNGEncoder().write(image, to: "login.png")
/// ```
public struct ElementRenderer: Sendable {
  /// The version of what this renderer draws (with `BitmapFont.standard`, `Canvas` and the text
  /// drawing). `check` stamps the PNGs it renders with it, and passes a tree-only frame whose
  /// tree equals its baseline's without rendering it only when the baseline was rendered by this
  /// version (`RenderStamp`). Any change that moves a pixel of any rendering must add one; a
  /// test pins the goldens' pixels to this number (`RenderStampTests`).
  public static let version = 1

  public var font: BitmapFont

  public init(font: BitmapFont = .standard) {
    self.font = font
  }

  /// The tree drawn at its own scale, or at `scale` (1, 2 or 3) when given.
  ///
  /// - Complexity: O(pixels covered by elements).
  public func render(_ tree: ElementTree, scale: Int? = nil) -> RGBAImage {
    var tree = tree
    if let scale { tree.scale = max(1, min(3, scale)) }
    let size = tree.pixelSize
    var context = Context(
      canvas: Canvas(width: size.width, height: size.height, background: Palette.screen),
      scale: tree.scale, font: font)
    context.draw(tree.root, parentType: nil, clip: context.canvas.bounds)
    return context.canvas.image
  }
}

/// The default colours, after iOS's light appearance.
enum Palette {
  static let screen = RGBAColor(red: 242, green: 242, blue: 247)
  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let text = RGBAColor(red: 0, green: 0, blue: 0)
  static let secondaryText = RGBAColor(red: 142, green: 142, blue: 147)
  static let tint = RGBAColor(red: 0, green: 122, blue: 255)
  static let green = RGBAColor(red: 52, green: 199, blue: 89)
  static let separator = RGBAColor(red: 198, green: 198, blue: 200)
  static let fieldBorder = RGBAColor(red: 209, green: 209, blue: 214)
  static let bar = RGBAColor(red: 249, green: 249, blue: 249)
  static let placeholder = RGBAColor(red: 229, green: 229, blue: 234)
  static let hatch = RGBAColor(red: 199, green: 199, blue: 204)
  static let switchOff = RGBAColor(red: 233, green: 233, blue: 234)
  static let dimming = RGBAColor(red: 0, green: 0, blue: 0, alpha: 102)
  static let disabled = RGBAColor(red: 174, green: 174, blue: 178)
  static let keyboard = RGBAColor(red: 209, green: 212, blue: 217)
}

/// One rendering pass.
private struct Context {
  var canvas: Canvas
  let scale: Int
  let font: BitmapFont

  /// Points to pixels.
  func px(_ points: Double) -> Int { Int((points * Double(scale)).rounded()) }

  func rect(_ frame: ElementFrame) -> PixelRect { frame.pixels(scale: scale) }

  mutating func draw(_ element: Element, parentType: ElementType?, clip: PixelRect) {
    let box = rect(element.frame)
    let clipped = canvas.intersection(box, clip)
    // An element entirely outside its parent draws nothing, nor do its children.
    guard !clipped.isEmpty || element.elementType == .application else { return }
    let inBar = [.navigationBar, .tabBar, .toolbar].contains(parentType)
    drawSelf(element, box: box, clip: clip, inBar: inBar)
    let childClip = element.elementType == .application ? clip : clipped
    for child in element.children {
      draw(child, parentType: element.elementType, clip: childClip)
    }
  }

  private mutating func drawSelf(_ element: Element, box: PixelRect, clip: PixelRect, inBar: Bool) {
    let background = element.background?.color
    let foreground = element.foreground?.color
    switch element.elementType {
    case .button, .link, .menuButton, .toolbarButton, .popUpButton:
      if inBar || element.elementType == .link {
        if let background { canvas.fill(box, background, clip: clip) }
        let color = element.isEnabled ? (foreground ?? Palette.tint) : Palette.disabled
        text(element.label, in: box, color: color, align: .center, clip: clip)
      } else {
        let fill = element.isEnabled ? (background ?? Palette.tint) : Palette.placeholder
        canvas.fillRounded(box, radius: min(px(12), box.height / 2), fill, clip: clip)
        let color = element.isEnabled ? (foreground ?? Palette.white) : Palette.disabled
        text(element.label, in: box, color: color, align: .center, clip: clip)
      }
    case .staticText:
      if let background { canvas.fill(box, background, clip: clip) }
      text(
        element.value ?? element.label, in: box, color: foreground ?? Palette.text, align: .leading, clip: clip,
        wrap: true)
    case .image, .icon:
      canvas.fill(box, background ?? Palette.placeholder, clip: clip)
      canvas.hatch(box, spacing: px(8), lineWidth: max(1, scale), foreground ?? Palette.hatch, clip: clip)
      canvas.stroke(box, width: max(1, scale / 2), Palette.hatch, clip: clip)
    case .textField, .secureTextField, .searchField, .textView:
      let border = element.hasFocus ? Palette.tint : Palette.fieldBorder
      canvas.strokeRounded(
        box, radius: px(10), width: element.hasFocus ? 2 * max(1, scale / 2) : max(1, scale / 2),
        border, fill: background ?? Palette.white, clip: clip)
      let inset = PixelRect(x: box.x + px(12), y: box.y, width: box.width - px(24), height: box.height)
      if let value = element.value, !value.isEmpty {
        let shown = element.elementType == .secureTextField ? String(repeating: "•", count: value.count) : value
        text(shown, in: inset, color: foreground ?? Palette.text, align: .leading, clip: clip)
      } else if let placeholder = element.placeholderValue {
        text(placeholder, in: inset, color: Palette.secondaryText, align: .leading, clip: clip)
      }
    case .switch, .toggle:
      let isOn = ["1", "on", "true"].contains(element.value?.lowercased() ?? "") || element.isSelected
      let track = PixelRect(x: box.x, y: box.y, width: min(box.width, px(51)), height: min(box.height, px(31)))
      canvas.fillRounded(
        track, radius: track.height / 2, isOn ? (background ?? Palette.green) : Palette.switchOff, clip: clip)
      let knobSize = max(1, track.height - 2 * px(2))
      let knobX = isOn ? track.maxX - px(2) - knobSize : track.x + px(2)
      canvas.fillRounded(
        PixelRect(x: knobX, y: track.y + px(2), width: knobSize, height: knobSize),
        radius: knobSize / 2, Palette.white, clip: clip)
    case .slider:
      let fraction = min(1, max(0, Double(element.value?.replacingPercent() ?? "") ?? 0.5))
      let track = PixelRect(x: box.x, y: box.y + box.height / 2 - px(2), width: box.width, height: px(4))
      canvas.fillRounded(track, radius: track.height / 2, Palette.fieldBorder, clip: clip)
      let filled = PixelRect(x: track.x, y: track.y, width: Int(Double(track.width) * fraction), height: track.height)
      canvas.fillRounded(filled, radius: track.height / 2, foreground ?? Palette.tint, clip: clip)
      let knob = px(28)
      canvas.fillRounded(
        PixelRect(x: filled.maxX - knob / 2, y: box.y + box.height / 2 - knob / 2, width: knob, height: knob),
        radius: knob / 2, Palette.white, clip: clip)
    case .navigationBar, .toolbar:
      canvas.fill(box, background ?? Palette.bar, clip: clip)
      canvas.fill(
        PixelRect(x: box.x, y: box.maxY - max(1, scale / 2), width: box.width, height: max(1, scale / 2)),
        Palette.separator, clip: clip)
      if element.children.isEmpty {
        text(element.label, in: box, color: foreground ?? Palette.text, align: .center, clip: clip)
      }
    case .tabBar:
      canvas.fill(box, background ?? Palette.bar, clip: clip)
      canvas.fill(
        PixelRect(x: box.x, y: box.y, width: box.width, height: max(1, scale / 2)), Palette.separator, clip: clip)
    case .alert, .sheet, .dialog:
      // Alerts dim everything under them, then sit in a rounded card.
      canvas.fill(canvas.bounds, Palette.dimming, clip: canvas.bounds)
      canvas.fillRounded(box, radius: px(14), background ?? Palette.white, clip: clip)
      if element.children.isEmpty || !element.label.isEmpty {
        let title = PixelRect(x: box.x + px(16), y: box.y + px(12), width: box.width - px(32), height: px(24))
        text(element.label, in: title, color: foreground ?? Palette.text, align: .center, clip: clip)
      }
    case .cell, .tableRow:
      canvas.fill(box, background ?? (element.isSelected ? Palette.placeholder : Palette.white), clip: clip)
      let line = max(1, scale / 2)
      canvas.fill(
        PixelRect(x: box.x + px(16), y: box.maxY - line, width: box.width - px(16), height: line),
        Palette.separator, clip: clip)
      // A cell's label repeats its texts; draw it only when no child text shows it.
      if !element.hasDescendant(where: { $0.elementType == .staticText }) {
        let inset = PixelRect(x: box.x + px(16), y: box.y, width: box.width - px(32), height: box.height)
        text(element.label, in: inset, color: foreground ?? Palette.text, align: .leading, clip: clip)
      }
    case .pageIndicator:
      let count = max(1, Int(element.value?.split(separator: " ").last ?? "") ?? 3)
      let current = max(1, Int(element.value?.split(separator: " ").dropFirst().first ?? "") ?? 1)
      let dot = px(8)
      let gap = px(8)
      let total = count * dot + (count - 1) * gap
      for index in 0..<count {
        let x = box.x + (box.width - total) / 2 + index * (dot + gap)
        canvas.fillRounded(
          PixelRect(x: x, y: box.y + (box.height - dot) / 2, width: dot, height: dot), radius: dot / 2,
          index + 1 == current ? (foreground ?? Palette.text) : Palette.fieldBorder, clip: clip)
      }
    case .activityIndicator, .progressIndicator:
      canvas.fillRounded(box, radius: min(box.width, box.height) / 2, background ?? Palette.fieldBorder, clip: clip)
    case .keyboard:
      canvas.fill(box, background ?? Palette.keyboard, clip: clip)
    case .segmentedControl:
      canvas.fillRounded(box, radius: px(8), background ?? Palette.switchOff, clip: clip)
    default:
      if let background { canvas.fill(box, background, clip: clip) }
      if !element.label.isEmpty && element.children.isEmpty && ![.application, .window].contains(element.elementType) {
        text(element.label, in: box, color: foreground ?? Palette.text, align: .leading, clip: clip)
      }
    }
  }

  enum Alignment { case leading, center }

  /// Draws `string` vertically centred in `box`: one line truncated with `…`, or wrapped lines
  /// when `wrap` and the box is tall enough.
  private mutating func text(
    _ string: String, in box: PixelRect, color: RGBAColor, align: Alignment, clip: PixelRect, wrap: Bool = false
  ) {
    guard !string.isEmpty, box.width > 0, box.height > 0 else { return }
    let font = self.font
    // 17 pt body text, smaller when the box is shorter.
    let points = min(17.0, Double(box.height) / Double(scale) * 0.8)
    // The cell's top and bottom rows are mostly empty: let it overflow the box by half a cell.
    let fitting = (box.height + BitmapFont.cellHeight / 2) / BitmapFont.cellHeight
    var textScale = max(1, min(font.scale(forPixelSize: px(points)), fitting))
    // Wrapped text that does not fit steps down in size before it is cut.
    while wrap && textScale > 1
      && font.wrapped(string, toWidth: box.width, scale: textScale).count
        > max(1, box.height / font.lineHeight(scale: textScale))
    {
      textScale -= 1
    }
    let lineHeight = font.lineHeight(scale: textScale)
    let maxLines = wrap ? max(1, box.height / lineHeight) : 1
    let lines =
      maxLines > 1
      ? font.wrapped(string, toWidth: box.width, scale: textScale, maxLines: maxLines)
      : [font.truncated(string, toWidth: box.width, scale: textScale)]
    let top = box.y + (box.height - lines.count * lineHeight) / 2
    let textClip = canvas.intersection(box, clip)
    canvas.withImage { image in
      for (index, line) in lines.enumerated() {
        let width = font.width(of: line, scale: textScale)
        let x = align == .center ? box.x + (box.width - width) / 2 : box.x
        image.drawText(
          line, x: x, y: top + index * lineHeight, color: color, scale: textScale, font: font, clippedTo: textClip)
      }
    }
  }
}

extension String {
  /// `"50%"` → `"0.5"`, for slider values.
  fileprivate func replacingPercent() -> String {
    guard hasSuffix("%"), let number = Double(dropLast()) else { return self }
    return String(number / 100)
  }
}
