#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text compared as text, for the `text-aware` match level: inside the box of a text element
/// the label decides, and the pixels only have to show the same ink.
///
/// Text rasterised another way (hinting, LCD subpixel text, subpixel positioning, a hair of
/// stroke) changes as many pixels as a changed word does, so no pixel count tells them apart
/// (docs/comparison.md). The element tree does: it says what each text element reads. So, for
/// each pair of text elements (paired as `LayoutComparison` pairs them):
///
/// 1. a changed label (or field value) is a change, worded: `label 'Senior iOS Engineer' →
///    'Senior iOS Engineers'`;
/// 2. with the same label, the box's pixels must show the same ink, within what rasterisation
///    changes: every pixel that differs (ΔE00 above `deltaE`) must lie within `reach` pixels of
///    ink in both images (glyphs drawn a little differently), the amount of ink must stay within
///    `maxCoverageChange`, it must not move inside the frame, and its glyphs' colour (the
///    most frequent solid ink colour) must stay within `deltaE`. A label that vanishes, is
///    clipped, moves inside its frame, changes colour or sits on a new background fails.
///
/// Moves of the frames themselves are the layout's part (`FrameComparison` checks them to the
/// pixel at this level); pixels outside the boxes are the pixel comparison's.
///
/// ```swift
/// let outcome = TextComparison().compare(baselineImage, baselineTree, currentImage, currentTree)
/// for change in outcome.changes { print(change.sentence) }  // staticText "Total": label '$12' → '$13'
/// ```
public struct TextComparison: Sendable {
  /// The largest ΔE00 under which two pixels are equal: the `perceptual` level's `deltaE`.
  public var deltaE: Double
  /// How much the amount of ink may change, as a fraction of the larger of the two. Default
  /// 0.4: LCD subpixel text and a 0.2-px stroke add up to 25% (measured on the verdicts corpus);
  /// a vanished label loses 100%.
  public var maxCoverageChange: Double
  /// How far, in pixels, the ink may move inside its frame, across and down (the displacement
  /// that best aligns its column and row profiles where the pixels differ: `InkComparison`).
  /// Default 0.75: under every text noise of the verdicts corpora (747 boxes with unchanged
  /// labels, lines up to 362 px wide) it is at most 0.35 px across and 0.59 px down; a title
  /// moved one pixel inside its button, plainly or under text noise, measures 0.92–1.30 px.
  /// (The ink's weighted centre, measured before, drifted up to 1.4 px along a line under
  /// hinting, hence an allowance of 1% of the ink's width then, which let a label moved a pixel
  /// sideways pass.) A move by a whole pixel is also caught by `WholePixelMove`.
  public var maxShift: Double

  public init(deltaE: Double = DiffOptions.defaultDeltaE, maxCoverageChange: Double = 0.4, maxShift: Double = 0.75) {
    self.deltaE = deltaE
    self.maxCoverageChange = maxCoverageChange
    self.maxShift = maxShift
  }

  /// A pixel counts as ink when one of its channels is this far (of 255) from the box's
  /// background: faint enough to include a glyph's outermost anti-aliasing and a rounded
  /// corner's fringe (at 0.2 of 255, the corpus' radius noise left 6 fringe pixels unexplained),
  /// above the ±2 levels a colour conversion leaves on flat colour.
  static let inkLevel = 0.05

  /// The text `element` shows in its frame and what a verdict calls it: the label of static
  /// texts and of the controls that draw their title inside their frame (buttons, links, tabs,
  /// menu items, pop-up and menu buttons); the value of fields (their placeholder when empty),
  /// whose label names the field rather than showing in it. `nil` for every other type: an
  /// image's, a switch's or a cell's label is read out by VoiceOver, not drawn as text in its
  /// frame. An icon-only button is the exception we cannot see from the tree: its label is not
  /// drawn, and its icon is compared as ink.
  static func shownText(of element: Element) -> (attribute: String, text: String)? {
    switch element.elementType {
    case .staticText, .button, .link, .tab, .menuItem, .menuBarItem, .toolbarButton, .popUpButton, .menuButton:
      return element.label.isEmpty ? nil : ("label", element.label)
    case .textField, .secureTextField, .searchField, .textView, .comboBox:
      if let value = element.value, !value.isEmpty { return ("value", value) }
      if let placeholder = element.placeholderValue, !placeholder.isEmpty { return ("placeholder", placeholder) }
      return nil
    default:
      return nil
    }
  }

