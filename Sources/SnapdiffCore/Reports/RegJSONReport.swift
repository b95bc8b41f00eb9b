/// `reg.json`: the run in the shape [reg-cli](https://github.com/reg-viz/reg-cli) writes, for
/// tools built on it (reg-suit's notifiers, scripts that read `failedItems`).
///
/// Items are file names, `<key>.png`, in the record's order:
///
/// | member | snapshots |
/// |---|---|
/// | `failedItems` | `failed` and `rejected` |
/// | `newItems` | `new` |
/// | `deletedItems` | `missing` |
/// | `passedItems` | `passed` and `approved` |
/// | `expectedItems` | every snapshot with a baseline (all but `new`) |
/// | `actualItems` | every snapshot with a current frame (all but `missing`) |
/// | `diffItems` | `failed` and `rejected` snapshots with a diff image |
///
/// As in reg-cli, the folders are relative to the report's own folder (the run folder):
/// `actualDir` is the run's `currentDirectory`, `expectedDir` its `baselinesDirectory`, and
/// `diffDir` is `diff`, where the run writes its diff images. For a `reg.json` written elsewhere,
/// `rebase` turns those run-folder-relative paths into paths from the report's folder. A snapshot
/// with an `error` is listed by its status; reg-cli has no place for errors.
///
/// ```swift
/// try FileIO.writeAtomically(Array(RegJSONReport.render(run).utf8), to: folder + "/reg.json")
/// ```
public enum RegJSONReport {
  /// The file's name in the run folder.
  public static let fileName = "reg.json"

  /// The report as a JSON value, members in reg-cli's order.
  ///
  /// - Parameters:
  ///   - run: The run.
  ///   - rebase: How the report names a folder given relative to the run folder (`actualDir`,
  ///     `expectedDir`, `diffDir`); unchanged by default, which is right for a report in the run
  ///     folder.
  public static func json(_ run: RunRecord, rebase: (String) -> String = { $0 }) -> JSONValue {
    func items(_ include: (SnapshotRecord) -> Bool) -> JSONValue {
      .array(run.snapshots.filter(include).map { .string($0.key + ".png") })
    }
    func failed(_ snapshot: SnapshotRecord) -> Bool {
      snapshot.status == .failed || snapshot.status == .rejected
    }
    return .object([
      ("failedItems", items(failed)),
      ("newItems", items { $0.status == .new }),
      ("deletedItems", items { $0.status == .missing }),
      ("passedItems", items { $0.status == .passed || $0.status == .approved }),
      ("expectedItems", items { $0.status != .new }),
      ("actualItems", items { $0.status != .missing }),
      ("diffItems", items { failed($0) && $0.diff != nil }),
      ("actualDir", .string(rebase(run.currentDirectory))),
      ("expectedDir", .string(rebase(run.baselinesDirectory))),
      ("diffDir", .string(rebase("diff"))),
    ])
  }

  /// The whole `reg.json` text, pretty-printed, ending with a line feed; `rebase` as in
  /// ``json(_:rebase:)``.
  public static func render(_ run: RunRecord, rebase: (String) -> String = { $0 }) -> String {
    json(run, rebase: rebase).serialized(pretty: true) + "\n"
  }
}
