import Localization

extension Localizer {
  /// A search chip (`tag:"UI Design"`, `-priority:low`, `is:open`, `-crash`) as a person reads
  /// it: a tag's name, a priority or status in this language, "not …" for an exclusion. A chip
  /// that is not one token reads as it is written.
  public func chipLabel(_ chip: String) -> String {
    guard let query = try? SearchParser.parse(chip), query.text.isEmpty, query.chips.count == 1
    else { return chip }
    if let name = query.tags.first { return name }
    if let name = query.excludedTags.first { return self("search.chip.not", .string(name)) }
    if let priority = query.priorities.first { return priorityChip(priority) }
    if let priority = query.excludedPriorities.first {
      return self("search.chip.not", .string(priorityChip(priority)))
    }
    if let status = query.statuses.first { return name(of: status) }
    if let text = query.excludedText.first {
      return self("search.chip.notText", .string(text))
    }
    return chip
  }

  private func priorityChip(_ priority: Priority) -> String {
    self("search.chip.priority", .string(name(of: priority)))
  }
}
