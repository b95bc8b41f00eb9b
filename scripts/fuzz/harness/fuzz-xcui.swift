// libFuzzer harness: the XCUITest text-dump parser (`XCUITextDump.parse`).
//
// Any text must either be refused with a `ConfigurationError` naming the file, or give a tree
// the JSON format accepts: what `render` and `compare` read from a `.txt` must be as valid as
// what they read from a `.tree.json` (scale as asked, the screen within 0–100000 points, frames
// finite, within ±100000, no negative size, at most 200 levels: a deeper dump once parsed, then
// overflowed the stack when encoded), and compare with itself as unchanged.
import SnapdiffCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let scale = 1 + size % 3
  let tree: ElementTree
  do {
    tree = try XCUITextDump.parse(
      String(decoding: bytes, as: UTF8.self), path: "fuzz.txt", scale: scale)
  } catch let error as ConfigurationError {
    precondition("\(error)".hasPrefix("fuzz.txt: "), "\(error)")
    return 0
  } catch {
    preconditionFailure("not a ConfigurationError: \(error)")
  }
  precondition(tree.scale == scale)
  let encoded = try! tree.encoded()
  let again: ElementTree
  do {
    again = try ElementTree.decode(encoded, path: "dump.tree.json")
  } catch {
    preconditionFailure("the dump gives a tree the JSON format refuses: \(error)")
  }
  precondition(again == tree, "a parsed tree does not survive encoding")
  precondition(tree.measurements.depth <= ElementTree.maximumDepth)
  precondition(
    LayoutComparison().changes(from: tree, to: tree).isEmpty, "a tree differs from itself")
  return 0
}
