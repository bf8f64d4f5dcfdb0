import DocketCore
import Localization

/// The names the screen gives filters and sorts, drawn and announced alike.
extension Localizer {
  func filterName(_ filter: IssueFilter, tags: [Tag]) -> String {
    if case .tag(let id) = filter {
      return tags.first { $0.id == id }?.name ?? self("tui.tag")
    }
    return name(ofSmartFilter: filter) ?? ""
  }

  func sortName(_ sort: IssueSort) -> String {
    sortFieldName(sort.field) + (sort.ascending ? " ↑" : " ↓")
  }

  func sortFieldName(_ field: IssueSort.Field) -> String {
    switch field {
    case .priority: self("tui.sort.priority")
    case .date: self("tui.sort.date")
    case .title: self("tui.sort.title")
    }
  }

  func priorityName(_ priority: Priority) -> String {
    switch priority {
    case .high: self("priority.high")
    case .medium: self("priority.medium")
    case .low: self("priority.low")
    }
  }
}
