import ArgumentParser
import SnapdiffCore

extension PixelRect: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(commaSeparated: argument)
  }
}

extension RGBAColor: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(commaSeparated: argument)
  }

  public var defaultValueDescription: String { description }
}

/// `--branch` and `--base-branch`: refused at once by the rule the service applies when a run
/// opens (`BranchOverlay.folder(of:)`), not when an overlay folder cannot be made later.
enum BranchArguments {
  static func validate(_ names: [(option: String, value: String?)]) throws {
    for (option, value) in names {
      guard let value else { continue }
      do {
        _ = try BranchOverlay.folder(of: value)
      } catch {
        throw ValidationError("\(option): \(error.description)")
      }
    }
  }
}
