import CSQLite
import Foundation

extension Connection {
  /// Makes a Swift function callable from SQL (in queries and triggers) on this connection.
  public func createFunction(
    _ name: String, argumentCount: Int32, deterministic: Bool,
    _ function: @escaping ([DatabaseValue]) -> DatabaseValue
  ) throws {
    let box = Unmanaged.passRetained(FunctionBox(function)).toOpaque()
    var flags = SQLITE_UTF8
    if deterministic { flags |= SQLITE_DETERMINISTIC }
    let status = sqlite3_create_function_v2(
      handle, name, argumentCount, flags, box,
      { context, count, values in
        let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context))
          .takeUnretainedValue()
        var arguments: [DatabaseValue] = []
        for index in 0..<Int(count) {
          arguments.append(DatabaseValue(sqliteValue: values![index]))
        }
        switch box.function(arguments) {
        case .null: sqlite3_result_null(context)
        case .integer(let number): sqlite3_result_int64(context, number)
        case .real(let number): sqlite3_result_double(context, number)
        case .text(let text):
          text.utf8CString.withUnsafeBufferPointer { buffer in
            docket_sqlite3_result_text_transient(
              context, buffer.baseAddress, Int32(buffer.count - 1))
          }
        case .blob(let data):
          data.withUnsafeBytes { bytes in
            docket_sqlite3_result_blob_transient(context, bytes.baseAddress, Int32(bytes.count))
          }
        }
      }, nil, nil,
      { box in
        if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
      })
    if status != SQLITE_OK { throw error(status, sql: nil) }
  }
}

extension DatabaseValue {
  init(sqliteValue value: OpaquePointer?) {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      if let bytes = sqlite3_value_text(value) {
        let length = Int(sqlite3_value_bytes(value))
        self = .text(
          String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self))
      } else {
        self = .text("")
      }
    case SQLITE_BLOB:
      let length = Int(sqlite3_value_bytes(value))
      if length > 0, let bytes = sqlite3_value_blob(value) {
        self = .blob(Data(bytes: bytes, count: length))
      } else {
        self = .blob(Data())
      }
    default: self = .null
    }
  }
}

private final class FunctionBox {
  let function: ([DatabaseValue]) -> DatabaseValue
  init(_ function: @escaping ([DatabaseValue]) -> DatabaseValue) { self.function = function }
}
