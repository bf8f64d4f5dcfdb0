import DocketCore
import Testing

/// A chip of the search read as words, in each language.
@Suite struct SearchChipLabelTests {
  @Test(arguments: [
    ("tag:\"UI Design\"", "UI Design", "UI Design"),
    ("-tag:Bug", "not Bug", "nicht Bug"),
    ("priority:high", "High priority", "Priorität Hoch"),
    ("-priority:low", "not Low priority", "nicht Priorität Niedrig"),
    ("is:open", "Open", "Offen"),
    ("-is:open", "Completed", "Erledigt"),
    ("-\"two words\"", "not “two words”", "nicht „two words“"),
    // Not one token: as written.
    ("plain", "plain", "plain"),
    ("priority:urgent", "priority:urgent", "priority:urgent"),
    ("tag:a tag:b", "tag:a tag:b", "tag:a tag:b"),
    ("tag:a priority:high", "tag:a priority:high", "tag:a priority:high"),
  ])
  func aChipReadsAsWords(chip: String, english: String, german: String) {
    #expect(DocketStrings.localizer(language: "en").chipLabel(chip) == english)
    #expect(DocketStrings.localizer(language: "de").chipLabel(chip) == german)
  }
}
