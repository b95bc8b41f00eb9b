import SnapdiffCore
import Testing

/// `ReviewGroup`: failed snapshots grouped by the same change (exact) or the same kind of edit
/// (similar), as the report, the review page, `status` and `approve --same-as` group them.
@Suite("groups of similar changes")
struct ReviewGroupTests {
  static let blue = RGBAColor(red: 30, green: 136, blue: 229)
  static let red = RGBAColor(red: 229, green: 57, blue: 53)
  static let white = RGBAColor(red: 255, green: 255, blue: 255)

  /// A 90×60 screen: a header in `brand` with a white title `titleWidth` wide, a dark row below.
  static func screen(brand: RGBAColor, titleWidth: Int, row: Int = 30) -> RGBAImage {
    var image = RGBAImage(width: 90, height: 60, filledWith: white)
    fill(&image, PixelRect(x: 0, y: 0, width: 90, height: 16), brand)
    fill(&image, PixelRect(x: 8, y: 5, width: titleWidth, height: 6), white)
    fill(&image, PixelRect(x: 8, y: row, width: 50, height: 4), RGBAColor(red: 20, green: 30, blue: 40))
    return image
  }

  static func fill(_ image: inout RGBAImage, _ rect: PixelRect, _ color: RGBAColor) {
    for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { image[x: x, y: y] = color } }
  }

  /// A failed record of the two images, as a check writes it: its change hash and its kind.
  static func failed(_ key: String, _ baseline: RGBAImage, _ current: RGBAImage) -> SnapshotRecord {
    let result = PixelDiff(options: DiffOptions(matchLevel: .exact)).compare(baseline, current)
    var record = SnapshotRecord(key: key, status: .failed)
    record.changeHash = result.changeHash
    record.difference = DifferenceClassifier().classify(baseline, current, regions: result.regions)
    return record
  }

  @Test("a brand colour changed on 12 screens with 12 titles: one group, the colours in words")
  func brandColour() throws {
    let snapshots = (0..<12).map { index in
      let width = 10 + index * 5
      return Self.failed(
        "Screen\(index)", Self.screen(brand: Self.blue, titleWidth: width),
        Self.screen(brand: Self.red, titleWidth: width))
    }
    #expect(Set(snapshots.compactMap(\.changeHash)).count == 12, "each screen's pixels differ")
    #expect(snapshots.allSatisfy { $0.difference?.kind == .color })
    #expect(snapshots[0].difference?.from == "#1E88E5" && snapshots[0].difference?.to == "#E53935")
    let groups = ReviewGroup.groups(of: snapshots)
    #expect(groups.count == 1)
    let group = try #require(groups.first)
    #expect(group.tier == .similar)
    #expect(group.keys.count == 12)
    #expect(group.edit == "colour #1E88E5 → #E53935")
    #expect(group.description == "the same kind of edit: colour #1E88E5 → #E53935")
    #expect(group.identicalMembers == 0)
  }

  @Test("identical changes inside a similar group are counted; exact alone stays exact")
  func tiers() throws {
    let same = (Self.screen(brand: Self.blue, titleWidth: 20), Self.screen(brand: Self.red, titleWidth: 20))
    let pair = [Self.failed("A", same.0, same.1), Self.failed("B", same.0, same.1)]
    let exact = ReviewGroup.groups(of: pair)
    #expect(exact.map(\.tier) == [.exact])
    #expect(exact[0].changeHash == pair[0].changeHash)
    #expect(exact[0].description == "the same pixels changed the same way")
    let other = Self.failed(
      "C", Self.screen(brand: Self.blue, titleWidth: 40), Self.screen(brand: Self.red, titleWidth: 40))
    let mixed = ReviewGroup.groups(of: pair + [other])
    #expect(mixed.count == 1)
    #expect(mixed[0].tier == .similar && mixed[0].keys == ["A", "B", "C"])
    #expect(mixed[0].identicalMembers == 2 && mixed[0].identicalChanges == 1)
  }

  @Test("another colour pair, an element changed without trees, a single change: not grouped with them")
  func apart() {
    let brand = (0..<2).map { index in
      Self.failed(
        "Brand\(index)", Self.screen(brand: Self.blue, titleWidth: 10 + index * 9),
        Self.screen(brand: Self.red, titleWidth: 10 + index * 9))
    }
    let green = Self.failed(
      "Green", Self.screen(brand: Self.blue, titleWidth: 12),
      Self.screen(brand: RGBAColor(red: 67, green: 160, blue: 71), titleWidth: 12))
    var drawn = Self.screen(brand: Self.blue, titleWidth: 30)
    Self.fill(&drawn, PixelRect(x: 60, y: 40, width: 12, height: 12), Self.red)
    let element = Self.failed("Element", Self.screen(brand: Self.blue, titleWidth: 30), drawn)
    #expect(element.difference?.kind == .element)
    #expect(SimilarChange(element) == nil)
    let groups = ReviewGroup.groups(of: brand + [green, element])
    #expect(groups.map(\.keys) == [["Brand0", "Brand1"]])
  }

  @Test("the same element changed the same way by its tree: one group, whatever the pixels")
  func sameTreeChange() {
    let moved = LayoutChange(
      identifier: "loginButton", elementType: "button", change: "moved", dx: 0, dy: 8, dWidth: 0, dHeight: 0,
      description: "button 'loginButton' moved 8 pt down")
    let records = ["Login", "Signup", "Reset"].enumerated().map { index, key in
      var record = SnapshotRecord(key: key, status: .failed)
      record.changeHash = "00000000000000\(index)\(index)"
      record.difference = DifferenceClass(kind: .element)
      record.layout = key == "Reset" ? [] : [moved]
      return record
    }
    let groups = ReviewGroup.groups(of: records)
    #expect(groups.map(\.keys) == [["Login", "Signup"]])
    #expect(groups.first?.edit == "button 'loginButton' moved 8 pt down")
  }

  @Test("rendering only: the same kind groups, a renderer's 1 px shift at any row")
  func rendering() {
    func record(_ key: String, _ difference: DifferenceClass, hash: String) -> SnapshotRecord {
      var record = SnapshotRecord(key: key, status: .failed)
      record.changeHash = hash
      record.difference = difference
      return record
    }
    let records = [
      record("A", DifferenceClass(kind: .shifted, shift: 1, row: 40), hash: "a1"),
      record("B", DifferenceClass(kind: .shifted, shift: 1, row: 90), hash: "b1"),
      record("C", DifferenceClass(kind: .antialiasing), hash: "c1"),
      record("D", DifferenceClass(kind: .shifted, shift: 12, row: 40), hash: "d1"),
      record("E", DifferenceClass(kind: .shifted, shift: 12, row: 300), hash: "e1"),
    ]
    let groups = ReviewGroup.groups(of: records)
    #expect(groups.map(\.keys) == [["A", "B"]])
    #expect(groups.first?.edit == "rendering only: content shifted down by 1 px")
  }

  @Test("approve --same-as picks the key's group; except leaves members out; the run's groups agree")
  func selection() throws {
    let snapshots = (0..<4).map { index in
      Self.failed(
        "Screen\(index)", Self.screen(brand: Self.blue, titleWidth: 10 + index * 7),
        Self.screen(brand: Self.red, titleWidth: 10 + index * 7))
    }
    var alone = SnapshotRecord(key: "Alone", status: .failed)
    alone.changeHash = "0123456789abcdef"
    var passed = SnapshotRecord(key: "Passed", status: .passed)
    passed.changeHash = nil
    let record = RunRecord(
      id: "r1", createdAt: "2026-11-28T00:00:00Z", currentDirectory: "frames", baselinesDirectory: "baselines",
      environment: nil, recordMode: .missing, complete: true, snapshots: snapshots + [alone, passed])
    #expect(record.reviewGroups.map(\.keys) == [["Screen0", "Screen1", "Screen2", "Screen3"]])
    let picked = try Review.select(Review.Selection(sameAs: "Screen2"), in: record).map(\.key)
    #expect(picked == record.reviewGroups[0].keys)
    let fewer = try Review.select(Review.Selection(sameAs: "Screen2", except: ["Screen0", "Screen3"]), in: record)
    #expect(fewer.map(\.key) == ["Screen1", "Screen2"])
    #expect(try Review.select(Review.Selection(sameAs: "Alone"), in: record).map(\.key) == ["Alone"])
    #expect(throws: RunError.self) {
      try Review.select(Review.Selection(sameAs: "Screen2", except: ["Nope"]), in: record)
    }
  }
}
