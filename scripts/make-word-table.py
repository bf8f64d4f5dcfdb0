#!/usr/bin/env python3
"""Writes Sources/DocketWeb/Assets/words.js: how SQLite's unicode61 tokenizer (with
remove_diacritics 2, as Docket's full-text index is made) cuts text into words and folds each
character, for the page's own copy to search offline by the index's rules.

Every code point is put to SQLite itself between two letters: one word back means it belongs in
words (in the form SQLite keeps, none for a mark it drops), two means it ends them. Run it again
only when the tokenizer changes; `DocketWebTests` checks the table against the SQLite Docket
links, character by character.
"""
import os
import sqlite3
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUTPUT = os.path.join(ROOT, "Sources", "DocketWeb", "Assets", "words.js")
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def base36(number):
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = DIGITS[digit] + text
        if number == 0:
            return text


def probe():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    points = [cp for cp in range(0x110000) if not 0xD800 <= cp < 0xE000]
    db.executemany("INSERT INTO t(rowid, body) VALUES (?, ?)",
                   ((cp, "q" + chr(cp) + "q") for cp in points))
    found = {}
    for doc, term, offset in db.execute("SELECT doc, term, offset FROM v"):
        found.setdefault(doc, []).append((offset, term))
    separators, folds = [], []
    for cp in points:
        terms = [term for _, term in sorted(found.get(cp, []))]
        if terms == ["q", "q"]:
            separators.append(cp)
        elif len(terms) == 1 and terms[0].startswith("q") and terms[0].endswith("q"):
            kept = terms[0][1:-1]
            if kept != chr(cp):
                if len(kept) > 1:
                    sys.exit(f"U+{cp:04X} becomes {len(kept)} characters: not a table of one each")
                folds.append((cp, ord(kept) if kept else None))
        else:
            sys.exit(f"U+{cp:04X} gives {terms!r}: neither part of a word nor between words")
    return sqlite3.sqlite_version, separators, folds


def main():
    version, separators, folds = probe()
    ranges = []
    for cp in separators:
        if ranges and ranges[-1][1] == cp:
            ranges[-1][1] = cp + 1
        else:
            ranges.append([cp, cp + 1])
    # Each range as the gap from the end of the one before and its length.
    end = 0
    parts = []
    for start, stop in ranges:
        parts.append(base36(start - end) + "." + base36(stop - start))
        end = stop
    separator_text = ",".join(parts)
    # Each fold as the gap from the code point before and what it becomes ("" for nothing).
    last = 0
    parts = []
    for cp, kept in folds:
        parts.append(base36(cp - last) + "." + ("" if kept is None else base36(kept)))
        last = cp
    fold_text = ",".join(parts)
    with open(OUTPUT, "w", encoding="utf-8") as output:
        output.write(f"""\
// How Docket's full-text index cuts text into words and folds their characters: SQLite's
// unicode61 tokenizer with remove_diacritics 2 ({version}), asked about every code point by
// scripts/make-word-table.py, which wrote this file. DocketWebTests checks it against the SQLite
// Docket links. The page's copy (copy.js) searches offline by it.
(function (root, make) {{
  'use strict';
  if (typeof module === 'object' && module.exports) module.exports = make();
  else root.DocketWords = make();
}})(typeof self !== 'undefined' ? self : this, function () {{
  'use strict';
  return {{
    // The code points that end a word: for each run, its start as the gap from the end of the
    // run before, and its length (base 36).
    separators: '{separator_text}',
    // The code points a word keeps in another form: each as the gap from the one before, and
    // the code point it becomes, or nothing for a mark the index drops (base 36).
    folds: '{fold_text}',
  }};
}});
""")
    print(f"words.js: {len(ranges)} runs of separators, {len(folds)} folds (SQLite {version})")


if __name__ == "__main__":
    main()
