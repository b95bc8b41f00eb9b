import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff branch list|merge`: the branch overlays of a store that is not in git (the
  /// service's).
  struct Branch: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "List or merge the branch overlays of the baseline store (approvals made on a branch through the service).",
      discussion: """
        A team that commits baselines/ with its code does not need this: git is its branch \
        mechanism. The overlays are for the service's store, where a run opened with a branch \
        and a base branch reads and writes <baselines>/.branches/<branch> before the store.
        """,
      subcommands: [List.self, Merge.self]
    )

    struct List: ParsableCommand {
      static let configuration = CommandConfiguration(abstract: "The branches that have an overlay.")

      @OptionGroup(title: "Project")
      var project: ProjectOptions

      func run() throws {
        try reportingErrors {
          let store = try project.project().store
          let branches = BranchOverlay.branches(in: store)
          if branches.isEmpty { print("no branch overlays in \(RunSummary.display(store.root))") }
          for branch in branches {
            let count = try BranchOverlay.contents(of: branch, in: store).count
            print("\(branch)  \(count) baseline\(count == 1 ? "" : "s")")
          }
        }
      }
    }

    struct Merge: ParsableCommand {
      static let configuration = CommandConfiguration(
        abstract: "Promote a branch's overlay into the store (each baseline logged as an approval) and remove it.")

      @Argument(help: ArgumentHelp("The branch.", valueName: "name"))
      var name: String

      @Flag(help: "Show what would be promoted, change nothing.")
      var dryRun = false

      @OptionGroup(title: "Project")
      var project: ProjectOptions

      func run() throws {
        try reportingErrors {
          let resolved = try project.project()
          let history = resolved.history
          let promoted = try BranchOverlay.merge(name, in: history, user: ApprovalLog.processUser, dryRun: dryRun)
          print(
            "\(dryRun ? "would merge" : "merged") branch \(name): \(promoted.count) baseline\(promoted.count == 1 ? "" : "s")"
          )
          for baseline in promoted {
            let variant = baseline.variant.map { "  variant \($0)" } ?? ""
            print("  \(baseline.key)\(variant)\(baseline.environment.map { "  (environment \($0))" } ?? "")")
          }
        }
      }
    }
  }
}