  /// Whether `element` is a text box: it shows text and none of its descendants does (a button
  /// holding a static text is compared through the static text, its background as pixels).
  static func isTextBox(_ element: Element) -> Bool {
    shownText(of: element) != nil
      && !element.hasDescendant(where: { shownText(of: $0) != nil })
  }

  /// Compares the text elements of two frames.
  ///
  /// - Parameter excluded: elements not compared (masked by the caller).
  /// - Complexity: O(pixels of the text boxes × `reach`).
  public func compare(
    _ baseline: RGBAImage, _ baselineTree: ElementTree, _ current: RGBAImage, _ currentTree: ElementTree,
    excluding excluded: (Element) -> Bool = { _ in false }
  ) -> Outcome {
    // The ink is compared in sRGB, as the perceptual level compares colours.
    let (baseline, current, _) = ColorMatching(metric: .ciede2000).matched(baseline, current)
    let width = min(baseline.width, current.width)
    let height = min(baseline.height, current.height)
    var outcome = Outcome(boxes: [], changes: [], strayPixels: [])
    // Text boxes with the same label whose pixels differ: what their ink did, judged once the
    // whole frame's text is measured (a shift they all share is the renderer's).
    var measured: [(change: Change, ink: InkComparison, origins: Origins, moved: (x: Int, y: Int)?)] = []
    let pairs = LayoutComparison().pairedElements(from: baselineTree, to: currentTree)
    for (before, after) in pairs where Self.isTextBox(before) || Self.isTextBox(after) {
      // Masked by the caller: neither its text nor its pixels count.
      if excluded(before) || excluded(after) { continue }
      let full = before.frame.pixels(scale: baselineTree.scale).union(after.frame.pixels(scale: currentTree.scale))
      let box = full.clamped(toWidth: width, height: height)
      // Off screen (a scrolled-away row): nothing of it is seen, so nothing of it can differ.
      if box.isEmpty { continue }
      outcome.boxes.append(box)
      let old = Self.shownText(of: before)
      let new = Self.shownText(of: after)
      var change = Change(
        kind: .text, elementType: after.elementType,
        identifier: after.identifier.isEmpty ? before.identifier : after.identifier,
        text: old?.text ?? "", box: box, detail: "")
      if old?.text != new?.text {
        // The label decides: whatever the pixels, a different text is a change.
        change.detail = "\(new?.attribute ?? old?.attribute ?? "label") '\(old?.text ?? "")' → '\(new?.text ?? "")'"
        outcome.changes.append(change)
        continue
      }
      // A frame that moved or changed size is the layout's to report (to `frameTolerance` at
      // this level); its ink moved with it, and saying so again would only confuse. A width
      // changed as hinting changes it is not (`hintedWidth`): its glyphs are compared, drifting
      // along the line by up to that change.
      let hinted = Self.hintedWidth(before, baselineTree.scale, after, currentTree.scale)
      if hinted == nil && Self.frameChanged(before.frame, baselineTree.scale, after.frame, currentTree.scale) {
        continue
      }
      if let hinted { outcome.hintedFrames.append((before.frame, after.frame, hinted)) }
      // The same bytes in the same frame: the same ink (most text of most frames).
      if Self.samePixels(baseline, current, in: box) { continue }
      let drift = Int((abs(hinted ?? 0) * Double(currentTree.scale)).rounded(.up))
      let ink = InkComparison(
        baseline: baseline, current: current, box: box,
        clippedAt: full == box ? nil : PixelSize(width: width, height: height), reach: currentTree.scale,
        drift: drift, deltaE: deltaE)
      // A hinted line's glyphs moved each by its own amount: no one shift along it to measure.
      let origins = (
        x: hinted == nil
          ? (before.frame.x * Double(baselineTree.scale), after.frame.x * Double(currentTree.scale)) : (0, ink.shift.x),
        y: (before.frame.y * Double(baselineTree.scale), after.frame.y * Double(currentTree.scale))
      )
      // Ink moved by a whole pixel inside an unchanged frame (a title in its button).
      let moved = hinted == nil ? WholePixelMove.displacement(baseline, current, in: box) : nil
      measured.append((change, ink, origins, moved))
    }
    // A shift every text element of the frame shares is one rendering effect (a renderer that
    // snaps baselines to whole pixels), not N moved labels.
    let snap = sharedShift(measured.map { shift(of: $0.ink, origins: $0.origins, moved: $0.moved) })
    for (change, ink, origins, moved) in measured {
      let shared = snap.map { sharesShift($0, shift(of: ink, origins: origins, moved: moved)) } ?? false
      if let (kind, detail) = verdict(ink, origins: origins, moved: moved, snapped: shared) {
        var change = change
        change.kind = kind
        change.detail = detail
        outcome.changes.append(change)
      }
      outcome.strayPixels += ink.strayPixels
    }
    return outcome
  }

