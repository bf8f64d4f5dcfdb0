import DocketCLI
import Foundation

// The docket executable: everything happens in DocketCLI.
let environment = ProcessInfo.processInfo.environment
let commandLine = DocketCommandLine(
  arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
  console: .standard(environment: environment))
commandLine.runAndExit()
