import DocketCore
import DocketSync
import Foundation
import HTTPServer
import Localization

/// The changes forms ask for: each one write through the core, then back to a page that says
/// what happened (or the form again, with why it was refused).
extension WebApp {
  func post(_ request: HTTPRequest, _ l10n: Localizer, _ browser: PairedBrowser) -> HTTPResponse {
    let back = Self.safeBack(request.formValue("back"))
    let parts = request.path.split(separator: "/").map(String.init)
    do {
      switch parts.count {
      case 1 where parts[0] == "issues":
        return try create(request, back: back, l10n)
      case 2 where parts[0] == "issues":
        guard let id = UUID(uuidString: parts[1]) else { break }
        return try save(id, request, back: back, l10n)
      case 3 where parts[0] == "issues" && parts[2] == "complete":
        guard let id = UUID(uuidString: parts[1]) else { break }
        let completed = request.formValue("completed") == "1"
        let changed = try database.write { try $0.setCompleted(completed, issueIDs: [id]) }
        return changedRedirect(
          back, said: changed > 0 ? (completed ? "completed" : "reopened") : "unchanged")
      case 3 where parts[0] == "issues" && parts[2] == "delete":
        guard let id = UUID(uuidString: parts[1]) else { break }
        let deleted = try database.write { try $0.deleteIssues([id]) }
        return changedRedirect(back, said: deleted > 0 ? "deleted" : "gone")
      case 3 where parts[0] == "issues" && parts[2] == "restore":
        // The Undo of a delete: the issue back as it was, on every device.
        guard let id = UUID(uuidString: parts[1]) else { break }
        let restored = try database.write { try $0.restoreDeletedIssue(id: id) }
        return changedRedirect(back, said: restored != nil ? "restored" : "unchanged")
      case 2 where parts[0] == "conflicts" && parts[1] == "dismiss":
        _ = try database.write { try $0.dismissAllConflicts() }
        return changedRedirect(back, said: "dismissed")
      case 3 where parts[0] == "conflicts" && (parts[2] == "use" || parts[2] == "dismiss"):
        guard let id = Int64(parts[1]) else { break }
        let outcome = try database.write { db in
          try parts[2] == "use" ? db.useConflict(id) : db.dismissConflict(id)
        }
        let said =
          switch outcome {
          case .used: "used"
          case .dismissed: "dismissed"
          case .notFound: "conflictGone"
          }
        return changedRedirect(back, said: said)
      case 1 where parts[0] == "undo" || parts[0] == "redo":
        let redo = parts[0] == "redo"
        let report = try database.write { db in try redo ? db.redo() : db.undo() }
        guard let report else {
          return redirect(back, said: redo ? "nothingToRedo" : "nothingToUndo")
        }
        live.changed()
        return redirect(
          back, said: redo ? "redone" : "undone", extra: [("kept", String(report.keptCount))])
      case 3 where parts[0] == "issues" && parts[2] == "purge":
        // "Delete now": for good, on every device.
        guard let id = UUID(uuidString: parts[1]) else { break }
        let purged = try database.write { try $0.purgeIssue(id: id, onlyIfDeleted: true) }
        return changedRedirect(back, said: purged ? "purged" : "gone")
      case 2 where parts[0] == "sync" && parts[1] == "passphrase":
        // The passphrase of an encrypted remote this computer has no key for: it opens the key,
        // which the next sync here (the terminal app, `docket sync`) uses. Never kept, never
        // said back.
        let passphrase = request.formValue("passphrase") ?? ""
        guard !passphrase.isEmpty else { return redirect("/settings", said: "wrongPassphrase") }
        // One at a time (each takes 256 MiB for half a second), and only while it is needed.
        Self.unlocking.lock()
        defer { Self.unlocking.unlock() }
        if SyncKeyFile.read(database: database.path) != nil {
          return redirect("/settings", said: "unlocked")
        }
        do {
          try ConfiguredSync.unlock(database, passphrase: passphrase, l10n)
        } catch let failure as SyncFailure {
          if failure.sealing == .wrongPassphrase {
            return redirect("/settings", said: "wrongPassphrase")
          }
          // Any other reason, in the app's own words, on the page itself.
          return try settingsPage(l10n, browser: browser, said: failure.message, status: 422)
        }
        return redirect("/settings", said: "unlocked")
      case 1 where parts[0] == "sort":
        guard let sort = request.formValue("sort").flatMap(IssueSort.init(storageValue:)) else {
          break
        }
        try database.write { db in try db.updateSettings { $0.issueSort = sort } }
        live.changed()
        return HTTPResponse(status: 303, headers: [("Location", back)])
      case 1 where parts[0] == "tags":
        let created = try database.write {
          try $0.createTag(named: request.formValue("name") ?? "", id: makeID())
        }
        return changedRedirect(back, said: created.created ? "tagCreated" : "tagExists")
      case 2 where parts[0] == "tags":
        guard let id = UUID(uuidString: parts[1]) else { break }
        let name = request.formValue("name") ?? ""
        let confirmed = request.formValue("merge") == "1"
        // Onto another tag's name: the page asks whether to merge the two; asked, they merge.
        let offer = try database.write { db -> (source: Tag, target: Tag)? in
          if let target = try db.fetchTag(named: name), target.id != id,
            let source = try db.fetchTag(id: id)
          {
            if !confirmed { return (source, target) }
            try db.mergeTag(id: id, into: target.id)
            return nil
          }
          try db.renameTag(id: id, to: name)
          return nil
        }
        if let offer {
          let tags = NaturalOrder.sorted(try read { try $0.tagSummaries() }) { $0.tag.name }
          return self.page(
            TagsPage(
              tags: tags, l10n: l10n, csrf: security.csrf, readOnly: readOnly, said: nil,
              merging: offer
            ).render(), status: 409)
        }
        return changedRedirect(back, said: confirmed ? "tagsMerged" : "tagRenamed")
      case 3 where parts[0] == "tags" && parts[2] == "delete":
        guard let id = UUID(uuidString: parts[1]) else { break }
        let deleted = try database.write { try $0.deleteTag(id: id) }
        return changedRedirect(back, said: deleted ? "tagDeleted" : "unchanged")
      default:
        break
      }
      return problem(404, l10n, "web.notFound.heading", "web.notFound")
    } catch let error as TagError {
      let tags = (try? read { try $0.tagSummaries() }) ?? []
      let page = TagsPage(
        tags: NaturalOrder.sorted(tags) { $0.tag.name }, l10n: l10n,
        csrf: security.csrf, readOnly: readOnly, said: nil, error: l10n.message(for: error))
      return self.page(page.render(), status: 422)
    } catch {
      return failure(error, l10n)
    }
  }

