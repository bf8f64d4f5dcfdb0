import Database
import DocketCore
import Foundation
import Localization
import Terminal

/// `docket device` (this database's device: its id and name) and `docket device name NAME`.
struct DeviceCommand {
  let context: CommandContext

  func show() throws {
    let database = try context.database()
    // Read where the id exists already; written only the first time.
    let device =
      try database.read { try $0.storedDeviceIdentity(hostName: HostName.current) }
      ?? database.write { try $0.deviceIdentity(hostName: HostName.current) }
    print(device)
  }

  func name() throws {
    let name = context.arguments.arguments.joined(separator: " ")
    guard TagName.normalized(name) != nil else {
      throw CommandFailure.usage(context.l10n("error.device.emptyName"))
    }
    let device = try context.database().write { db -> DeviceIdentity in
      try db.setDeviceName(name)
      return try db.deviceIdentity(hostName: HostName.current)
    }
    print(device)
  }

  private func print(_ device: DeviceIdentity) {
    if context.json {
      context.printJSON(
        .object([
          ("id", .string(device.id.lowercasedText)), ("name", .string(device.name)),
          ("named", .bool(device.isNamed)),
        ]))
      return
    }
    let l10n = context.l10n
    let shown = SafeText.sanitized(device.name)
    let name = device.isNamed ? shown : l10n("device.hostName", .string(shown))
    context.console.line(l10n("device.name", .string(name)))
    context.console.line(l10n("device.id", .string(device.id.lowercasedText)))
  }
}
