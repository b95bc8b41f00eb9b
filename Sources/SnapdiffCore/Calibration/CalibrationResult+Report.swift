/// How calibration is shown: a Markdown confusion table (what `snapdiff calibrate` prints, and
/// what docs/comparison.md holds) and JSON.
extension CalibrationResult {
  /// One line that says what was measured: `133 pairs: 55 noise (51 rendering, 4 appearance), …`.
  public func summary(group: String? = nil) -> String {
    let counts = table(group: group).first?.counts ?? Counts()
    let classes = noiseClasses.compactMap { name in
      counts.noiseByClass[name].map { "\($0.pairs) \(name)" }
    }
    var parts = ["\(counts.noise) noise" + (classes.isEmpty ? "" : " (\(classes.joined(separator: ", ")))")]
    parts.append("\(counts.changes) change\(counts.changes == 1 ? "" : "s")")
    if counts.unknown > 0 { parts.append("\(counts.unknown) unknown (compared, not scored)") }
    let total = counts.noise + counts.changes + counts.unknown
    return "\(group.map { "\($0): " } ?? "")\(total) pair\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
  }

  /// The confusion table as Markdown: per setting, noise passed and failed (failed split by
  /// noise class when there is more than one), changes caught and missed.
  public func markdownTable(group: String? = nil) -> String {
    let classes = noiseClasses
    let split = classes.count > 1
    var header = ["setting", "noise passed", "noise failed"]
    if split { header += classes.map { "\($0) failed" } }
    header += ["changes caught", "changes missed"]
    var lines = [
      "| " + header.joined(separator: " | ") + " |",
      "|---" + String(repeating: "|---:", count: header.count - 1) + "|",
    ]
    for row in table(group: group) {
      let counts = row.counts
      var cells = ["`\(row.setting.name)`" + (row.setting == CalibrationSetting.defaultSetting ? " (default)" : "")]
      cells.append("\(counts.noisePassed) / \(counts.noise)")
      cells.append("\(counts.noiseFailed) / \(counts.noise)")
      if split {
        cells += classes.map { name in
          let tally = counts.noiseByClass[name] ?? Counts.Tally()
          return "\(tally.failed) / \(tally.pairs)"
        }
      }
      cells.append("\(counts.changesCaught) / \(counts.changes)")
      cells.append("\(counts.changesMissed) / \(counts.changes)")
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
  }

  /// The kinds of difference of the pairs the default setting fails, as a check reports them
  /// (`DifferenceClass.group`), by label: how many real changes the `rendering` group (one
  /// group to approve after an OS update) would hold, and how much noise it gathers.
  public func differenceTable(group: String? = nil) -> [(group: String, counts: Counts)] {
    let chosen = measurements.filter { group == nil || $0.pair.group == group }
    return DifferenceClass.groups.compactMap { name in
      var counts = Counts()
      for measurement in chosen where measurement.difference?.group == name {
        counts.add(measurement.pair, passed: false)
      }
      return counts.noise + counts.changes + counts.unknown == 0 ? nil : (name, counts)
    }
  }

  /// `differenceTable` as Markdown: a row per kind, a column per noise class, changes, unknown.
  public func markdownDifferenceTable(group: String? = nil) -> String {
    let classes = noiseClasses
    let header = ["kind of difference at `strict`"] + classes.map { "noise: \($0)" } + ["changes", "unknown"]
    var lines = [
      "| " + header.joined(separator: " | ") + " |",
      "|---" + String(repeating: "|---:", count: header.count - 1) + "|",
    ]
    for (name, counts) in differenceTable(group: group) {
      var cells = [name == "rendering" ? "rendering (one group to approve)" : name]
      cells += classes.map { String(counts.noiseByClass[$0]?.failed ?? 0) }
      cells += [String(counts.changes), String(counts.unknown)]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
  }

  /// Everything as JSON: the pairs counted, each setting's table (and, with `byGroup`, per
  /// group), and each pair's counts at each pixel comparison.
  public func json(byGroup: Bool) -> JSONValue {
    func rows(_ group: String?) -> JSONValue {
      .array(
        table(group: group).map { row in
          let counts = row.counts
          var members: [(String, JSONValue)] = [
            ("setting", .string(row.setting.name)),
            ("matchLevel", .string(row.setting.comparison.matchLevel.rawValue)),
            ("threshold", row.setting.comparison.threshold.map(JSONValue.double) ?? .null),
            ("deltaE", row.setting.comparison.deltaE.map(JSONValue.double) ?? .null),
            ("maxDiffRatio", row.setting.maxDiffRatio.map(JSONValue.double) ?? .null),
          ]
          members.append(
            (
              "noise",
              .object([
                ("pairs", .int(counts.noise)), ("passed", .int(counts.noisePassed)),
                ("failed", .int(counts.noiseFailed)),
                (
                  "failedByClass",
                  .object(
                    counts.noiseByClass.keys.sorted().map { name in
                      let tally = counts.noiseByClass[name]!
                      return (name, .object([("pairs", .int(tally.pairs)), ("failed", .int(tally.failed))]))
                    })
                ),
              ])
            ))
          members.append(
            (
              "changes",
              .object([
                ("pairs", .int(counts.changes)), ("caught", .int(counts.changesCaught)),
                ("missed", .int(counts.changesMissed)),
              ])
            ))
          members.append(
            ("unknown", .object([("pairs", .int(counts.unknown)), ("failed", .int(counts.unknownFailed))])))
          return .object(members)
        })
    }
    var members: [(String, JSONValue)] = [("pairs", .int(measurements.count)), ("settings", rows(nil))]
    if byGroup {
      members.append(("groups", .object(groups.map { ($0, rows($0)) })))
    }
    members.append(
      (
        "differences",
        .object(
          differenceTable().map { name, counts in
            (
              name,
              .object([
                ("noise", .int(counts.noise)),
                (
                  "noiseByClass",
                  .object(counts.noiseByClass.keys.sorted().map { ($0, .int(counts.noiseByClass[$0]!.pairs)) })
                ),
                ("changes", .int(counts.changes)), ("unknown", .int(counts.unknown)),
              ])
            )
          })
      ))
    let comparisons = CalibrationSetting.pixelComparisons(of: settings)
    members.append(
      (
        "cases",
        .array(
          measurements.map { measurement in
            let pair = measurement.pair
            return .object([
              ("id", .string(pair.id)), ("kind", .string(pair.kind.rawValue)),
              ("noiseClass", pair.noiseClass.map(JSONValue.string) ?? .null),
              ("group", pair.group.map(JSONValue.string) ?? .null),
              (
                "differentPixels",
                .object(
                  comparisons.map { comparison in
                    let name = CalibrationSetting(comparison: comparison).name
                    return (name, .int(measurement.counts[comparison]?.differentPixels ?? 0))
                  })
              ),
              ("totalPixels", .int(measurement.counts.values.first?.totalPixels ?? 0)),
              ("difference", measurement.difference.map(\.json) ?? .null),
              (
                "failedAt",
                .array(settings.filter { !measurement.passes($0) }.map { .string($0.name) })
              ),
            ])
          })
      ))
    return .object(members)
  }
}
