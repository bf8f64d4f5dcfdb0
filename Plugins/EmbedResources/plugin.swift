import Foundation
import PackagePlugin

/// Embeds a target's text resources in its code at build time (`DocketEmbed`): DocketCore's
/// string catalog and DocketWeb's script and style sheet, so that the binary needs no files
/// beside it and no generated copy can go stale.
@main struct EmbedResources: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let tool = try context.tool(named: "DocketEmbed").url
    let folder = target.directoryURL
    let work = context.pluginWorkDirectoryURL
    switch target.name {
    case "DocketCore":
      let catalog = folder.appending(path: "Resources/Localizable.xcstrings")
      let output = work.appending(path: "EmbeddedCatalog.swift")
      return [
        .buildCommand(
          displayName: "Embedding the string catalog", executable: tool,
          arguments: [
            "catalog", catalog.path(percentEncoded: false), output.path(percentEncoded: false),
          ], inputFiles: [catalog],
          outputFiles: [output])
      ]
    case "DocketWeb":
      let files = [
        ("embeddedScript", folder.appending(path: "Assets/app.js")),
        ("embeddedCopyScript", folder.appending(path: "Assets/copy.js")),
        ("embeddedWordsScript", folder.appending(path: "Assets/words.js")),
        ("embeddedOfflineScript", folder.appending(path: "Assets/offline.js")),
        ("embeddedStyle", folder.appending(path: "Assets/app.css")),
        ("embeddedServiceWorker", folder.appending(path: "Assets/sw.js")),
      ]
      let icons = WebIcons.names.map { name in
        (
          "embeddedIcon_" + name.replacingOccurrences(of: "-", with: "_"),
          folder.appending(path: "Assets/icons/\(name).png")
        )
      }
      let output = work.appending(path: "EmbeddedAssets.swift")
      let iconOutput = work.appending(path: "EmbeddedIcons.swift")
      return [
        .buildCommand(
          displayName: "Embedding the web app's script and style", executable: tool,
          arguments: ["text", output.path(percentEncoded: false)]
            + files.map { "\($0.0)=\($0.1.path(percentEncoded: false))" },
          inputFiles: files.map(\.1), outputFiles: [output]),
        .buildCommand(
          displayName: "Embedding the web app's icons", executable: tool,
          arguments: ["binary", iconOutput.path(percentEncoded: false)]
            + icons.map { "\($0.0)=\($0.1.path(percentEncoded: false))" },
          inputFiles: icons.map(\.1), outputFiles: [iconOutput]),
      ]
    default:
      throw EmbedResourcesError(target: target.name)
    }
  }
}

/// The icons in `Sources/DocketWeb/Assets/icons` (drawn by `scripts/make-icons.py`).
enum WebIcons {
  static let names = [
    "icon-192", "icon-512", "icon-maskable-512", "apple-touch-icon", "favicon-32",
  ]
}

struct EmbedResourcesError: Error, CustomStringConvertible {
  var target: String
  var description: String { "EmbedResources knows no resources of the target \(target)" }
}
