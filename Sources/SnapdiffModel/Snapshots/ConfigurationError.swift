/// A configuration value that makes no sense, named.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
