import DocketCore
import Foundation
import Localization

/// A page that says why a request was refused.
struct ProblemPage {
  var l10n: Localizer
  var heading: String
  var message: String

  func render() -> HTML {
    """
    <!DOCTYPE html>
    <html lang="\(l10n.language)"><head><meta charset="utf-8">\
    <meta name="viewport" content="width=device-width, initial-scale=1">\
    <title>\(heading) · Docket</title><link rel="stylesheet" href="/static/app.css"></head>\
    <body><main id="list" class="single"><h1>\(heading)</h1><p>\(message)</p></main></body></html>
    """
  }
}