  /// The one change of a text box whose label is unchanged, the most telling first, or `nil`.
  private func verdict(
    _ ink: InkComparison, origins: Origins, moved: (x: Int, y: Int)?, snapped: Bool
  ) -> (Change.Kind, String)? {
    let (before, after) = (ink.baseline, ink.current)
    let larger = max(before.coverage, after.coverage)
    // No ink on either side (a transparent label both times): nothing to compare.
    if larger == 0 { return nil }
    if abs(after.coverage - before.coverage) > maxCoverageChange * larger {
      // A label that appears had no ink to compare with: its ratio is ∞ (computed, it would
      // trap converting to Int).
      let percent = before.coverage == 0 ? "∞" : "\(Int((after.coverage / before.coverage * 100).rounded()))"
      let words = after.coverage < before.coverage ? "fell" : "rose"
      let vanished = after.coverage == 0 ? " (the text vanished)" : ""
      return (.coverage, "its ink \(words) to \(percent)% of the baseline's\(vanished)")
    }
    // Both sides have ink here (coverage held): how far the ink moved, against its frame.
    let measuredShift = shift(of: ink, origins: origins, moved: moved)
    let (dx, dy) = (measuredShift.dx, measuredShift.dy)
    let horizontal = maxShift
    if snapped {
      // Moved as every text element of the frame moved: the renderer's, not this label's.
    } else if abs(dx) > horizontal || abs(dy) > maxShift {
      var parts: [String] = []
      if abs(dx) > horizontal { parts.append("\(Self.pixels(abs(dx))) \(dx > 0 ? "right" : "left")") }
      if abs(dy) > maxShift { parts.append("\(Self.pixels(abs(dy))) \(dy > 0 ? "down" : "up")") }
      return (.shifted, "its ink moved \(parts.joined(separator: " and ")) inside its frame")
    }
    if let moved, !snapped {
      // A whole-pixel move says the ink moved by more than two thirds of a pixel, not by how
      // much: "about" a pixel.
      var parts: [String] = []
      if moved.x != 0 { parts.append("about 1 px \(moved.x > 0 ? "right" : "left")") }
      if moved.y != 0 { parts.append("about 1 px \(moved.y > 0 ? "down" : "up")") }
      return (.shifted, "its ink moved \(parts.joined(separator: " and ")) inside its frame")
    }
    if let one = before.color, let two = after.color {
      var perceptual = PerceptualDelta()
      let difference = abs(perceptual.delta(one, two))
      if difference > deltaE {
        let shown =
          "\(Self.hex(one)) → \(Self.hex(two)) (ΔE00 \(ElementFrame.format((difference * 10).rounded() / 10)))"
        return (.color, "its text colour changed \(shown)")
      }
    }
    if ink.strayCount > 0 {
      return (.ink, "\(ink.strayCount) pixel\(ink.strayCount == 1 ? "" : "s") differ away from its glyphs")
    }
    return nil
  }

  /// How far, in pixels, a frame may move or change size at the text-aware level: half a pixel,
  /// so a move of one pixel is a change (`--match layout`'s 1-point default lets 1 to 3 pixels
  /// pass). Frames come from the layout, not the rasteriser: on the verdicts corpus they are
  /// equal to the bit under every kind of noise.
  public static let frameTolerance = 0.5

  /// Whether a frame moved or changed size by more than `frameTolerance`.
  static func frameChanged(_ before: ElementFrame, _ beforeScale: Int, _ after: ElementFrame, _ afterScale: Int) -> Bool
  {
    let one = [before.x, before.y, before.width, before.height].map { $0 * Double(beforeScale) }
    let two = [after.x, after.y, after.width, after.height].map { $0 * Double(afterScale) }
    return zip(one, two).contains { abs($0 - $1) > frameTolerance }
  }

  /// Whether the two images hold the same bytes in `box` (inside both).
  static func samePixels(_ a: RGBAImage, _ b: RGBAImage, in box: PixelRect) -> Bool {
    a.pixels.withUnsafeBytes { one in
      b.pixels.withUnsafeBytes { two in
        (box.y..<box.maxY).allSatisfy { y in
          memcmp(
            one.baseAddress! + (y * a.width + box.x) * 4, two.baseAddress! + (y * b.width + box.x) * 4, box.width * 4)
            == 0
        }
      }
    }
  }
}
