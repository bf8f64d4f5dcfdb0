import Composable
import Database
import DocketCore
import Foundation

/// The issue list: the issues of the current filter, live, narrowed by the search and ordered by
/// the sort; selection, new issue and delete requests go to the root.
public struct IssueListFeature: Reducer {
  public static let pageSize = 100
  /// The list counts its issues up to this many; past it, `total` is one more and the screen
  /// says "1000+".
  public static let countLimit = IssueRequest.shownCountLimit
  public static let debounce: Duration = .milliseconds(300)

  public struct State: Equatable, Sendable {
    public var filter: IssueFilter
    public var showCompleted: Bool
    public var sort: IssueSort
    public var search = SearchField()
    /// The query the list shows: the last search that parsed.
    public var query = SearchQuery.empty
    /// The inline message for a search token with a bad value.
    public var searchError: String?
    /// Offered while a `#word` is being typed.
    public var suggestions: [SearchSuggestion] = []
    public var highlightedSuggestion = 0
    /// The first `limit` issues of the list, in order; `total` is how many there are in all.
    public var issues: [Issue] = []
    public var total = 0
    public var limit = IssueListFeature.pageSize
    public var selection: UUID?
    public var tags: [Tag] = []
    public var isSortMenuPresented = false
    public var errorMessage: String?
    /// False until the first result arrives (to tell "loading" from "empty").
    public var hasLoaded = false

    public init(
      filter: IssueFilter = .open, showCompleted: Bool = false, sort: IssueSort = .default
    ) {
      self.filter = filter
      self.showCompleted = showCompleted
      self.sort = sort
    }

    public var selectedIssue: Issue? { issues.first { $0.id == selection } }
  }

  public enum Action: Equatable, Sendable {
    /// Starts observing the list and the tags (the pane appeared).
    case task
    /// Stops every observation and the pending search (the pane went away).
    case stop
    case loaded(IssuePage)
    /// How many issues a full page's list holds (counted after the page arrived).
    case counted(Int)
    case tagsLoaded([Tag])
    case failed(String)
    /// Set by the root when the filter or the show-completed switch changed.
    case setFilter(IssueFilter, showCompleted: Bool)
    case searchTextChanged(String)
    case searchDebounced
    /// Enter in the search field: typed tokens and exclusions become chips, and the search runs.
    case searchSubmitted
    case suggestionHighlighted(Int)
    case suggestionChosen(SearchSuggestion)
    case chipRemoved(Int)
    case searchCleared
    case sortMenuToggled
    case sortChosen(IssueSort.Field)
    case issueTapped(UUID)
    case selectionCleared
    case loadMore
    case newIssueTapped
    case deleteTapped
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable {
      case selectionChanged(UUID?)
      case newIssueRequested
      case deleteRequested(UUID)
    }
  }

  enum CancelID {
    case observation
    case count
    case tags
    case debounce
  }

  @Dependency(\.database) var database
  @Dependency(\.date) var date
  @Dependency(\.clock) var clock
  @Dependency(\.localizer) var localizer

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      return .merge(
        observe(state),
        .observe(database, localizer, id: CancelID.tags, failed: Action.failed) {
          try $0.fetchTags()
        } send: {
          .tagsLoaded($0)
        })

    case .stop:
      return .merge(
        .cancel(id: CancelID.observation), .cancel(id: CancelID.count),
        .cancel(id: CancelID.tags), .cancel(id: CancelID.debounce))

    case .loaded(let page):
      state.issues = page.issues
      state.hasLoaded = true
      state.errorMessage = nil
      // A page that is not full holds the whole list; a full one is counted in a second query,
      // so that the page reaches the screen without waiting for the count.
      let counting: Effect<Action>
      if let total = page.total {
        state.total = total
        counting = .cancel(id: CancelID.count)
      } else {
        // Until the count arrives, the last one stands (a live change does not make it flicker).
        state.total = max(state.total, page.issues.count)
        counting = observeCount(state)
      }
      if let selection = state.selection, !page.issues.contains(where: { $0.id == selection }),
        page.issues.count < state.limit
      {
        // The selected issue left the list (deleted, or changed elsewhere so it no longer fits).
        state.selection = nil
        return .merge(counting, .send(.delegate(.selectionChanged(nil))))
      }
      return counting

    case .counted(let total):
      state.total = max(total, state.issues.count)
      return .none

    case .tagsLoaded(let tags):
      state.tags = tags
      updateSuggestions(&state)
      return .none

    case .failed(let message):
      state.errorMessage = message
      return .none

    case .setFilter(let filter, let showCompleted):
      guard filter != state.filter || showCompleted != state.showCompleted else { return .none }
      let filterChanged = filter != state.filter
      state.filter = filter
      state.showCompleted = showCompleted
      state.limit = Self.pageSize
      if filterChanged {
        state.issues = []
        state.total = 0
        state.hasLoaded = false
        state.selection = nil
        // A new filter starts a fresh search, as in the seed: the list shows the filter whole.
        state.search = SearchField()
        state.query = .empty
        state.searchError = nil
        state.suggestions = []
        state.highlightedSuggestion = 0
        return .merge(.cancel(id: CancelID.debounce), observe(state))
      }
      return observe(state)

