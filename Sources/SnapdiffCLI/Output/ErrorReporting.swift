import ArgumentParser

/// Runs a command's work; bad input and I/O errors print `snapdiff: error: …` and exit 2, so
/// that they never look like a regression (exit 1).
package func reportingErrors<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let exit as ExitCode {
    throw exit
  } catch let error as ValidationError {
    throw error
  } catch {
    Console.error(String(describing: error))
    throw ExitCode(2)
  }
}
