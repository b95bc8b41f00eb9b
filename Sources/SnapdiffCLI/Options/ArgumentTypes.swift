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