  private func create(_ request: HTTPRequest, back: String, _ l10n: Localizer) throws
    -> HTTPResponse
  {
    let form = IssueForm(request)
    do {
      // The page names a new issue itself, so that sending it again (its answer lost on the
      // way, or kept while offline and sent later) never makes it twice.
      let chosen = request.formValue("id").flatMap(UUID.init(uuidString:))
      if let chosen {
        let known = try read { db in
          (
            try db.fetchIssue(id: chosen) != nil,
            try db.fetchOne(
              "SELECT 1 FROM changes WHERE row_id = ? LIMIT 1", [chosen.lowercasedText],
              as: Int.self) != nil
          )
        }
        if known.0 || known.1 {
          var location = WebLocation(query: Self.queryItems(of: back))
          location.issue = known.0 ? chosen : nil
          location.mode = .view
          location.pane = nil
          return redirect(location.url, said: known.0 ? "created" : "gone")
        }
      }
      let id = chosen ?? makeID()
      let issue = try database.write { db in
        let chosen = try db.fetchTags().filter { form.tagIDs.contains($0.id) }.map(\.name)
        return try db.createIssue(
          id: id, title: form.title, detail: form.detail, priority: form.priority,
          completed: form.completed, tagNames: chosen + form.newTagNames, now: now(),
          makeTagID: makeID)
      }
      live.changed()
      var location = WebLocation(query: Self.queryItems(of: back))
      location.issue = issue.id
      location.mode = .view
      location.pane = nil
      return redirect(location.url, said: "created")
    } catch let error as IssueError {
      return refusedForm(request, form, error: l10n.message(for: error), l10n)
    } catch let error as TagError {
      return refusedForm(request, form, error: l10n.message(for: error), l10n)
    }
  }

