import Foundation
import Testing

@testable import DocketCLI

@Suite struct UsageErrorTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test(
    arguments: [
      (["lst"], "docket: unknown command “lst”. Did you mean “list”? See 'docket help'."),
      (
        ["list", "--fitler", "open"],
        "docket: unknown option --fitler for docket list. Did you mean “--filter”?"
      ),
      (["add", "x", "--priority"], "docket: --priority needs a value."),
      (
        ["add", "x", "--priority", "urgent"],
        "docket: “urgent” is not a valid value for --priority: use low, medium, high."
      ),
      (["add", "x", "--json=yes"], "docket: --json takes no value."),
      (["add", "x", "--detail", "a", "--detail", "b"], "docket: --detail may be given only once."),
      (["show"], "docket: show is missing an argument. Usage: docket show REF"),
      (["show", "abcd", "ef01"], "docket: show got too many arguments. Usage: docket show REF"),
      (["tag"], "docket: docket tag needs a subcommand; see 'docket help tag'."),
      (
        ["tag", "renmae", "x"],
        "docket: “renmae” is not a subcommand of docket tag. Did you mean “rename”?"
      ),
      (["tag", "remove", "x"], "docket: “remove” is not a subcommand of docket tag."),
      (["list", "--asc", "--desc"], "docket: --asc and --desc cannot be used together."),
      (["tag", "list", "--asc", "--desc"], "docket: --asc and --desc cannot be used together."),
      (
        ["list", "--remember"],
        "docket: --remember keeps a sort: give it with --sort, --asc or --desc."
      ),
      (["list", "--lang", "fr"], "docket: “fr” is not a valid value for --lang: use en, de."),
      (
        ["--theme", "dark"],
        "docket: “dark” is not a valid value for --theme: use default, high-contrast."
      ),
      (
        ["list", "--sort", "size"],
        "docket: “size” is not a valid value for --sort: use priority, date, title."
      ),
      (
        ["tag", "list", "-s", "cnt"],
        "docket: “cnt” is not a valid value for --sort: use name, count."
      ),
      (
        ["import", "x.csv", "--format", "csv"],
        "docket: “csv” is not a valid value for --format: use docket, taskwarrior, github."
      ),
      (
        ["export", "--format=github"],
        "docket: “github” is not a valid value for --format: use docket, taskwarrior, csv."
      ),
      (
        ["completions", "tcsh"],
        "docket: “tcsh” is not a valid value for completions: use bash, zsh, fish."
      ),
    ] as [([String], String)])
  func theCommandLineWasWrong(arguments: [String], message: String) throws {
    let run = try box.docket(arguments)
    #expect(run.status == 2)
    #expect(run.error == message + "\n")
    #expect(run.output == "")
    // A command line that is wrong is refused before anything is opened or made.
    #expect(!FileManager.default.fileExists(atPath: box.database))
  }

  /// An option with a fixed list of values takes each of them, in any case, and refuses any
  /// other before the command runs; `--priority` takes its short names too.
  @Test func theParserChecksEveryFixedListOfValues() throws {
    var checked: Set<String> = []
    var commands: [(path: [String], spec: CommandSpec)] = [
      ([], CommandSpec(name: "", summary: "", usage: ""))
    ]
    for command in CommandSpec.all {
      commands +=
        command.subcommands.isEmpty
        ? [([command.name], command)] : command.subcommands.map { ([command.name, $0.name], $0) }
    }
    for (path, command) in commands {
      for option in command.allOptions where option.onlyChoices {
        if path.isEmpty || !CommandSpec.globalOptions.contains(where: { $0.name == option.name }) {
          checked.insert((path + ["--" + option.name]).joined(separator: " "))
        }
        let words = path + Array(repeating: "x", count: command.minimumArguments)
        for choice in option.choices + option.choices.map({ $0.uppercased() }) {
          let parsed = try ArgumentParser.parse(words + ["--" + option.name, choice])
          #expect(parsed.value(option.name) == choice.lowercased(), "\(path) \(option.name)")
        }
        #expect(
          throws: UsageError.badValue(
            option: "--" + option.name, value: "no-such-value",
            allowed: option.choices.joined(separator: ", ")), "\(path) \(option.name)"
        ) {
          try ArgumentParser.parse(words + ["--" + option.name, "no-such-value"])
        }
        // Asking for help with a wrong value shows the help, not the error.
        #expect(
          try ArgumentParser.parse(words + ["--" + option.name, "no-such-value", "--help"])
            .has("help"))
      }
    }
    #expect(
      checked == [
        "--lang", "--theme", "list --sort", "tag list --sort", "import --format",
        "export --format", "add --priority", "edit --priority",
      ])
    #expect(try ArgumentParser.parse(["add", "x", "-p", "h"]).value("priority") == "h")
    #expect(try ArgumentParser.parse(["--lang", "de_DE", "list"]).value("lang") == "de_DE")
    #expect(
      throws: UsageError.badValue(option: "--lang", value: "fr", allowed: "en, de")
    ) { try ArgumentParser.parse(["--lang", "fr", "list"]) }
  }

  /// A database made by an earlier version says, on standard error and once, why the first
  /// command takes longer; the command's output is as always.
  @Test func anUpgradedDatabaseSaysSoOnce() throws {
    try box.docket(["add", "Kept through the upgrade"])
    func pretendEarlierVersion() throws {
      _ = try box.sqlite(
        box.database,
        """
        PRAGMA user_version = 6; DELETE FROM schema_migrations WHERE version >= 7;
        DROP INDEX issues_by_activity_desc;
        CREATE INDEX issues_by_activity_desc ON issues (completed, activity DESC, id);
        -- What versions 10 and 9 made, then what version 8 made, as version 7 had it.
        DROP TABLE undo_steps; DROP INDEX changes_lost; DROP INDEX changes_dismissals;
        DROP INDEX changes_issue_deletes;
        DROP INDEX changes_held; ALTER TABLE changes DROP COLUMN held;
        DROP TABLE sync_tag_names; DROP TABLE sync_warned; DROP TABLE sync_own_files;
        CREATE TABLE sync_tag_aliases (id TEXT PRIMARY KEY NOT NULL, canonical TEXT NOT NULL)
          WITHOUT ROWID;
        ALTER TABLE tags ADD COLUMN sync_key TEXT NOT NULL DEFAULT '';
        UPDATE tags SET sync_key = name_key;
        CREATE INDEX tags_by_sync_key ON tags (sync_key);
        DROP TRIGGER tags_capture_insert; DROP TRIGGER tags_capture_rename;
        DROP TRIGGER tags_capture_delete;
        CREATE TRIGGER tags_capture_insert AFTER INSERT ON tags
        WHEN (SELECT applying FROM sync_clock) = 0 BEGIN
          UPDATE sync_clock SET hlc = docket_hlc_tick(hlc);
          UPDATE tags SET sync_key = docket_tag_key(new.name) WHERE seq = new.seq;
        END;
        CREATE TRIGGER tags_capture_rename AFTER UPDATE OF name ON tags
        WHEN (SELECT applying FROM sync_clock) = 0 AND old.name IS NOT new.name BEGIN
          UPDATE sync_clock SET hlc = docket_hlc_tick(hlc);
        END;
        CREATE TRIGGER tags_capture_delete AFTER DELETE ON tags
        WHEN (SELECT applying FROM sync_clock) = 0 BEGIN
          DELETE FROM sync_tag_aliases WHERE canonical = old.id;
        END;
        """)
    }
    try pretendEarlierVersion()
    let upgraded = try box.docket(["list"])
    #expect(upgraded.status == 0)
    #expect(
      upgraded.error
        == "Updating the database for this version of Docket. This happens once; a large database takes a minute or so.\n"
    )
    #expect(upgraded.output.contains("Kept through the upgrade"))
    #expect(
      try box.sqlite(
        box.database, "SELECT sql FROM sqlite_master WHERE name = 'issues_by_activity_desc'"
      )
      .hasSuffix("tag_seqs)\n"))
    let again = try box.docket(["list"])
    #expect(again.error == "")
    #expect(again.output == upgraded.output)
    try pretendEarlierVersion()
    let german = try box.docket(["list", "--json"], environment: ["LANG": "de_DE.UTF-8"])
    #expect(german.error.hasPrefix("Die Datenbank wird für diese Version von Docket aktualisiert."))
    #expect(german.status == 0)
    // Standard output is the JSON alone, and the upgrade left no log behind to read through.
    #expect((try german.json() as? [Any])?.count == 1)
    let log = (try? FileManager.default.attributesOfItem(atPath: box.database + "-wal"))?[.size]
    #expect((log as? Int ?? 0) == 0)
  }

  @Test func syncWithoutARemoteSaysHowToSetOne() throws {
    let run = try box.docket(["sync"])
    #expect(run.status == 1)
    #expect(run.error == "docket: No remote is set. Set one with: docket remote set PATH\n")
    #expect(
      try box.docket(["remote"]).output
        == "No remote is set. Set one with: docket remote set PATH\n")
    #expect(try box.docket(["list"]).status == 0)
  }
}

