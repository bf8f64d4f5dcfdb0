#!/usr/bin/env python3
"""The page's own copy of a large tracker, timed in headless Chromium as a phone at 4x CPU
slowdown: the first copy downloaded and stored, its size, the first list drawn from it with the
server stopped, search as you type and opening an issue from it. Run by `make bench` with the
database DocketBench kept; prints a row for each against its budget (as DocketBench, a row
over budget is said, not a failure; a page that cannot be measured is).

    scripts/bench-web-copy.py BINARY DATABASE
"""

import os
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.environ["DOCKET_BINARY"] = os.path.abspath(sys.argv[1])

from selenium.webdriver.common.by import By  # noqa: E402

from Tests.Browser import test_web  # noqa: E402

SLOWDOWN = int(os.environ.get("SLOWDOWN", "4"))


def typed(database):
    """What is typed, a letter at a time: the three commonest long words of the titles, each
    then with a token; never the same text twice (an answer the page keeps is no measure)."""
    counts = {}
    for (title,) in sqlite3.connect(database).execute("SELECT title FROM issues LIMIT 5000"):
        for word in re.findall(r"[a-z]{5,}", title.lower()):
            counts[word] = counts.get(word, 0) + 1
    words = sorted(counts, key=lambda each: (-counts[each], each))[:3] or ["issue"]
    texts = []
    for word in words:
        text = word + " p:h"
        texts += [text[:length] for length in range(1, len(text) + 1)]
    return list(dict.fromkeys(texts))


def row(name, size, samples, budget, unit="ms"):
    median = statistics.median(samples)
    worst = max(samples)
    verdict = "ok" if median <= budget else "OVER"
    print(f"  {name:<52} {size:>8} {median:>9.1f} {worst:>9.1f} {unit:<3} budget {budget:g} {verdict}")
    return verdict == "ok"


def main():
    source = sys.argv[2]
    folder = tempfile.mkdtemp(prefix="docket-bench-copy-")
    try:
        server = test_web.Server(sample=False)
        server.stop()
        # A copy of the kept database, whole (its log folded in).
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(server.database + suffix):
                os.remove(server.database + suffix)
        with sqlite3.connect(source) as original, sqlite3.connect(server.database) as copy:
            original.backup(copy)
        size = sqlite3.connect(server.database).execute("SELECT count(*) FROM issues").fetchone()[0]
        server.cookie = None
        server.start(str(server.port))
        driver = test_web.browser(phone=True)
        try:
            return measure(driver, server, size)
        finally:
            driver.quit()
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def mark(driver, name):
    return driver.execute_script(
        "const m = performance.getEntriesByName(arguments[0]); return m.length ? m[m.length - 1].startTime : null;",
        name)


def measure(driver, server, size):
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
    ok = True
    # The first copy: the page opened, the copy fetched and stored.
    driver.get(server.url)
    test_web.wait(driver, lambda d: mark(d, "docket-copy-stored") is not None, seconds=120)
    stored = mark(driver, "docket-copy-stored")
    copied = test_web.WebAppTest.copied(None, driver)
    if copied != size:
        print(f"  the page's copy holds {copied} issues, not {size}", file=sys.stderr)
        return None
    ok &= row("web copy: first copy downloaded and stored", size, [stored], 10000)
    usage = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.storage.estimate().then(e => done((e.usageDetails && e.usageDetails.indexedDB) || e.usage));
    """)
    ok &= row("web copy: the copy's size in the browser", size, [usage / 1048576], 60, "MiB")

    # The first screens kept (the page makes them once the copy is stored and it is idle).
    test_web.wait(driver, lambda d: mark(d, "docket-screens-kept") is not None, seconds=120)
    # The service worker in control (its shell kept), then the server stopped: the page from
    # the shell, drawn from the copy.
    driver.execute_async_script(
        "navigator.serviceWorker.ready.then(() => arguments[arguments.length - 1]())")
    driver.refresh()
    test_web.wait(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"),
                  seconds=60)
    server.stop()
    firsts = []
    for _ in range(5):
        driver.get(server.base + "/")
        try:
            test_web.wait(driver, lambda d: mark(d, "docket-drawn-from-copy") is not None, seconds=60)
        except Exception:
            print("  not drawn from the copy:", driver.current_url, driver.title, file=sys.stderr)
            return None
        firsts.append(mark(driver, "docket-drawn-from-copy"))
    rows = driver.find_elements(By.CSS_SELECTOR, "#issue-list li")
    if not rows:
        print("  nothing drawn from the copy", file=sys.stderr)
        return None
    ok &= row("web copy: first list from the copy (server stopped)", size, firsts, 300)
    # Search as you type once the page has what it makes while idle (the sort's order, the
    # index of the words): a user reads the first screen before typing.
    test_web.wait(driver, lambda d: mark(d, "docket-copy-indexed") is not None, seconds=120)
    print(f"  {'(the copy read, sorted and indexed, while idle)':<52} {size:>8} "
          f"{mark(driver, 'docket-copy-indexed'):>9.1f} {'':>9} ms")

    # Search as you type: each prefix drawn from the copy (the wait for the typing to pause is
    # the page's choice, not its cost).
    timed = """
        const done = arguments[arguments.length - 1];
        const start = performance.now();
        window.DocketOffline.show(arguments[0], 'replace').then(() => done(performance.now() - start));
    """
    keystrokes = [driver.execute_async_script(timed, "/?q=" + urllib.parse.quote_plus(text))
                  for text in typed(server.database)]
    ok &= row("web copy: search as you type, a keystroke", size, keystrokes, 50)

    ids = driver.execute_script(
        "return Array.from(document.querySelectorAll('#issue-list a')).slice(0, 10)"
        ".map(a => new URL(a.href).searchParams.get('issue'))")
    opens = [driver.execute_async_script(timed, "/?issue=" + id) for id in ids]
    ok &= row("web copy: opening an issue", size, opens, 50)
    return ok


if __name__ == "__main__":
    started = time.time()
    print("\nthe web page's own copy (headless Chromium, a phone at 4x CPU slowdown):")
    outcome = main()
    print(f"  (web copy timings took {time.time() - started:.0f} s)")
    if outcome is None:
        sys.exit(1)
    print("all budgets met" if outcome else "over budget: see the rows marked OVER")