    case .searchTextChanged(let text):
      state.search.text = text
      updateSuggestions(&state)
      let clock = self.clock
      return .run { send in
        try await clock.sleep(for: Self.debounce)
        await send(.searchDebounced)
      }
      .cancellable(id: CancelID.debounce, cancelInFlight: true)

    case .searchDebounced:
      return applySearch(&state)

    case .suggestionHighlighted(let index):
      state.highlightedSuggestion = max(0, min(index, state.suggestions.count - 1))
      return .none

    case .searchSubmitted:
      state.search = state.search.submitted()
      updateSuggestions(&state)
      return .merge(.cancel(id: CancelID.debounce), applySearch(&state))

    case .suggestionChosen(let suggestion):
      state.search.choose(suggestion.token)
      updateSuggestions(&state)
      return .merge(.cancel(id: CancelID.debounce), applySearch(&state))

    case .chipRemoved(let index):
      guard state.search.chips.indices.contains(index) else { return .none }
      state.search.chips.remove(at: index)
      updateSuggestions(&state)
      return .merge(.cancel(id: CancelID.debounce), applySearch(&state))

    case .searchCleared:
      state.search = SearchField()
      updateSuggestions(&state)
      return .merge(.cancel(id: CancelID.debounce), applySearch(&state))

    case .sortMenuToggled:
      state.isSortMenuPresented.toggle()
      return .none

    case .sortChosen(let field):
      state.sort = state.sort.choosing(field)
      state.isSortMenuPresented = false
      let sort = state.sort
      return .merge(
        observe(state),
        .write(database, localizer, failed: Action.failed) { db in
          try db.updateSettings { $0.issueSort = sort }
        })

    case .issueTapped(let id):
      guard state.selection != id else { return .none }
      state.selection = id
      return .send(.delegate(.selectionChanged(id)))

    case .selectionCleared:
      guard state.selection != nil else { return .none }
      state.selection = nil
      return .send(.delegate(.selectionChanged(nil)))

    case .loadMore:
      guard state.issues.count < state.total else { return .none }
      state.limit += Self.pageSize
      return observe(state)

    case .newIssueTapped:
      return .send(.delegate(.newIssueRequested))

    case .deleteTapped:
      guard let selection = state.selection else { return .none }
      return .send(.delegate(.deleteRequested(selection)))

    case .delegate:
      return .none
    }
  }

  /// Parses the search; a good one replaces the query and re-runs the list at once, a bad one
  /// shows its message and leaves the list as it was.
  private func applySearch(_ state: inout State) -> Effect<Action> {
    switch state.search.parse() {
    case .success(let query):
      state.searchError = nil
      guard query != state.query else { return .none }
      state.query = query
      state.limit = Self.pageSize
      return observe(state)
    case .failure(let error):
      state.searchError = localizer.message(for: error)
      return .none
    }
  }

  private func updateSuggestions(_ state: inout State) {
    guard let fragment = state.search.suggestionFragment else {
      state.suggestions = []
      state.highlightedSuggestion = 0
      return
    }
    // Chips and tokens typed before the `#` are chosen already.
    let typed = SearchField(chips: state.search.chips, text: state.search.textWithoutFragment)
    let chosen = (try? SearchParser.parse(typed.fullText)) ?? .empty
    state.suggestions = SearchSuggestion.suggestions(
      for: fragment, tags: state.tags, chosen: chosen, localizer: localizer)
    state.highlightedSuggestion = min(
      state.highlightedSuggestion, max(0, state.suggestions.count - 1))
  }

  /// Observes the first `limit` issues of the current request; replaces any observation running.
  /// The total comes with the page when the page is not full; else `observeCount` finds it.
  private func observe(_ state: State) -> Effect<Action> {
    let request = self.request(state)
    let limit = state.limit
    return .merge(
      .cancel(id: CancelID.count),
      .observe(database, localizer, id: CancelID.observation, failed: Action.failed) { db in
        let issues = try db.fetchIssues(request(), limit: limit)
        return IssuePage(issues: issues, total: issues.count < limit ? issues.count : nil)
      } send: {
        .loaded($0)
      })
  }

  /// Observes how many issues the current request holds, up to just past `countLimit`.
  private func observeCount(_ state: State) -> Effect<Action> {
    let request = self.request(state)
    let limit = max(Self.countLimit, state.limit) + 1
    return .observe(database, localizer, id: CancelID.count, failed: Action.failed) { db in
      try db.countIssues(request(), limit: limit)
    } send: {
      .counted($0)
    }
  }

  /// The request of the list as it is now; Recent counts back from the moment it is run.
  private func request(_ state: State) -> @Sendable () -> IssueRequest {
    let date = self.date
    let (filter, query, sort, showCompleted) = (
      state.filter, state.query, state.sort, state.showCompleted
    )
    return {
      IssueRequest(
        filter: filter, search: query, sort: sort, showCompleted: showCompleted, now: date.now)
    }
  }
}

/// The first issues of a list and how many there are in all: nil for a full page, whose list
/// is counted afterwards.
public struct IssuePage: Equatable, Sendable {
  public var issues: [Issue]
  public var total: Int?

  public init(issues: [Issue], total: Int?) {
    self.issues = issues
    self.total = total
  }
}
