import Database
import DocketCore
import Foundation
import Localization

/// `docket device` (this database's device: its id and name) and `docket device name NAME`.
struct DeviceCommand {
  let context: CommandContext

  func show() throws {
    let device = try context.database().write {
      try $0.deviceIdentity(hostName: HostName.current)
    }
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
    let name = device.isNamed ? device.name : l10n("device.hostName", .string(device.name))
    context.console.line(l10n("device.name", .string(name)))
    context.console.line(l10n("device.id", .string(device.id.lowercasedText)))
  }
}
