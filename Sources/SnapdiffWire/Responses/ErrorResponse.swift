/// An API error's body: `{"error": {"message": "…", "status": 404}}`. The service answers every
/// refusal under `/api/` with it; a client quotes `error.message` to its user.
public struct ErrorResponse: Codable, Sendable, Equatable {
  public struct Detail: Codable, Sendable, Equatable {
    public var message: String
    public var status: Int

    public init(message: String, status: Int) {
      self.message = message
      self.status = status
    }
  }

  public var error: Detail

  public init(message: String, status: Int) { error = Detail(message: message, status: status) }
}