@Suite struct DatabaseErrorTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func aFileThatIsNotADocketDatabaseIsRefusedUnchanged() throws {
    let path = box.path("notes.txt")
    let text = Data("Remember the milk\n".utf8)
    try text.write(to: URL(fileURLWithPath: path))
    let run = try box.docket(["list", "--db", path], database: false)
    #expect(run.status == 1)
    #expect(
      run.error
        == "docket: \(path) is not a Docket database: it is not an SQLite file. It was left untouched; choose another file with --db.\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
  }

  @Test func aFolderThatCannotBeMadeIsAClearError() throws {
    let blocker = box.path("file")
    try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
    let nested = blocker + "/sub/docket.sqlite"
    let run = try box.docket(["list", "--db", nested], database: false)
    #expect(run.status == 1)
    #expect(run.error == "docket: Cannot open the database \(nested): Not a directory\n")
    let proc = try box.docket(
      ["add", "x", "--db", "/proc/docket-test/docket.sqlite"], database: false)
    #expect(proc.status == 1)
    #expect(
      proc.error.hasPrefix("docket: Cannot open the database /proc/docket-test/docket.sqlite: "))
  }

  @Test func aMissingFolderIsCreated() throws {
    let path = box.path("new/folder/docket.sqlite")
    #expect(try box.docket(["add", "First", "--db", path], database: false).status == 0)
    #expect(FileManager.default.fileExists(atPath: path))
  }

  @Test func theEnvironmentVariableChoosesTheDatabaseAndTheFlagWins() throws {
    let fromVariable = box.path("variable.sqlite")
    #expect(
      try box.docket(
        ["add", "Via variable"], database: false, environment: ["DOCKET_DB": fromVariable]
      ).status == 0)
    #expect(FileManager.default.fileExists(atPath: fromVariable))
    _ = try box.docket(["add", "Via flag"], environment: ["DOCKET_DB": fromVariable])
    let variableList = try box.docket(
      ["list", "--json"], database: false, environment: ["DOCKET_DB": fromVariable])
    #expect(
      variableList.output.contains("Via variable") && !variableList.output.contains("Via flag"))
  }

  @Test func theDefaultDatabaseLivesInTheDataFolder() throws {
    #expect(try box.docket(["add", "Home"], database: false).status == 0)
    #expect(FileManager.default.fileExists(atPath: box.path(".local/share/docket/docket.sqlite")))
  }
}

