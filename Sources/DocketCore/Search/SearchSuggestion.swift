import Foundation
import Localization

/// A token offered while typing `#`.
public struct SearchSuggestion: Equatable, Hashable, Sendable {
  public enum Kind: Equatable, Hashable, Sendable {
    case tag
    case priority
    case status
  }

  public var kind: Kind
  /// What is shown: the tag's name, or the priority or status in the user's language.
  public var label: String
  /// The search token it becomes (`tag:"UI Design"`, `priority:high`, `is:open`).
  public var token: String

  /// Tags (by name), then priorities, then statuses, whose name contains `fragment` (ignoring
  /// case and accents, in the label or the English token), leaving out tokens already chosen.
  public static func suggestions(
    for fragment: String, tags: [Tag], chosen: SearchQuery, localizer: Localizer
  ) -> [SearchSuggestion] {
    let needle = SortKey.fold(fragment)
    func matches(_ names: String...) -> Bool {
      needle.isEmpty || names.contains { SortKey.fold($0).contains(needle) }
    }
    let chosenTags = Set((chosen.tags + chosen.excludedTags).map(TagName.key))
    let tagSuggestions = tags.filter {
      !chosenTags.contains(TagName.key($0.name)) && matches($0.name)
    }
    .map {
      SearchSuggestion(kind: .tag, label: $0.name, token: SearchQuery(tags: [$0.name]).tokens[0])
    }
    // Low, medium, high, as the seed offers them.
    let prioritySuggestions = Priority.allCases
      .filter { !chosen.priorities.contains($0) && matches(localizer.name(of: $0), $0.name) }
      .map {
        SearchSuggestion(
          kind: .priority, label: localizer.name(of: $0), token: "priority:\($0.name)")
      }
    let statusSuggestions = SearchQuery.Status.allCases
      .filter { !chosen.statuses.contains($0) && matches(localizer.name(of: $0), $0.rawValue) }
      .map {
        SearchSuggestion(kind: .status, label: localizer.name(of: $0), token: "is:\($0.rawValue)")
      }
    return tagSuggestions + prioritySuggestions + statusSuggestions
  }
}
