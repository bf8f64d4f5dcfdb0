import Localization

/// The names every face gives filters and sorts, shown and announced alike.
extension Localizer {
  public func filterName(_ filter: IssueFilter, tags: [Tag]) -> String {
    if case .tag(let id) = filter {
      return tags.first { $0.id == id }?.name ?? self("tui.tag")
    }
    return name(ofSmartFilter: filter) ?? ""
  }

  public func sortName(_ sort: IssueSort) -> String {
    sortFieldName(sort.field) + (sort.ascending ? " ↑" : " ↓")
  }

  public func sortFieldName(_ field: IssueSort.Field) -> String {
    switch field {
    case .priority: self("tui.sort.priority")
    case .date: self("tui.sort.date")
    case .title: self("tui.sort.title")
    }
  }

  public func priorityName(_ priority: Priority) -> String {
    switch priority {
    case .high: self("priority.high")
    case .medium: self("priority.medium")
    case .low: self("priority.low")
    }
  }
}