@Suite struct LanguageTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func germanFromTheEnvironmentOrTheFlag() throws {
    _ = try box.docket(["sample-data"])
    let list = try box.docket(["list", "--limit", "1"], environment: ["LANG": "de_DE.UTF-8"])
    #expect(list.lines.first?.hasPrefix("REF   PRIORITÄT  STATUS   TITEL") == true)
    #expect(
      list.output.contains("Hoch") && list.output.contains("Offen") && list.output.contains("> "))
    let flag = try box.docket(["--lang", "de", "lst"])
    #expect(
      flag.error == "docket: unbekannter Befehl „lst“. Meintest du „list“? Siehe 'docket help'.\n")
    let awards = try box.docket(["awards", "--lang=de"])
    #expect(awards.lines[1].hasSuffix("Lege 10 Vorgänge an."), "\(awards.lines)")
    let english = try box.docket(
      ["awards", "--lang", "en"], environment: ["LC_ALL": "de_DE.UTF-8"])
    #expect(english.lines[1].hasSuffix("Create 10 issues."), "\(english.lines)")
    let help = try box.docket(["help"], environment: ["LANGUAGE": "de", "LANG": "de_AT.UTF-8"])
    #expect(help.lines.first == "Docket: ein lokaler Issue-Tracker.")
  }
}

@Suite struct HelpAndCompletionTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func helpForEveryCommand() throws {
    let general = try box.docket([])
    #expect(general.status == 0)
    #expect(general.output.contains("  add          Create an issue and print its reference."))
    for command in [
      "add", "list", "show", "edit", "close", "reopen", "delete", "tag", "awards", "sample-data",
      "completions",
    ] {
      let viaHelp = try box.docket(["help", command])
      let viaFlag = try box.docket([command, "--help"])
      #expect(viaHelp.status == 0 && viaFlag.status == 0, "\(command)")
      #expect(viaHelp.output == viaFlag.output)
      #expect(viaHelp.output.contains("Usage: docket \(command)"))
    }
    #expect(
      try box.docket(["help", "list"]).output.contains(
        "docket list tag:Bug priority:high --sort date"))
    #expect(try box.docket(["help", "nope"]).status == 2)
    // The version, and the SQLite it runs on.
    let version = try box.docket(["--version"]).output
    #expect(version.hasPrefix("docket 0.1.0 (SQLite 3."))
    #expect(version.hasSuffix(")\n"))
  }

  @Test func completionScriptsForEachShell() throws {
    let bash = try box.docket(["completions", "bash"])
    #expect(bash.output.contains("complete -F _docket docket"))
    #expect(bash.output.contains("sample-data"))
    let zsh = try box.docket(["completions", "zsh"])
    #expect(zsh.output.hasPrefix("#compdef docket"))
    let fish = try box.docket(["completions", "fish"])
    #expect(fish.output.contains("complete -c docket -n '__docket_at list' -l filter"))
    // The bash script is valid bash.
    let script = box.path("docket.bash")
    try Data(bash.output.utf8).write(to: URL(fileURLWithPath: script))
    #expect(try Child.run("/bin/bash", ["-n", script]) == 0)
  }

  /// The system's reason for a database that cannot be opened is said in the reader's language.
  @Test func theSystemsReasonIsInTheReadersLanguage() throws {
    let file = box.path("a-file")
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let english = try box.docket(["list", "--db", file + "/docket.sqlite"], database: false)
    #expect(english.status == 1)
    #expect(english.error.hasSuffix(": Not a directory\n"), "\(english.error)")
    let german = try box.docket(
      ["list", "--db", file + "/docket.sqlite", "--lang", "de"], database: false)
    #expect(german.error.hasSuffix(": Kein Ordner\n"), "\(german.error)")
  }
}
