import ArgumentParser
import SnapdiffCore

/// Where the baselines, runs and config of a project are: shared by the store commands.
package struct ProjectOptions: ParsableArguments {
  package init() {}

  @Option(help: ArgumentHelp("The baseline store (default: baselines/, or the config's).", valueName: "dir"))
  var baselines: String?

  @Option(
    help: ArgumentHelp(
      "An environment folder in the store (device, OS, scale), searched before the store's root.",
      valueName: "name"))
  var environment: String?

  @Option(help: ArgumentHelp("The config file (default: ./snapdiff.json when present).", valueName: "file"))
  var config: String?

  /// The resolved project: config loaded, paths made absolute.
  package func project() throws -> Project {
    let workingDirectory = FileSystem.currentDirectory()
    var configuration = ProjectConfig()
    var root = workingDirectory
    let configPath = config ?? (FileSystem.isFile(ProjectConfig.fileName) ? ProjectConfig.fileName : nil)
    if let configPath {
      configuration = try ProjectConfig.load(configPath)
      let absolute = FileSystem.absolute(configPath)
      root = PathText.parent(of: absolute)
    }
    let baselinesPath =
      baselines.map { FileSystem.absolute($0) }
      ?? FileSystem.absolute(configuration.baselines ?? "baselines", relativeTo: root)
    let store = try BaselineStore(root: baselinesPath, environment: environment ?? configuration.environment)
    return Project(config: configuration, store: store, runsDirectory: root + "/.snapdiff/runs")
  }
}

/// A project's settings, resolved.
package struct Project {
  package var config: ProjectConfig
  package var store: BaselineStore
  /// `.snapdiff/runs` in the working folder, or beside the config file.
  package var runsDirectory: String

  /// The store's approval log and the runs that name its blobs (`history`, `approve --undo`,
  /// `branch merge`).
  package var history: BaselineHistory { BaselineHistory(store: store, runsDirectory: runsDirectory) }
}