  private func save(_ id: UUID, _ request: HTTPRequest, back: String, _ l10n: Localizer) throws
    -> HTTPResponse
  {
    let form = IssueForm(request)
    guard !form.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return refusedForm(request, form, error: l10n("error.title.empty"), l10n)
    }
    let outcome: EditOutcome
    do {
      outcome = try saveForm(id, form, request)
    } catch let error as IssueError {
      return refusedForm(request, form, error: l10n.message(for: error), l10n)
    } catch let error as TagError {
      return refusedForm(request, form, error: l10n.message(for: error), l10n)
    }
    guard outcome.issue != nil else { return redirect(back, said: "gone") }
    if !outcome.changed { return redirect(back, said: "unchanged") }
    live.changed()
    if !outcome.overwritten.isEmpty {
      return redirect(
        back, said: "overwritten",
        extra: [("fields", outcome.overwritten.map(\.rawValue).joined(separator: ","))])
    }
    return redirect(back, said: "saved")
  }

  /// Writes the edit the form sends, against the values it was made from.
  private func saveForm(_ id: UUID, _ form: IssueForm, _ request: HTTPRequest) throws
    -> EditOutcome
  {
    try database.write { db -> EditOutcome in
      let tags = try db.fetchTags()
      func named(_ ids: [UUID]) -> [Tag] { tags.filter { ids.contains($0.id) } }
      var created: [Tag] = []
      for name in form.newTagNames {
        created.append(try db.createTag(named: name, id: makeID()).tag)
      }
      let base = Issue(
        id: id, title: request.formValue("base_title") ?? "",
        detail: IssueForm.lineEnds(request.formValue("base_detail") ?? ""),
        priority: Priority(name: request.formValue("base_priority") ?? "") ?? .low,
        completed: request.formValue("base_completed") == "1",
        created: Date(timeIntervalSince1970: 0),
        tags: named(request.formValues("base_tag").compactMap { UUID(uuidString: $0) }))
      var edited = base
      edited.title = form.title.trimmingCharacters(in: .whitespacesAndNewlines)
      edited.detail = form.detail
      edited.priority = form.priority
      edited.completed = form.completed
      edited.tags =
        named(Array(form.tagIDs)) + created.filter { tag in !form.tagIDs.contains(tag.id) }
      return try db.saveEdit(IssueEdit(from: base, to: edited))
    }
  }

  /// The page again, with the form as it was sent and why it was refused.
  private func refusedForm(
    _ request: HTTPRequest, _ form: IssueForm, error: String, _ l10n: Localizer
  ) -> HTTPResponse {
    var location = WebLocation(query: Self.queryItems(of: Self.safeBack(request.formValue("back"))))
    let parts = request.path.split(separator: "/")
    if parts.count == 2, let id = UUID(uuidString: String(parts[1])) {
      location.issue = id
      location.mode = .edit
    } else {
      location.issue = nil
      location.mode = .new
    }
    let draft = FormDraft(
      title: form.title, detail: form.detail, priority: form.priority, completed: form.completed,
      tagIDs: form.tagIDs, newTags: request.formValue("new_tags") ?? "", error: error)
    do {
      let data = try read { db in
        try PageData.load(location, from: db, now: now(), localizer: l10n)
      }
      let renderer = PageRenderer(
        data: data, l10n: l10n, csrf: security.csrf, readOnly: readOnly, said: error, draft: draft,
        liveVersion: live.version)
      return page(renderer.page(), status: 422)
    } catch {
      return failure(error, l10n)
    }
  }

  func chooseLanguage(_ request: HTTPRequest) -> HTTPResponse {
    let language = request.formValue("language") ?? ""
    let back = Self.safeBack(request.formValue("back"))
    guard DocketStrings.supportedLanguages.contains(language) else {
      return HTTPResponse(status: 303, headers: [("Location", back)])
    }
    return HTTPResponse(
      status: 303,
      headers: [
        ("Location", back),
        ("Set-Cookie", security.languageCookie(language, secure: security.reached(request).secure)),
      ])
  }
}
/// The fields of the issue form as sent.
struct IssueForm {
  var title: String
  var detail: String
  var priority: Priority
  var completed: Bool
  var tagIDs: Set<UUID>
  var newTagNames: [String]

  init(_ request: HTTPRequest) {
    title = request.formValue("title") ?? ""
    detail = Self.lineEnds(request.formValue("detail") ?? "")
    priority = Priority(name: request.formValue("priority") ?? "") ?? .low
    completed = request.formValue("completed") == "1"
    tagIDs = Set(request.formValues("tag").compactMap { UUID(uuidString: $0) })
    newTagNames = (request.formValue("new_tags") ?? "").split(separator: ",")
      .compactMap { TagName.normalized(String($0)) }
  }

  /// Browsers send the line ends of a form's text as CR LF; Docket keeps LF.
  static func lineEnds(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
  }
}
