import CLibraryLoader
import Foundation
import Testing

/// `docket_load` against the C library every process has, and against one no machine has.
@Suite struct CLibraryLoaderTests {
  #if os(macOS)
    static let systemLibrary = "libSystem.B.dylib"
  #else
    static let systemLibrary = "libc.so.6"
  #endif

  /// Loads `file` asking for `names`; returns the failure, if any, and where each symbol went.
  /// With `thenFile`, loads again after the library's file is changed to it.
  func load(_ file: String, _ names: [String], thenFile: String? = nil) -> (
    failure: String?, addresses: [UnsafeMutableRawPointer?]
  ) {
    var strings: [UnsafeMutablePointer<CChar>] = []
    func c(_ text: String) -> UnsafePointer<CChar> {
      let copy = strdup(text)!
      strings.append(copy)
      return UnsafePointer(copy)
    }
    defer { for string in strings { free(string) } }
    let addresses = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: names.count)
    addresses.initialize(repeating: nil, count: names.count)
    defer { addresses.deallocate() }
    let symbols = names.enumerated().map { index, name in
      docket_symbol(name: c(name), address: addresses + index)
    }
    return symbols.withUnsafeBufferPointer { table in
      let library = UnsafeMutablePointer<docket_library>.allocate(capacity: 1)
      defer { library.deallocate() }
      library.initialize(to: docket_library())
      library.pointee.name = c("libexample")
      library.pointee.about = c("the example library")
      library.pointee.linux_file = c(file)
      library.pointee.mac_file = c(file)
      library.pointee.debian_package = c("libexample1")
      library.pointee.homebrew_formula = c("example")
      library.pointee.symbols = table.baseAddress
      library.pointee.symbol_count = table.count
      var failure = docket_load(library).map { String(cString: $0) }
      if let thenFile {
        library.pointee.linux_file = c(thenFile)
        library.pointee.mac_file = c(thenFile)
        failure = docket_load(library).map { String(cString: $0) }
      }
      return (failure, Array(UnsafeBufferPointer(start: addresses, count: names.count)))
    }
  }

  @Test func everySymbolIsFound() {
    let (failure, addresses) = load(Self.systemLibrary, ["strlen", "memcmp"])
    #expect(failure == nil)
    #expect(addresses.allSatisfy { $0 != nil })
    #expect(addresses[0] != addresses[1])
  }

  @Test func aMissingLibrarySaysWhatToInstall() {
    let (failure, addresses) = load("libdocket-nowhere.so.1", ["strlen"])
    let text = try! #require(failure)
    #expect(text.hasPrefix("libexample, the example library, is not installed ("))
    #expect(text.contains("libdocket-nowhere"))
    #expect(text.hasSuffix("; install libexample1 (Debian, Ubuntu) or example (Homebrew)"))
    #expect(addresses == [nil])
  }

  @Test func aMissingSymbolSaysTheLibraryIsTooOld() {
    let (failure, _) = load(Self.systemLibrary, ["strlen", "docket_no_such_function"])
    #expect(failure == "libexample has no docket_no_such_function: too old a version")
  }

  /// The second call answers as the first did, without trying again.
  @Test func aLibraryIsTriedOnce() {
    let missing = load("libdocket-nowhere.so.1", [], thenFile: Self.systemLibrary).failure
    #expect(missing?.contains("is not installed") == true)
    #expect(load(Self.systemLibrary, ["strlen"], thenFile: "libdocket-nowhere.so.1").failure == nil)
  }
}
