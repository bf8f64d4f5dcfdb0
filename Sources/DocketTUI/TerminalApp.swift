import Composable
import Database
import DocketCore
import DocketFeatures
import Foundation
import Localization
import Locking
import Terminal

/// Runs the terminal app until the user quits: reads keys, sends them to the store, draws each
/// new state. Idle means idle: nothing runs between keys but the database's change polling.
@MainActor
public final class TerminalApp {
  private let session: TerminalSession
  private let store: Store<ScreenFeature.State, ScreenFeature.Action>
  private let l10n: Localizer
  private let environment: [String: String]
  private let palette: Palette
  private var renderer = Renderer()
  private var decoder = KeyDecoder()
  private var observation: StoreObservation?
  private var lastFrame = ContinuousClock.now
  private var frameScheduled = false
  private var escapeFlush: Task<Void, Never>?
  private var resizeSource: DispatchSourceSignal?
  private var isQuitting = false
  /// Closed while the person's editor has the terminal.
  private let inputGate = InputGate()

  public init(
    database: DatabaseQueue, language: String, screenReader: Bool, environment: [String: String],
    palette: Palette = .full, mouse: Bool = true
  ) throws {
    self.palette = palette
    let session = TerminalSession(mouse: mouse)
    self.session = session
    let returned = EditorReturn()
    let gate = inputGate
    let settings = try database.read { try $0.fetchSettings() }
    let size = TerminalInfo.size(of: STDOUT_FILENO) ?? (80, 24)
    l10n = DocketStrings.localizer(language: language)
    self.environment = environment
    store = Store(
      initialState: ScreenFeature.State(
        app: AppFeature.State(settings: settings), columns: size.columns, rows: size.rows,
        screenReader: screenReader),
      reducer: ScreenFeature()
    ) {
      $0.database = database
      $0.locale = LanguageCode(language)
      $0.sync = .live(database: database, localizer: DocketStrings.localizer(language: language))
      $0.externalEditor = ExternalEditor { text in
        await MainActor.run {
          // The editor reads the terminal meanwhile: the app's reader leaves it alone.
          gate.isPaused = true
          defer {
            gate.isPaused = false
            returned.app?.editorReturned()
          }
          return ExternalEditor.run(text, session: session, environment: environment)
        }
      }
    }
    returned.app = self
  }

  /// Takes over the terminal and never returns: the process ends when the user quits.
  public func run() throws -> Never {
    try session.start()
    observation = store.observe { [weak self] in self?.stateChanged() }
    startReadingInput()
    watchResizes()
    watchTerminationSignals()
    store.send(.app(.task))
    store.send(.app(.sync(.task)))
    draw()
    dispatchMain()
  }

  private func stateChanged() {
    if store.state.wantsQuit { quit() }
    scheduleFrame()
  }

  /// At most one frame each 1/60 s: changes that come faster are drawn together.
  private func scheduleFrame() {
    guard !frameScheduled else { return }
    let elapsed = ContinuousClock.now - lastFrame
    if elapsed >= .milliseconds(16) {
      draw()
      return
    }
    frameScheduled = true
    Task { @MainActor [weak self] in
      try? await Task.sleep(for: .milliseconds(16) - elapsed)
      self?.frameScheduled = false
      self?.draw()
    }
  }

  private func draw() {
    lastFrame = ContinuousClock.now
    let buffer = ScreenView(state: store.state, l10n: l10n, now: Date()).render().adapted(
      to: palette)
    session.write(renderer.frame(buffer))
  }

  /// Ends the program once the writes in flight have landed (waiting a few seconds at most);
  /// a write that still could not land is said on standard error, after the terminal is back.
  private func quit() {
    guard !isQuitting else { return }
    isQuitting = true
    Task { @MainActor [store, session, l10n] in
      let landed = await WriteDrain.wait(for: store, timeout: WriteDrain.quitTimeout)
      session.restore()
      if !landed {
        FileHandle.standardError.write(
          Data(("docket: " + l10n("tui.quit.writesPending") + "\n").utf8))
        exit(1)
      }
      exit(0)
    }
  }

  /// SIGTERM and SIGHUP quit as `q` does, waiting for writes in flight; a second one ends the
  /// program at once.
  private func watchTerminationSignals() {
    let signalled = Locked(false)
    session.deliverTerminationSignals { [weak self, session] number in
      // A second signal ends the program at once, even if the first one's quitting is stuck.
      if signalled.withLock({ seen in
        defer { seen = true }
        return seen
      }) {
        session.restore()
        _exit(128 + number)
      }
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          guard let self else { exit(128 + number) }
          if self.isQuitting {
            self.session.restore()
            exit(128 + number)
          }
          self.quit()
        }
      }
    }
  }

  // MARK: Input

  private func startReadingInput() {
    let gate = inputGate
    let thread = Thread { [weak self] in
      var bytes = [UInt8](repeating: 0, count: 4096)
      while true {
        // Read only what is typed while no other program has the terminal (the editor): the
        // reader waits for input a moment at a time and looks at the gate before each read.
        if gate.isPaused {
          usleep(20_000)
          continue
        }
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 50)
        if ready < 0, errno == EINTR { continue }
        if ready == 0 || gate.isPaused { continue }
        let count = read(STDIN_FILENO, &bytes, bytes.count)
        // A signal may interrupt the read; only the end of input stops reading.
        if count < 0, errno == EINTR || errno == EAGAIN { continue }
        if count <= 0 { break }
        let chunk = Array(bytes[0..<count])
        DispatchQueue.main.async { MainActor.assumeIsolated { self?.received(chunk) } }
      }
    }
    thread.name = "docket-input"
    thread.start()
  }

  private func received(_ bytes: [UInt8]) {
    // Keys typed while quitting are meant for the shell, not for the app.
    guard !isQuitting else { return }
    escapeFlush?.cancel()
    for key in decoder.decode(bytes) { handle(key) }
    if decoder.hasPending {
      // An Esc alone, or the start of a sequence: a short wait tells which.
      escapeFlush = Task { @MainActor [weak self] in
        try? await Task.sleep(for: .milliseconds(40))
        guard !Task.isCancelled, let self else { return }
        for key in self.decoder.flushPendingEscape() { self.handle(key) }
      }
    }
  }

  private func handle(_ key: Key) {
    switch key {
    case .control("z"):
      session.suspend()
      renderer.invalidate()
      resized()
    case .control("l"):
      renderer.invalidate()
      draw()
    default:
      store.send(.key(key))
    }
  }

  private func watchResizes() {
    signal(SIGWINCH, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.resized() } }
    source.resume()
    resizeSource = source
  }

  private func resized() {
    let size = session.size
    renderer.invalidate()
    store.send(.resized(columns: size.columns, rows: size.rows))
    draw()
  }

  /// Back from the editor: the screen is drawn again in full.
  fileprivate func editorReturned() {
    renderer.invalidate()
    draw()
  }
}

/// Where the editor's return is told: the app, once it exists.
@MainActor
private final class EditorReturn: Sendable {
  weak var app: TerminalApp?
}

/// Whether the app's input reader may read the terminal (not while another program has it).
private final class InputGate: Sendable {
  private let paused = Locked(false)
  var isPaused: Bool {
    get { paused.withLock { $0 } }
    set { paused.withLock { $0 = newValue } }
  }
}
