import SnapdiffModel
import Testing

/// The names frames are attached under, read back from Xcode's suggested export names.
@Suite("frame attachment names")
struct FrameAttachmentNameTests {
  @Test("a key with spaces, slashes and dots round-trips, as named and as Xcode suggests it on export")
  func roundTrip() throws {
    let key = try SnapshotKey("Home - test_search/Home v1.2 – search")
    for suffix in [".png", ".tree.json", ".snapdiff.json"] {
      let name = FrameAttachmentName.name(key: key, suffix: suffix)
      #expect(!name.contains("/") && !name.contains(".") && !name.contains(" "), "\(name)")
      let exported = name + "_3_6F9A1C2E-0B7D-4E55-9D3A-1F2B3C4D5E6F" + (suffix == ".png" ? ".png" : ".json")
      for candidate in [name, exported] {
        let parsed = try #require(FrameAttachmentName.parse(candidate), "\(candidate)")
        #expect(parsed.key == key)
        #expect(parsed.suffix == suffix)
      }
    }
    #expect(
      FrameAttachmentName.name(key: try SnapshotKey("Home - test_search/Home"), suffix: ".png")
        == "snapdiff-frame-Home%20-%20test_search%2FHome")
  }

  @Test("other attachments are not frames")
  func others() {
    #expect(FrameAttachmentName.parse("Screenshot_0_6F9A1C2E-0B7D-4E55-9D3A-1F2B3C4D5E6F.png") == nil)
    #expect(FrameAttachmentName.parse("snapdiff-video-Home") == nil)
    #expect(FrameAttachmentName.parse("snapdiff-frame-%ZZ") == nil)
  }
}
