import ArgumentParser
import SnapdiffCore

extension PixelRect: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(commaSeparated: argument)
  }

  public static var defaultValueDescription: String { "X,Y,W,H" }
}

extension RGBAColor: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(commaSeparated: argument)
  }

  public var defaultValueDescription: String { description }
}
