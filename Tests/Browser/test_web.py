"""Docket's web app in a real browser: headless Chromium driven by Selenium.

Run by `make test` (scripts/browser-test.sh). Each test starts `docket serve` on a fresh
database and a free port, and talks to it only over loopback.
"""

import calendar
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import unicodedata
import unittest
import urllib.parse

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import (
    ElementClickInterceptedException, NoSuchElementException, StaleElementReferenceException,
    TimeoutException, WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCKET = os.environ.get("DOCKET_BINARY", os.path.join(ROOT, ".build", "debug", "docket"))
SCREENSHOTS = os.environ.get("DOCKET_SCREENSHOTS")
DESKTOP = (1400, 900)
TABLET = (900, 1150)
# The browser and its driver from the system (never fetched at run time).
CHROMIUM = os.environ.get("DOCKET_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = os.environ.get("DOCKET_CHROMEDRIVER") or shutil.which("chromedriver")
PHONE = {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True}


class Server:
    """`docket serve` on a database of its own, stopped at the end."""

    def __init__(self, *arguments, sample=True, port="0"):
        self.folder = tempfile.mkdtemp(prefix="docket-browser-")
        self.database = os.path.join(self.folder, "docket.sqlite")
        self.environment = dict(os.environ, DOCKET_DB=self.database, LANG="C.UTF-8")
        if sample:
            self.docket("sample-data")
        self.arguments = arguments
        self.cookie = None
        self.start(port)

    def start(self, port):
        self.process = subprocess.Popen(
            [DOCKET, "serve", "--port", port, *self.arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.environment)
        self.url = None
        deadline = time.time() + 20
        while time.time() < deadline and self.url is None:
            line = self.process.stdout.readline()
            match = re.search(r"(https?://\S+)", line)
            if match:
                self.url = match.group(1)
        if self.url is None:
            raise RuntimeError("docket serve printed no URL: " + self.process.stderr.read())
        parsed = urllib.parse.urlparse(self.url)
        # The port asked for, or the one chosen (a --public-url names the proxy's own).
        self.port = int(port) if port != "0" else parsed.port
        self.token = urllib.parse.parse_qs(parsed.query)["token"][0]
        self.base = f"{parsed.scheme}://127.0.0.1:{self.port}"
        if parsed.scheme == "http" and parsed.hostname == "127.0.0.1" and self.cookie is None:
            # The cookie of a browser paired by the address (each database names its own).
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            connection.request("GET", "/?token=" + self.token)
            response = connection.getresponse()
            response.read()
            self.cookie = response.getheader("Set-Cookie").split(";")[0]
            connection.close()

    def restart(self):
        """Stops the server and starts it again on the same port, as after a reboot."""
        self.stop()
        self.start(str(self.port))

    def docket(self, *arguments):
        result = subprocess.run(
            [DOCKET, *arguments], env=self.environment, capture_output=True, text=True,
            timeout=30)
        if result.returncode != 0:
            raise RuntimeError(f"docket {arguments} failed: {result.stderr}")
        return result.stdout

    def issues(self):
        return json.loads(self.docket("list", "--filter", "all", "--json"))

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        return response.status, text

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def browser(size=DESKTOP, phone=False, language="en-US", scripts=True):
    options = webdriver.ChromeOptions()
    if CHROMIUM:
        options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", f"--lang={language}"):
        options.add_argument(argument)
    preferences = {"intl.accept_languages": language}
    if not scripts:
        preferences["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", preferences)
    if phone:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": PHONE,
            "userAgent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
                         "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"})
    else:
        options.add_argument(f"--window-size={size[0]},{size[1]}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    return driver


# What Chrome says when a form's answer replaced the document between finding an element and
# reading it: the next look finds the new page.
NAVIGATED = (
    "does not belong to the document", "no such execution context", "document unloaded",
    "frame was detached", "Execution context was destroyed")


def wait(driver, condition, seconds=5):
    # A page updated in place replaces its elements: one found a moment ago may be gone. A
    # condition is asked again after such an error, so one that clicks must click what may be
    # clicked twice (a field, not a link or a button that sends).
    swallowed = []
    def look(d):
        try:
            return condition(d)
        except WebDriverException as error:
            if any(words in str(error) for words in NAVIGATED):
                swallowed[:] = [error.msg]
                return False
            raise
    try:
        return WebDriverWait(
            driver, seconds, poll_frequency=0.05,
            ignored_exceptions=[StaleElementReferenceException, NoSuchElementException],
        ).until(look)
    except TimeoutException as timeout:
        if swallowed:
            raise TimeoutException("last seen: " + str(swallowed[0])) from timeout
        raise


class WebAppTest(unittest.TestCase):
    def setUp(self):
        self.server = Server()
        self.drivers = []

    def tearDown(self):
        for driver in self.drivers:
            driver.quit()
        self.server.stop()

    def open(self, **arguments):
        driver = browser(**arguments)
        self.drivers.append(driver)
        driver.get(self.server.url)
        wait(driver, lambda d: d.find_elements(By.ID, "list-heading"))
        wait(driver, lambda d: d.execute_script(
            "return document.documentElement.dataset.connected === '1'"))
        return driver

    def test_installable_and_opens_from_its_copy_while_the_server_is_stopped(self):
        driver = self.open(phone=True)
        # Installable: the manifest, and every icon of the size it states.
        manifest = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const link = document.querySelector('link[rel=manifest]');
            fetch(link.href).then(r => r.json()).then(async (m) => {
              const sizes = [];
              for (const icon of m.icons) {
                const bitmap = await createImageBitmap(await (await fetch(icon.src)).blob());
                sizes.push([icon.sizes, bitmap.width + 'x' + bitmap.height, icon.purpose]);
              }
              const touch = await createImageBitmap(await (await fetch(
                document.querySelector('link[rel=apple-touch-icon]').href)).blob());
              done({m, sizes, touch: touch.width});
            }).catch(e => done({error: String(e)}));
        """)
        self.assertNotIn("error", manifest)
        self.assertEqual(manifest["m"]["display"], "standalone")
        self.assertEqual(manifest["m"]["start_url"], "/")
        for stated, actual, _ in manifest["sizes"]:
            self.assertEqual(stated, actual)
        self.assertEqual({size for size, _, _ in manifest["sizes"]}, {"192x192", "512x512"})
        self.assertIn("maskable", [purpose for _, _, purpose in manifest["sizes"]])
        self.assertEqual(manifest["touch"], 180)
        # The service worker controls the page once it is loaded again.
        driver.execute_async_script(
            "navigator.serviceWorker.ready.then(() => arguments[arguments.length - 1]())")
        driver.refresh()
        wait(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
        titles = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#issue-list li .title")]
        self.assertTrue(titles)

        # The copy of the tracker in this browser is whole before the server goes, and so is
        # the first screen kept from it.
        wait(driver, lambda d: self.copied(d) == len(self.server.issues()), seconds=10)
        wait(driver, self.screens_kept, seconds=10)
        everything = self.server.issues()
        by_title = {issue["title"]: issue for issue in everything}

        # The server stops: the app opens from its copy, not the browser's error page; the
        # list first from the screen kept, before the copy itself is read.
        self.server.stop()
        driver.refresh()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#issue-list li"))
        self.assertEqual(
            [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#issue-list li .title")],
            titles)
        self.assertTrue(driver.execute_script("""
            const drawn = performance.getEntriesByName('docket-drawn-from-copy')[0];
            const read = performance.getEntriesByName('docket-copy-read')[0];
            return !!drawn && (!read || drawn.startTime < read.startTime);"""))
        wait(driver, lambda d: d.find_element(By.ID, "connection").is_displayed())
        # An address never opened is drawn from the copy: its filter, its search, its issue.
        completed = sorted(issue["title"] for issue in everything if issue["completed"])
        driver.get(self.server.base + "/?filter=completed")
        wait(driver, lambda d: sorted(self.titles_listed(d)) == completed)
        driver.find_elements(By.CSS_SELECTOR, "#issue-list a")[-1].click()
        wait(driver, lambda d: d.find_element(By.ID, "detail-heading").text == self.titles_listed(d)[-1])
        word = by_title[titles[0]]["title"].split()[0]
        driver.get(self.server.base + "/?filter=all&q=" + urllib.parse.quote(word.lower()))
        wait(driver, lambda d: titles[0] in self.titles_listed(d))
        self.assertTrue(all(word.lower() in title.lower() for title in self.titles_listed(driver)))
        # A chip narrows offline as online, is drawn when the page had none, and a tap takes it
        # away.
        tag = sorted({name for issue in everything for name in issue["tags"]})[0]
        tagged = sorted(issue["title"] for issue in everything if tag in issue["tags"])
        driver.get(self.server.base + "/?filter=all&chip=" + urllib.parse.quote('tag:"%s"' % tag))
        wait(driver, lambda d: sorted(self.titles_listed(d)) == tagged)
        chip = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#chips a.chip"))[0]
        self.assertEqual(chip.find_element(By.CSS_SELECTOR, ".chip-label").text, tag)
        chip.click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#chips li"))
        wait(driver, lambda d: len(self.titles_listed(d)) > len(tagged))

        # Offline: an issue created, one edited, one completed; each waits, said in the header.
        driver.get(self.server.base + "/?mode=new")
        title = wait(driver, lambda d: d.find_element(By.ID, "f-title"))
        title.send_keys("Made on the train")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: "Made on the train" in self.titles_listed(d))
        wait(driver, lambda d: d.find_element(By.ID, "waiting").text == "1 change waiting")
        # On a phone it takes a line under the sections, which stay on one line.
        tops = driver.execute_script(
            "return Array.from(document.querySelectorAll('header nav a'))"
            ".map(a => Math.round(a.getBoundingClientRect().top))")
        self.assertEqual(len(set(tops)), 1, tops)
        self.assertGreaterEqual(
            driver.find_element(By.ID, "waiting").rect["y"],
            driver.find_element(By.CSS_SELECTOR, "header nav").rect["y"] + 44)
        # (Said a moment after the page is drawn.)
        wait(driver, lambda d: "Kept in this browser" in d.find_element(By.ID, "announce").text)
        edited, finished = by_title[titles[0]], by_title[titles[1]]
        driver.get(self.server.base + "/?issue=" + edited["id"] + "&mode=edit")
        field = wait(driver, lambda d: d.find_element(By.ID, "f-title"))
        field.clear()
        field.send_keys("Edited offline")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: d.find_element(By.ID, "detail-heading").text == "Edited offline")
        # The focus is where the page puts it after a save, not lost with the form.
        wait(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "detail-heading")
        driver.get(self.server.base + "/?issue=" + finished["id"])
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-key=x]")).click()
        wait(driver, lambda d: d.find_element(By.ID, "waiting").text == "3 changes waiting")
        # ... and after completing, as the server's page puts it.
        wait(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "detail-heading")
        self.assertNotIn(finished["title"], self.titles_listed(driver))
        # Opened again: the list as the changes that wait left it, whichever way it is drawn.
        wait(driver, self.screens_kept, seconds=10)
        driver.get(self.server.base + "/")
        wait(driver, lambda d: "Made on the train" in self.titles_listed(d))
        self.assertIn("Edited offline", self.titles_listed(driver))
        self.assertNotIn(finished["title"], self.titles_listed(driver))
        # Meanwhile, on the command line: another field of the issue edited here.
        self.server.docket("edit", edited["id"], "--priority", "low")

        # Back on the same port: the changes go, merge by the field rules, and the page is live.
        self.server.start(str(self.server.port))
        wait(driver, lambda d: d.execute_script(
            "return document.documentElement.dataset.connected === '1'"), seconds=15)
        wait(driver, lambda d: not d.find_element(By.ID, "waiting").is_displayed(), seconds=10)
        wait(driver, lambda d: not d.find_element(By.ID, "connection").is_displayed())
        after = {issue["id"]: issue for issue in self.server.issues()}
        made = [issue for issue in after.values() if issue["title"] == "Made on the train"]
        self.assertEqual(len(made), 1)
        self.assertEqual(after[edited["id"]]["title"], "Edited offline")
        self.assertEqual(after[edited["id"]]["priority"], "low")
        self.assertTrue(after[finished["id"]]["completed"])
        history = self.server.docket("history", edited["id"])
        # The history names the browser as the device that made the edit.
        self.assertRegex(history, r"Safari on iPhone +title: .* → “Edited offline”")

    def test_a_copy_kept_by_an_older_page_keeps_the_changes_that_wait(self):
        driver = self.open(phone=True)
        wait(driver, lambda d: self.copied(d) == len(self.server.issues()), seconds=10)
        issue = self.server.issues()[0]
        # The store as the page's first version kept it (a record an issue), with a change
        # made offline waiting, written from a page of the origin that keeps no copy.
        driver.get(self.server.base + "/static/icons/icon-192.png")
        outcome = driver.execute_async_script("""
            const [id, title, done] = arguments;
            const request = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
            (async () => {
              const now = await request(indexedDB.open('docket', 2));
              const state = await request(now.transaction('meta').objectStore('meta').get('state'));
              now.close();
              await request(indexedDB.deleteDatabase('docket'));
              const opening = indexedDB.open('docket', 1);
              opening.onupgradeneeded = () => {
                const db = opening.result;
                db.createObjectStore('issues', { keyPath: 'id' });
                db.createObjectStore('tags', { keyPath: 'id' });
                db.createObjectStore('meta');
                db.createObjectStore('outbox', { autoIncrement: true });
              };
              const old = await request(opening);
              const t = old.transaction(['meta', 'outbox', 'issues'], 'readwrite');
              t.objectStore('meta').put(state, 'state');
              const stamp = ((BigInt(Date.now()) << 16n) + 1n).toString();
              t.objectStore('issues').put({ id: id, title: title, detail: '', priority: 0, completed: false, created: 0, tags: [] });
              t.objectStore('outbox').add({ h: stamp, d: state.device, e: 'issue', r: id, f: 'title',
                o: title, n: 'Renamed before the upgrade', m: Date.now() / 1000 });
              await new Promise((ok) => { t.oncomplete = ok; });
              old.close();
              return 'kept';
            })().then(done, (error) => done(String(error)));
        """, issue["id"], issue["title"])
        self.assertEqual(outcome, "kept")
        # The page of this version: its store made anew, the change that waited sent, the
        # issues fetched again.
        driver.get(self.server.base + "/")
        wait(driver, lambda d: next(i for i in self.server.issues() if i["id"] == issue["id"])["title"]
             == "Renamed before the upgrade", seconds=10)
        wait(driver, lambda d: self.copied(d) == len(self.server.issues()), seconds=10)
        self.assertRegex(self.server.docket("history", issue["id"]), r"Safari on iPhone +title:")

    def on_row(self, driver, selector, text, action):
        """Does `action` to the row of `selector` that holds `text`. The page's live update
        may draw the rows again meanwhile: then it is found again (a few times at most)."""
        for attempt in range(5):
            try:
                rows = [r for r in driver.find_elements(By.CSS_SELECTOR, selector) if text in r.text]
                if rows:
                    return action(rows[0])
            except StaleElementReferenceException:
                pass
            time.sleep(0.2)
        raise AssertionError(f"no row of {selector} holds {text}")

    def audit(self, driver, state):
        # Every page has a heading of the first level that can be seen.
        self.assertTrue(driver.execute_script(
            "return Array.from(document.querySelectorAll('h1')).some(e => e.offsetParent !== null)"),
            state)
        axe = Axe(driver)
        axe.inject()
        results = axe.run()
        bad = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
        self.assertEqual([], [(v["id"], v["help"], [n["html"] for n in v["nodes"]][:3])
                              for v in bad], state)

    def shot(self, driver, name):
        """The page as it is, light and dark, into docs/screenshots (`make screenshots`)."""
        if SCREENSHOTS:
            os.makedirs(SCREENSHOTS, exist_ok=True)
            driver.save_screenshot(os.path.join(SCREENSHOTS, name + ".png"))
            for scheme, suffix in (("dark", "-dark"), ("", None)):
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                    "features": [{"name": "prefers-color-scheme", "value": scheme}]})
                if suffix:
                    driver.save_screenshot(os.path.join(SCREENSHOTS, name + suffix + ".png"))

    def text(self, driver):
        return driver.find_element(By.TAG_NAME, "body").text

    def titles_listed(self, driver):
        # Read in one go in the page: a live update may replace the list at any moment.
        return driver.execute_script(
            "return Array.from(document.querySelectorAll('#issue-list .title'))"
            ".map(e => e.textContent)")

    # The whole round at desktop size, with the keys.
    def test_desktop_create_search_complete_edit_delete_and_tags(self):
        driver = self.open()
        driver.execute_script("window.notReloaded = true")
        self.audit(driver, "desktop list")
        # A row reads as words: no glyphs, no reference spelled out, its tags named as tags.
        row = [e for e in driver.find_elements(By.CSS_SELECTOR, "#issue-list a")
               if "Fix login layout" in e.text][0]
        self.assertRegex(
            row.accessible_name,
            r"^Fix login layout on narrow screens, High priority, Open, tags Bug, UI Design, "
            r"changed .+ ago$")
        self.assertRegex(row.find_element(By.CSS_SELECTOR, ".when").text, r"ago$")
        # With a keyboard the keys are offered; the sort menu needs no button while the script runs.
        self.assertTrue(driver.find_element(By.CSS_SELECTOR, ".keys-button").is_displayed())
        self.assertFalse(driver.find_element(By.CSS_SELECTOR, "form.sort button").is_displayed())
        # Search goes as one types: no button for it either.
        self.assertFalse(driver.find_element(By.CSS_SELECTOR, "form.search button").is_displayed())
        # Create with a tag, by the keys.
        driver.find_element(By.TAG_NAME, "body").send_keys("n")
        title = wait(driver, lambda d: d.find_elements(By.ID, "f-title"))[0]
        # The form starts in the title, ready to type.
        wait(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "f-title")
        self.audit(driver, "new issue form")
        title.send_keys("Browser made this")
        driver.find_element(By.ID, "f-detail").send_keys("Written in Chromium")
        driver.find_element(By.ID, "f-new-tags").send_keys("Web, Feature")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: "Browser made this" in d.find_element(By.ID, "detail-heading").text)
        wait(driver, lambda d: "Issue created." in d.find_element(By.ID, "announce").text)
        made = [i for i in self.server.issues() if i["title"] == "Browser made this"][0]
        self.assertEqual(sorted(made["tags"]), ["Feature", "Web"])
        self.audit(driver, "issue detail")
        self.shot(driver, "desktop")
        # Search with a token chosen from the suggestions.
        search = driver.find_element(By.ID, "q")
        search.clear()
        search.send_keys("#we")
        link = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#suggestions a"))[0]
        self.assertIn("tag:Web", link.get_attribute("data-token"))
        self.audit(driver, "search suggestions")
        link.click()
        wait(driver, lambda d: self.titles_listed(d) == ["Browser made this"])
        # The token is a chip, in words, and the caret stands after it, where typing goes on.
        chip = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#chips a.chip"))[0]
        self.assertEqual(chip.find_element(By.CSS_SELECTOR, ".chip-label").text, "Web")
        self.assertEqual(chip.accessible_name, "Remove Web from the search")
        wait(driver, lambda d: d.execute_script("""
            var q = document.getElementById('q');
            var chip = document.querySelector('#chips li:last-child').getBoundingClientRect();
            var field = q.getBoundingClientRect();
            return document.activeElement === q && q.value === '' && q.selectionStart === 0 &&
              (field.left >= chip.right - 1 || field.top >= chip.bottom - 1);"""))
        self.assertIn("chip=tag%3AWeb", driver.current_url)
        self.audit(driver, "search with a chip")
        # Typing goes on after it: both narrow the list. (The field is drawn anew as the list
        # follows the typing: it is found again each time.)
        driver.switch_to.active_element.send_keys("nothing like it")
        wait(driver, lambda d: self.titles_listed(d) == [] and "q=nothing" in d.current_url)
        # Backspace at the start of the text takes the chip back; the text stays.
        driver.execute_script("var q = document.getElementById('q'); q.setSelectionRange(0, 0)")
        driver.switch_to.active_element.send_keys(Keys.BACKSPACE)
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#chips li"))
        wait(driver, lambda d: "chip=" not in d.current_url and "q=nothing" in d.current_url)
        self.assertEqual(driver.find_element(By.ID, "q").get_attribute("value"), "nothing like it")
        # A token typed by hand becomes a chip with Enter; the words stay text.
        driver.execute_script("document.getElementById('q').value = ''")
        driver.switch_to.active_element.send_keys("tag:Web browser")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait(driver, lambda d: [c.text for c in d.find_elements(By.CSS_SELECTOR, "#chips .chip-label")]
             == ["Web"])
        wait(driver, lambda d: d.find_element(By.ID, "q").get_attribute("value") == "browser")
        wait(driver, lambda d: self.titles_listed(d) == ["Browser made this"])
        # A tap on the chip takes it away.
        driver.find_element(By.CSS_SELECTOR, "#chips a.chip").click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#chips li"))
        wait(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "q")
        driver.get(self.server.base + "/?chip=tag%3AWeb")
        wait(driver, lambda d: self.titles_listed(d) == ["Browser made this"])
        # Complete it with x, then edit it with e.
        driver.find_element(By.TAG_NAME, "body").send_keys("j")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#issue-list a[aria-current]"))
        driver.find_element(By.TAG_NAME, "body").send_keys("x")
        wait(driver, lambda d: [i for i in self.server.issues()
                                if i["title"] == "Browser made this"][0]["completed"])
        driver.get(self.server.base + "/?filter=completed&issue=" + made["id"])
        wait(driver, lambda d: d.find_elements(By.ID, "detail-heading"))
        driver.find_element(By.TAG_NAME, "body").send_keys("e")
        field = wait(driver, lambda d: d.find_elements(By.ID, "f-title"))[0]
        wait(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "f-title")
        self.audit(driver, "edit form")
        field.clear()
        field.send_keys("Browser edited this")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: "Saved." in d.find_element(By.ID, "announce").text)
        self.assertIn("Browser edited this", [i["title"] for i in self.server.issues()])
        # Delete, after the confirmation.
        driver.find_element(By.TAG_NAME, "body").send_keys("d")
        confirm = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form.confirm button"))[0]
        self.audit(driver, "delete confirmation")
        confirm.click()
        wait(driver, lambda d: "Issue deleted." in d.find_element(By.ID, "announce").text)
        self.assertNotIn("Browser edited this", [i["title"] for i in self.server.issues()])
        # Tags: make, rename, delete.
        driver.get(self.server.base + "/tags")
        driver.find_element(By.ID, "new-tag").send_keys("Temporary")
        driver.find_element(By.CSS_SELECTOR, "form[action='/tags'] button").click()
        wait(driver, lambda d: "Tag created." in d.find_element(By.ID, "announce").text)
        self.audit(driver, "tags page")
        def rename(row):
            name = row.find_element(By.CSS_SELECTOR, "input[name='name']")
            name.clear()
            name.send_keys("Renamed")
            row.find_element(By.CSS_SELECTOR, "button").click()
        self.on_row(driver, ".tag-rows li", "Temporary", rename)
        wait(driver, lambda d: "Tag renamed." in d.find_element(By.ID, "announce").text)
        self.assertIn("Renamed", self.server.docket("tag", "list"))
        self.on_row(driver, ".tag-rows li", "Renamed",
                    lambda row: row.find_element(By.CSS_SELECTOR, "a.danger").click())
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form.confirm button"))[0].click()
        wait(driver, lambda d: "Tag deleted." in d.find_element(By.ID, "announce").text)
        self.assertNotIn("Renamed", self.server.docket("tag", "list"))
        driver.get(self.server.base + "/awards")
        self.audit(driver, "awards page")

    def test_a_change_from_the_command_line_appears_within_a_second_without_a_reload(self):
        driver = self.open()
        driver.execute_script("window.notReloaded = true")
        search = driver.find_element(By.ID, "q")
        search.click()
        started = time.time()
        self.server.docket("add", "Made on the command line", "--priority", "high")
        wait(driver, lambda d: "Made on the command line" in self.titles_listed(d), seconds=1.5)
        elapsed = time.time() - started
        self.assertLess(elapsed, 1.0)
        self.assertTrue(driver.execute_script("return window.notReloaded === true"))
        # The focus stayed where it was.
        self.assertEqual(driver.switch_to.active_element.get_attribute("id"), "q")

    def test_a_hostile_title_shows_as_text_and_runs_nothing(self):
        hostile = "<img src=x onerror=\"document.title='pwned'\"><script>window.pwned=1</script>"
        self.server.docket("add", hostile)
        driver = self.open()
        wait(driver, lambda d: hostile in self.titles_listed(d))
        [link for link in driver.find_elements(By.CSS_SELECTOR, "#issue-list a")
         if hostile in link.text][0].click()
        wait(driver, lambda d: d.find_element(By.ID, "detail-heading").text == hostile)
        time.sleep(0.3)
        self.assertNotEqual(driver.title, "pwned")
        self.assertFalse(driver.execute_script("return window.pwned === 1"))
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "#list img, #detail img"), [])

    def test_tablet_shows_two_panes_and_the_filters_on_demand(self):
        driver = self.open(size=TABLET)
        self.assertFalse(driver.find_element(By.ID, "filters").is_displayed())
        self.assertTrue(driver.find_element(By.ID, "list").is_displayed())
        self.assertTrue(driver.find_element(By.ID, "detail").is_displayed())
        driver.find_elements(By.CSS_SELECTOR, "#issue-list a")[0].click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#issue-list a[aria-current]"))
        self.shot(driver, "tablet")
        self.audit(driver, "tablet detail")
        driver.find_element(By.CSS_SELECTOR, "#list .phone-only").click()
        wait(driver, lambda d: d.find_element(By.ID, "filters").is_displayed())
        self.audit(driver, "tablet filters")
        # A tag filter, then a new issue and its completion, beside the list.
        [link for link in driver.find_elements(By.CSS_SELECTOR, "#filters a")
         if "Feature" in link.text][0].click()
        wait(driver, lambda d: d.find_element(By.ID, "list-heading").text == "Feature")
        driver.find_element(By.TAG_NAME, "body").send_keys("n")
        wait(driver, lambda d: d.find_elements(By.ID, "f-title"))[0].send_keys("Made on a tablet")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: "Made on a tablet" in d.find_element(By.ID, "detail-heading").text)
        self.assertTrue(driver.find_element(By.ID, "list").is_displayed())
        driver.find_element(By.CSS_SELECTOR, "#detail [data-key='x']").click()
        wait(driver, lambda d: [i for i in self.server.issues()
                                if i["title"] == "Made on a tablet"][0]["completed"])

    def test_a_rows_menu_by_mouse_and_by_keyboard(self):
        driver = self.open()
        def row(title):
            return [e for e in driver.find_elements(By.CSS_SELECTOR, "#issue-list li")
                    if e.find_element(By.CSS_SELECTOR, ".title").text == title][0]
        def state(title):
            return [i for i in self.server.issues() if i["title"] == title][0]
        first, second = self.titles_listed(driver)[:2]
        # The button at the row's end shows while the pointer is on the row (it takes no room
        # from it), and opens the row's menu; a choice acts on that row.
        from selenium.webdriver.common.action_chains import ActionChains
        button = wait(driver, lambda d: row(first).find_elements(By.CSS_SELECTOR, ".row-menu-button"))[0]
        self.assertFalse(button.is_displayed())
        ActionChains(driver).move_to_element(row(first)).perform()
        wait(driver, lambda d: button.is_displayed())
        self.assertEqual(button.accessible_name, "Actions for " + first)
        self.assertGreaterEqual(button.rect["height"], 44)
        button.click()
        menu = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".row-menu[role=menu]"))[0]
        self.assertEqual([e.text for e in menu.find_elements(By.CSS_SELECTOR, "[role=menuitem]")],
                         ["Complete", "Edit", "Delete"])
        self.assertEqual(driver.switch_to.active_element.text, "Complete")
        self.audit(driver, "a row's menu")
        driver.find_element(By.CSS_SELECTOR, ".row-menu [role=menuitem]").send_keys(Keys.ENTER)
        wait(driver, lambda d: state(first)["completed"])
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".row-menu"))
        # A right click opens it where the pointer is; Escape closes it and nothing changes.
        ActionChains(driver).context_click(row(second).find_element(By.CSS_SELECTOR, "a")).perform()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".row-menu"))
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".row-menu"))
        self.assertFalse(state(second)["completed"])
        # By keyboard: `.` on the row in focus, down to Edit, Enter: the form, in its title.
        link = row(second).find_element(By.CSS_SELECTOR, "a")
        driver.execute_script("arguments[0].focus()", link)
        driver.switch_to.active_element.send_keys(".")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".row-menu"))
        driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        self.assertEqual(driver.switch_to.active_element.text, "Edit")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "f-title")
        self.assertEqual(driver.find_element(By.ID, "f-title").get_attribute("value"), second)
        # Delete from the menu asks first, as everywhere.
        driver.get(self.server.base + "/")
        button = wait(driver, lambda d: row(second).find_elements(By.CSS_SELECTOR, ".row-menu-button"))[0]
        button.click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".row-menu [role=menuitem].danger"))[0].click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form.confirm button"))
        self.assertIn(second, [i["title"] for i in self.server.issues()])

    def test_phone_shows_one_pane_at_a_time_with_back_and_large_targets(self):
        driver = self.open(phone=True)
        # A touch screen swipes a row: no menu button on it.
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "#issue-list .row-menu-button"), [])
        # A touch screen has no keys to list; the menu sorts by itself.
        self.assertFalse(driver.find_element(By.CSS_SELECTOR, ".keys-button").is_displayed())
        self.assertFalse(driver.find_element(By.CSS_SELECTOR, "form.sort button").is_displayed())
        self.assertTrue(driver.find_element(By.ID, "list").is_displayed())
        self.assertFalse(driver.find_element(By.ID, "detail").is_displayed())
        self.assertFalse(driver.find_element(By.ID, "filters").is_displayed())
        self.check_targets(driver)
        self.shot(driver, "phone")
        # A search's chips are targets a finger can take too.
        driver.get(self.server.base + "/?chip=tag%3ABug&chip=priority%3Ahigh&q=login")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chips a.chip")) == 2)
        self.check_targets(driver)
        self.audit(driver, "phone search with chips")
        driver.find_element(By.ID, "q").click()
        self.shot(driver, "phone-search")
        driver.get(self.server.base + "/")
        driver.find_elements(By.CSS_SELECTOR, "#issue-list a")[0].click()
        wait(driver, lambda d: d.find_element(By.ID, "detail").is_displayed())
        self.assertFalse(driver.find_element(By.ID, "list").is_displayed())
        self.audit(driver, "phone detail")
        self.check_targets(driver)
        driver.find_element(By.CSS_SELECTOR, "#detail .phone-only").click()
        wait(driver, lambda d: d.find_element(By.ID, "list").is_displayed())
        driver.find_element(By.CSS_SELECTOR, "#list .phone-only").click()
        wait(driver, lambda d: d.find_element(By.ID, "filters").is_displayed())
        self.audit(driver, "phone filters")
        driver.back()
        wait(driver, lambda d: d.find_element(By.ID, "list").is_displayed())
        # Create, complete and delete by touch, one pane at a time.
        driver.find_element(By.CSS_SELECTOR, "#list [data-key='n']").click()
        title = wait(driver, lambda d: [e for e in d.find_elements(By.ID, "f-title")
                                        if e.is_displayed()])[0]
        self.assertFalse(driver.find_element(By.ID, "list").is_displayed())
        # Save is on screen, however long the form, without scrolling to it, and a message
        # shown meanwhile stands above it and takes none of its taps.
        save = driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary")
        self.assertLessEqual(
            save.rect["y"] + save.rect["height"] - driver.execute_script("return window.scrollY"),
            driver.execute_script("return window.innerHeight"))
        driver.execute_script("document.getElementById('announce').textContent = 'A message'")
        self.assertTrue(driver.execute_script("""
            var save = document.querySelector('.issue-form button.primary').getBoundingClientRect();
            var toast = document.getElementById('announce').getBoundingClientRect();
            var bar = document.querySelector('.issue-form .actions').getBoundingClientRect();
            var hit = document.elementFromPoint(save.x + save.width / 2, save.y + save.height / 2);
            return toast.bottom <= bar.top && hit.closest('button.primary') !== null;"""))
        driver.execute_script("document.getElementById('announce').textContent = ''")
        title.send_keys("Made on a phone")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: "Made on a phone" in d.find_element(By.ID, "detail-heading").text)
        driver.find_element(By.CSS_SELECTOR, "#detail [data-key='x']").click()
        wait(driver, lambda d: "Marked completed." in d.find_element(By.ID, "announce").text)
        self.assertTrue([i for i in self.server.issues() if i["title"] == "Made on a phone"][0]
                        ["completed"])
        driver.find_element(By.CSS_SELECTOR, "#detail [data-key='d']").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form.confirm button"))[0].click()
        wait(driver, lambda d: d.find_element(By.ID, "list").is_displayed())
        self.assertNotIn("Made on a phone", [i["title"] for i in self.server.issues()])

    def test_a_change_made_while_the_server_is_away_is_kept_and_said_on_screen(self):
        driver = self.open()
        wait(driver, lambda d: self.copied(d) == len(self.server.issues()), seconds=10)
        driver.find_elements(By.CSS_SELECTOR, "#issue-list a")[0].click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail [data-key='x']"))
        title = driver.find_element(By.ID, "detail-heading").text
        region = driver.find_element(By.ID, "announce")
        self.assertFalse(region.is_displayed())
        self.server.stop()
        driver.find_element(By.CSS_SELECTOR, "#detail [data-key='x']").click()
        # Kept in the browser, said on screen, and counted in the header until it is sent.
        wait(driver, lambda d: d.find_element(By.ID, "announce").text.startswith("Kept in this browser"))
        region = driver.find_element(By.ID, "announce")
        wait(driver, lambda d: region.value_of_css_property("opacity") == "1")
        self.assertTrue(region.is_displayed())
        self.assertGreater(region.size["height"], 20)
        wait(driver, lambda d: d.find_element(By.ID, "waiting").text == "1 change waiting")
        self.assertTrue(driver.find_element(By.ID, "waiting").is_displayed())
        self.assertEqual(driver.find_element(By.ID, "detail-heading").text, title)
        self.assertIn("Reopen", driver.find_element(By.CSS_SELECTOR, "#detail [data-key='x']").text)
        # The lost connection is said on screen and stays said; the page is the copy's.
        wait(driver, lambda d: d.find_element(By.ID, "connection").is_displayed(), seconds=10)
        self.assertIn("copy kept in this browser", driver.find_element(By.ID, "connection").text)
        self.assertEqual(driver.execute_script(
            "return document.documentElement.dataset.connected"), "0")
        self.server.start(str(self.server.port))
        wait(driver, lambda d: not d.find_element(By.ID, "waiting").is_displayed(), seconds=15)
        self.assertTrue(next(i for i in self.server.issues() if i["title"] == title)["completed"])

    # Two tabs of the tracker share the copy and what waits: a change kept in one is counted,
    # and drawn, in the other.
    def test_a_change_kept_in_one_tab_shows_in_the_other(self):
        driver = self.open_with_copy()
        first = driver.current_window_handle
        driver.switch_to.new_window("tab")
        second = driver.current_window_handle
        driver.get(self.server.base + "/?filter=all")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#issue-list li"))
        self.server.stop()
        driver.refresh()
        wait(driver, lambda d: d.execute_script("return document.documentElement.dataset.fromCopy === '1'"))
        # A row in focus here stays in focus when the other tab's change is drawn.
        focused = driver.execute_script("""
            const link = document.querySelector('#issue-list li a');
            link.focus();
            return link.getAttribute('href');""")
        driver.switch_to.window(first)
        driver.get(self.server.base + "/?mode=new")
        wait(driver, lambda d: d.find_element(By.ID, "f-title")).send_keys("Made in the other tab")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: d.find_element(By.ID, "waiting").text == "1 change waiting")
        driver.switch_to.window(second)
        wait(driver, lambda d: d.find_element(By.ID, "waiting").text == "1 change waiting")
        wait(driver, lambda d: "Made in the other tab" in self.titles_listed(d))
        self.assertEqual(driver.execute_script(
            "return document.activeElement.getAttribute('href')"), focused)

    def open_with_copy(self, **arguments):
        """A page whose service worker controls it and whose copy holds every issue: what it
        needs to work with the server stopped."""
        driver = self.open(**arguments)
        driver.execute_async_script(
            "navigator.serviceWorker.ready.then(() => arguments[arguments.length - 1]())")
        driver.refresh()
        wait(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
        wait(driver, lambda d: self.copied(d) == len(self.server.issues()), seconds=10)
        return driver

    def outbox(self, driver):
        """How many changes wait in the page's outbox."""
        return driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const open = indexedDB.open('docket', 2);
            open.onupgradeneeded = () => open.transaction.abort();
            open.onerror = () => done(-1);
            open.onsuccess = () => {
              const count = open.result.transaction('outbox').objectStore('outbox').count();
              count.onsuccess = () => { open.result.close(); done(count.result); };
            };
        """)

    # What the outbox cannot send is said, not lost: a change too large for a request is refused
    # while its form is on screen; changes stamped by a clock that ran ahead are stamped again
    # by the server's time and land; a server restarted read-only keeps them waiting, and says so.
    def test_the_outbox_refuses_too_large_restamps_a_clock_ahead_and_says_read_only(self):
        driver = self.open_with_copy()
        first, second = self.server.issues()[:2]
        self.server.stop()
        # Too large: a detail of 300 000 euro signs is within the limit of a detail, but no
        # request of the page could carry it.
        driver.get(self.server.base + "/?issue=" + first["id"] + "&mode=edit")
        wait(driver, lambda d: d.find_element(By.ID, "f-detail"))
        driver.execute_script("document.getElementById('f-detail').value = '€'.repeat(300000)")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: d.find_element(By.ID, "announce").text.startswith("Too large to keep"))
        self.assertEqual(self.outbox(driver), 0)
        self.assertTrue(driver.find_element(By.ID, "f-detail").is_displayed())
        self.assertEqual(driver.switch_to.active_element.get_attribute("id"), "f-detail")
        # A clock three days ahead: the page's changes are stamped ahead of the server's.
        driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const open = indexedDB.open('docket', 2);
            open.onsuccess = () => {
              const t = open.result.transaction('meta', 'readwrite');
              const meta = t.objectStore('meta');
              const state = meta.get('state');
              state.onsuccess = () => { state.result.offset += 3 * 86400000; meta.put(state.result, 'state'); };
              t.oncomplete = () => { open.result.close(); done(); };
            };
        """)
        driver.get(self.server.base + "/?issue=" + second["id"])
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail [data-key='x']")).click()
        wait(driver, lambda d: d.find_element(By.ID, "waiting").text == "1 change waiting")
        # The server answers: refused for the clock, stamped again, taken.
        self.server.start(str(self.server.port))
        wait(driver, lambda d: not d.find_element(By.ID, "waiting").is_displayed(), seconds=15)
        self.assertTrue(next(i for i in self.server.issues() if i["id"] == second["id"])["completed"])
        self.assertNotIn("Not taken", driver.find_element(By.ID, "announce").text)
        # The change is dated now, not three days on (within the hour, across a midnight too).
        modified = next(i for i in self.server.issues() if i["id"] == second["id"])["modified"]
        dated = calendar.timegm(time.strptime(modified[:19], "%Y-%m-%dT%H:%M:%S"))
        self.assertLess(abs(dated - time.time()), 3600)
        # Read-only after a restart: the change made meanwhile waits, and the page says why.
        self.server.stop()
        driver.find_element(By.CSS_SELECTOR, "#detail [data-key='x']").click()
        wait(driver, lambda d: d.find_element(By.ID, "waiting").text == "1 change waiting")
        self.server.arguments = ("--read-only",)
        self.server.start(str(self.server.port))
        wait(driver, lambda d: "read-only now" in d.find_element(By.ID, "announce").text, seconds=15)
        self.assertEqual(self.outbox(driver), 1)
        self.assertTrue(driver.find_element(By.ID, "waiting").is_displayed())

    def screens_kept(self, driver):
        """Whether the page's first screens are kept for its copy as it is now."""
        return driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const open = indexedDB.open('docket', 2);
            open.onupgradeneeded = () => open.transaction.abort();
            open.onerror = () => done(false);
            open.onsuccess = () => {
              const t = open.result.transaction(['meta', 'outbox']);
              const state = t.objectStore('meta').get('state');
              const screens = t.objectStore('meta').get('screens');
              const waiting = t.objectStore('outbox').count();
              t.oncomplete = () => {
                open.result.close();
                const s = screens.result, kept = state.result;
                done(!!s && !!kept && s.seq === kept.seq && s.database === kept.database &&
                     s.waiting === waiting.result);
              };
              t.onabort = () => { open.result.close(); done(false); };
            };
        """)

    def copied(self, driver):
        """How many issues the page's own copy holds."""
        return driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            // Never the one to make it: a database made here would have none of the page's
            // stores, and the page would find it made already.
            const open = indexedDB.open('docket', 2);
            open.onupgradeneeded = () => open.transaction.abort();
            open.onsuccess = () => {
              try {
                // The issues are kept in buckets, an array of issues each.
                const all = open.result.transaction('buckets').objectStore('buckets').getAll();
                all.onsuccess = () => {
                  open.result.close();
                  done(all.result.reduce((sum, bucket) => sum + bucket.length, 0));
                };
                all.onerror = () => { open.result.close(); done(0); };
              } catch (error) { open.result.close(); done(0); }
            };
            open.onerror = () => done(0);
        """)

    def test_back_on_a_phone_returns_to_the_place_in_the_list(self):
        for number in range(40):
            self.server.docket("add", f"Row {number:02d} of a long list")
        driver = self.open(phone=True)
        rows = driver.find_elements(By.CSS_SELECTOR, "#issue-list a")
        self.assertGreater(len(rows), 30)
        target = rows[30]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
        before = driver.execute_script("return window.scrollY")
        self.assertGreater(before, 500)
        title = target.find_element(By.CSS_SELECTOR, ".title").text
        target.click()
        wait(driver, lambda d: d.find_element(By.ID, "detail").is_displayed())
        self.assertEqual(driver.find_element(By.ID, "detail-heading").text, title)
        driver.back()
        wait(driver, lambda d: d.find_element(By.ID, "list").is_displayed())
        wait(driver, lambda d: abs(d.execute_script("return window.scrollY") - before) < 40)
        # The detail's own Back does the same, after a change made in the detail too.
        driver.find_elements(By.CSS_SELECTOR, "#issue-list a")[30].click()
        wait(driver, lambda d: d.find_element(By.ID, "detail").is_displayed())
        driver.find_element(By.CSS_SELECTOR, "#detail [data-key='x']").click()
        wait(driver, lambda d: "Marked completed." in d.find_element(By.ID, "announce").text)
        driver.find_element(By.CSS_SELECTOR, "#detail .phone-only").click()
        wait(driver, lambda d: d.find_element(By.ID, "list").is_displayed())
        wait(driver, lambda d: abs(d.execute_script("return window.scrollY") - before) < 40)

    def swipe(self, driver, title, distance, steps=8):
        """A finger on the row of `title`, moved sideways by `distance` px and lifted (touch
        events). The row is found in the page as the finger lands: a live update may have
        drawn the list again."""
        box = wait(driver, lambda d: d.execute_script("""
            const row = Array.from(document.querySelectorAll('#issue-list a'))
              .find(a => a.querySelector('.title').textContent === arguments[0]);
            if (!row) return null;
            const r = row.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];""",
            title))
        x = box[0] + box[2] / 2 - distance / 2
        y = box[1] + box[3] / 2
        def touch(kind, at):
            driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
                "type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": at, "y": y}]})
        touch("touchStart", x)
        for step in range(1, steps + 1):
            touch("touchMove", x + distance * step / steps)
        # Held still a moment before it is lifted: no fling, which would swallow the next tap.
        time.sleep(0.15)
        touch("touchMove", x + distance)
        touch("touchEnd", x + distance)

    def test_swipe_a_row_to_complete_undo_and_to_delete_asking(self):
        driver = self.open(phone=True)
        def state(title):
            return [i for i in self.server.issues() if i["title"] == title]
        title = driver.find_elements(By.CSS_SELECTOR, "#issue-list a .title")[0].text
        # Too short a swipe does nothing, and opens nothing.
        self.swipe(driver, title, 40)
        time.sleep(0.5)
        self.assertFalse(state(title)[0]["completed"])
        self.assertTrue(driver.find_element(By.ID, "list").is_displayed())
        # Right: completed, said, with Undo.
        self.swipe(driver, title, 260)
        wait(driver, lambda d: state(title)[0]["completed"])
        undo = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#announce button.undo"))[0]
        self.assertIn("Marked completed.", driver.find_element(By.ID, "announce").text)
        self.assertGreaterEqual(undo.size["height"], 44)
        # Still the list, not the issue: a swipe is not a tap.
        self.assertTrue(driver.find_element(By.ID, "list").is_displayed())
        undo.click()
        wait(driver, lambda d: not state(title)[0]["completed"])
        # Left: the question first, and nothing deleted until it is answered.
        self.swipe(driver, title, -260)
        wait(driver, lambda d: "Delete this issue?" in d.find_element(By.ID, "detail").text)
        self.assertTrue(state(title))
        before = state(title)[0]
        driver.find_element(By.CSS_SELECTOR, "#detail form.confirm button").click()
        wait(driver, lambda d: not state(title))
        self.audit(driver, "phone after a swipe")
        # Deleted, said, with Undo: the issue back as it was, tags and all, in the list.
        undo = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#announce button.undo"))[0]
        self.assertIn("Issue deleted.", driver.find_element(By.ID, "announce").text)
        undo.click()
        wait(driver, lambda d: state(title))
        after = state(title)[0]
        for field in ("id", "title", "detail", "priority", "completed", "tags", "created"):
            self.assertEqual(after[field], before[field], field)
        wait(driver, lambda d: title in self.titles_listed(d))
        wait(driver, lambda d: "Issue restored." in d.find_element(By.ID, "announce").text)

    def test_recently_deleted_lists_a_deleted_issue_and_restores_it_on_a_phone(self):
        driver = self.open(phone=True)
        def state(title):
            return [i for i in self.server.issues() if i["title"] == title]
        title = driver.find_elements(By.CSS_SELECTOR, "#issue-list a .title")[0].text
        before = state(title)[0]
        other = self.server.issues()[-1]
        self.server.docket("delete", other["ref"], "--yes")
        self.server.docket("delete", before["ref"], "--yes")
        # The filters pane offers the page once there is something to bring back.
        driver.get(self.server.base + "/?pane=filters")
        link = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#filters a[href='/deleted']"))[0]
        self.assertIn("Recently deleted", link.text)
        self.assertGreaterEqual(link.size["height"], 44)
        link.click()
        wait(driver, lambda d: d.find_elements(By.ID, "deleted-heading"))
        row = driver.find_element(By.CSS_SELECTOR, ".deleted-rows li")
        self.assertIn(title, row.text)
        self.assertIn("this device", row.text)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, driver.execute_script("return window.innerWidth"))
        button = row.find_element(By.CSS_SELECTOR, "button")
        self.assertGreaterEqual(button.size["height"], 44)
        self.audit(driver, "phone recently deleted")
        self.shot(driver, "phone-deleted")
        button.click()
        wait(driver, lambda d: state(title))
        after = state(title)[0]
        for field in ("id", "title", "detail", "priority", "completed", "tags", "created"):
            self.assertEqual(after[field], before[field], field)
        wait(driver, lambda d: "Issue restored." in d.find_element(By.TAG_NAME, "body").text)
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".deleted-rows li")) == 1)
        # With the server away, a Restore says on screen that it could not be made.
        self.server.stop()
        driver.find_element(By.CSS_SELECTOR, ".deleted-rows li button").click()
        expected = driver.execute_script("return document.body.dataset.offline")
        announce = wait(driver, lambda d: d.find_element(By.ID, "announce"))
        wait(driver, lambda d: expected and expected in d.find_element(By.ID, "announce").text)
        self.assertTrue(announce.is_displayed())
        self.assertIn(other["title"], driver.find_element(By.CSS_SELECTOR, ".deleted-rows").text)
        self.server.start(str(self.server.port))
        self.assertFalse([i for i in self.server.issues() if i["id"] == other["id"]])

    def test_an_edit_saved_offers_undo_and_ctrl_z_takes_back_the_latest_change(self):
        driver = self.open()
        issue = self.server.issues()[0]
        driver.get(self.server.base + "/?issue=" + issue["id"])
        wait(driver, lambda d: d.find_elements(By.ID, "detail-heading"))
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys("e")
        field = wait(driver, lambda d: d.find_elements(By.ID, "f-title"))[0]
        field.clear()
        field.send_keys("Renamed in the browser")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: "Saved." in d.find_element(By.ID, "announce").text)
        # The message offers Undo: the server's undo of this device's latest step.
        undo = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#announce button.undo"))[0]
        self.assertGreaterEqual(undo.size["height"], 24)
        undo.click()
        title = lambda: [i for i in self.server.issues() if i["id"] == issue["id"]][0]["title"]
        wait(driver, lambda d: title() == issue["title"])
        wait(driver, lambda d: "Undid “edit " in d.find_element(By.ID, "announce").text)
        # Ctrl-Shift-Z makes it again, Ctrl-Z takes it back, from anywhere but a text field.
        ActionChains(driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z") \
            .key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
        wait(driver, lambda d: title() == "Renamed in the browser")
        wait(driver, lambda d: "Redid “edit " in d.find_element(By.ID, "announce").text)
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait(driver, lambda d: title() == issue["title"])
        # In a text field Ctrl-Z is the field's own: nothing is sent.
        # The undo's live refresh may draw the header again at any moment: the field is clicked
        # as it is then, and the keys go to whatever holds the focus (a refresh keeps it).
        def click_search(d):
            try:
                d.find_element(By.ID, "q").click()
            except ElementClickInterceptedException:
                return False
            return True
        wait(driver, click_search)
        ActionChains(driver).send_keys("abc").perform()
        wait(driver, lambda d: d.find_element(By.ID, "q").get_attribute("value") == "abc")
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        time.sleep(0.5)
        self.assertEqual(title(), issue["title"])
        # The keys' list names both.
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        driver.find_element(By.TAG_NAME, "body").send_keys("?")
        keys = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog#keys[open]"))[0]
        self.assertIn("Ctrl-Z", keys.text)

    def test_a_conflict_from_another_device_is_used_on_a_phone(self):
        # A second device, syncing with the server's database through a folder.
        remote = tempfile.mkdtemp(prefix="docket-remote-")
        other = dict(self.server.environment, DOCKET_DB=os.path.join(remote, "other.sqlite"))
        folder = os.path.join(remote, "folder")
        os.mkdir(folder)
        def run(environment, *arguments):
            result = subprocess.run([DOCKET, *arguments], env=environment, capture_output=True,
                                    text=True, timeout=60)
            self.assertEqual(result.returncode, 0, result.stderr)
            return result.stdout
        self.server.docket("remote", "set", folder)
        run(other, "remote", "set", folder)
        self.server.docket("sync")
        run(other, "sync")
        issue = self.server.issues()[0]
        # Both change its title before they sync: the later is kept, the other lost.
        self.server.docket("edit", issue["ref"], "--title", "Title from the server")
        time.sleep(0.05)
        run(other, "edit", issue["ref"], "--title", "Title from the other device")
        run(other, "sync")
        self.server.docket("sync")
        listed = json.loads(self.server.docket("conflicts", "--json"))
        self.assertEqual([c["lost"]["value"] for c in listed], ["Title from the server"])
        driver = self.open(phone=True)
        driver.get(self.server.base + "/?pane=filters")
        link = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#filters a[href='/conflicts']"))[0]
        self.assertIn("Conflicts", link.text)
        self.assertIn("1", link.text)
        link.click()
        wait(driver, lambda d: d.find_elements(By.ID, "conflicts-heading"))
        row = driver.find_element(By.CSS_SELECTOR, ".conflict-rows li")
        self.assertIn("Title from the other device", row.text)
        self.assertIn("Title from the server", row.text)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, driver.execute_script("return window.innerWidth"))
        buttons = row.find_elements(By.CSS_SELECTOR, "button")
        self.assertEqual([b.text for b in buttons], ["Use this value", "Dismiss"])
        for button in buttons:
            self.assertGreaterEqual(button.size["height"], 44)
        self.audit(driver, "phone conflicts")
        self.shot(driver, "phone-conflicts")
        buttons[0].click()
        wait(driver, lambda d: [i for i in self.server.issues() if i["id"] == issue["id"]][0]["title"]
             == "Title from the server")
        wait(driver, lambda d: "on every device" in d.find_element(By.ID, "announce").text)
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".conflict-rows li"))
        # The use reaches the other device, where the conflict is gone too.
        self.server.docket("sync")
        run(other, "sync")
        self.assertEqual(json.loads(run(other, "conflicts", "--json")), [])
        shown = json.loads(run(other, "show", issue["ref"], "--json"))
        self.assertEqual(shown["title"], "Title from the server")
        shutil.rmtree(remote, ignore_errors=True)

    def test_on_a_tablet_the_list_keeps_its_place_while_an_issue_opens_beside_it(self):
        for number in range(40):
            self.server.docket("add", f"Row {number:02d} of a long list")
        driver = self.open(size=(820, 1180))
        rows = driver.find_elements(By.CSS_SELECTOR, "#issue-list a")
        target = rows[35]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
        # The list scrolls in its own pane; the page does not move.
        place = driver.execute_script("return document.getElementById('list').scrollTop")
        self.assertGreater(place, 1000)
        self.assertEqual(driver.execute_script("return window.scrollY"), 0)
        title = target.find_element(By.CSS_SELECTOR, ".title").text
        target.click()
        wait(driver, lambda d: d.find_element(By.ID, "detail-heading").text == title)
        self.assertEqual(driver.execute_script("return window.scrollY"), 0)
        self.assertLess(
            abs(driver.execute_script("return document.getElementById('list').scrollTop") - place), 40)
        # The issue is in view beside the row, not 1 600 px up the page.
        heading = driver.execute_script(
            "return document.getElementById('detail-heading').getBoundingClientRect().top")
        self.assertLess(heading, 300)
        self.assertTrue(driver.find_element(By.CSS_SELECTOR, "#issue-list a[aria-current]").is_displayed())

    def test_tags_and_awards_show_on_a_phone(self):
        driver = self.open(phone=True)
        for path, heading in (("/tags", "tags-heading"), ("/awards", "awards-heading")):
            driver.find_element(By.CSS_SELECTOR, f"nav a[href='{path}']").click()
            wait(driver, lambda d: d.find_elements(By.ID, heading))
            # Everything a finger presses in the page is at least 44 px high.
            small = driver.execute_script("""
                return Array.from(document.querySelectorAll(
                    'main a, main button, main input:not([type=hidden]), main select, main summary'))
                  .filter(e => e.offsetParent !== null)
                  .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
                  .filter(p => p[1] < 44);""")
            self.assertEqual(small, [], path)
            page = driver.find_element(By.CSS_SELECTOR, "main")
            self.assertTrue(page.is_displayed(), path)
            self.assertTrue(driver.find_element(By.ID, heading).is_displayed(), path)
            self.assertGreater(page.size["height"], 200, path)
            self.audit(driver, "phone " + path)
        # The sample's tags are listed, each as a row one can see.
        driver.find_element(By.CSS_SELECTOR, "nav a[href='/tags']").click()
        wait(driver, lambda d: d.find_elements(By.ID, "tags-heading"))
        self.assertIn("Bug", driver.find_element(By.CSS_SELECTOR, "main").text)

    def check_targets(self, driver):
        small = driver.execute_script("""
            return Array.from(document.querySelectorAll(
                '.pane a.button, .pane button, .pane input:not([type=hidden]), .pane select, #issue-list a, .filters a, a.chip'))
              .filter(e => e.offsetParent !== null)
              .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
              .filter(p => p[1] < 44 && !p[0].includes('type="checkbox"'));""")
        self.assertEqual(small, [])

    def test_no_sideways_scrolling_at_320_pixels_or_at_200_percent_zoom(self):
        driver = self.open(size=(320, 700))
        for path in ["/", "/?mode=new", "/tags", "/awards", "/deleted"]:
            driver.get(self.server.base + path)
            width = driver.execute_script("return document.documentElement.scrollWidth")
            self.assertLessEqual(width, driver.execute_script("return window.innerWidth"), path)
        # 200 % zoom of a 1400 × 900 window: a page 700 × 450 CSS pixels wide, drawn at twice
        # the density, as the browser's zoom makes it.
        zoomed = self.open(size=DESKTOP)
        zoomed.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 700, "height": 450, "deviceScaleFactor": 2, "mobile": False})
        for path in ["/", "/?mode=new", "/tags", "/awards", "/deleted"]:
            zoomed.get(self.server.base + path)
            self.assertLessEqual(
                zoomed.execute_script("return document.documentElement.scrollWidth"),
                zoomed.execute_script("return window.innerWidth"), path)
        zoomed.get(self.server.base + "/")
        self.assertTrue(zoomed.find_element(By.ID, "list").is_displayed())
        self.audit(zoomed, "200 % zoom")

    def test_everything_works_without_scripts(self):
        driver = browser(scripts=False)
        self.drivers.append(driver)
        driver.get(self.server.url)
        wait(driver, lambda d: d.find_elements(By.ID, "list-heading"))
        # No script ran: the keys' button stays hidden.
        self.assertFalse(driver.find_element(By.CSS_SELECTOR, ".keys-button").is_displayed())
        driver.find_element(By.CSS_SELECTOR, "[data-key='n']").click()
        wait(driver, lambda d: d.find_elements(By.ID, "f-title"))[0].send_keys("No script needed")
        driver.find_element(By.ID, "f-new-tags").send_keys("Plain")
        driver.find_element(By.CSS_SELECTOR, ".issue-form button.primary").click()
        wait(driver, lambda d: "No script needed" in d.find_element(By.ID, "detail-heading").text)
        self.assertIn("said=created", driver.current_url)
        driver.find_element(By.CSS_SELECTOR, "#detail [data-key='x']").click()
        wait(driver, lambda d: "said=completed" in d.current_url)
        made = [i for i in self.server.issues() if i["title"] == "No script needed"][0]
        self.assertTrue(made["completed"])
        self.assertEqual(made["tags"], ["Plain"])
        # Search and sort are plain forms too.
        driver.get(self.server.base + "/")
        driver.find_element(By.ID, "q").send_keys("tag:Feature")
        driver.find_element(By.CSS_SELECTOR, "form.search button").click()
        # The token typed became a chip, as Enter makes it with the script.
        wait(driver, lambda d: "chip=tag%3AFeature" in d.current_url)
        self.assertTrue(driver.find_elements(By.CSS_SELECTOR, "#issue-list li"))
        self.assertTrue(all("Feature" in row.text for row in
                            driver.find_elements(By.CSS_SELECTOR, "#issue-list li")))
        # Words typed after a chip are sent with it; the chip, a link, takes itself away.
        driver.find_element(By.ID, "q").send_keys("dark")
        driver.find_element(By.CSS_SELECTOR, "form.search button").click()
        wait(driver, lambda d: "chip=tag%3AFeature&q=dark" in d.current_url)
        driver.find_element(By.CSS_SELECTOR, "#chips a.chip").click()
        wait(driver, lambda d: "chip=" not in d.current_url and "q=dark" in d.current_url)
        driver.get(self.server.base + "/?chip=tag%3AFeature")
        def folded(text):
            return "".join(c for c in unicodedata.normalize("NFD", text.casefold())
                           if not unicodedata.combining(c))
        before = self.titles_listed(driver)
        self.assertNotEqual(before, sorted(before, key=folded))
        Select(driver.find_element(By.ID, "sort")).select_by_value("title:asc")
        driver.find_element(By.CSS_SELECTOR, "form.sort button").click()
        # The page that comes back lists by title (the one before did not).
        wait(driver, lambda d: self.titles_listed(d) == sorted(self.titles_listed(d), key=folded))
        titles = self.titles_listed(driver)
        self.assertEqual(titles, sorted(titles, key=folded))
        # The sort is the device's now: the command line lists by title too.
        listed = [i["title"] for i in json.loads(self.server.docket("list", "--json"))]
        self.assertEqual(listed, sorted(listed, key=folded))

    def test_the_encrypted_remotes_passphrase_is_given_on_the_settings_page_of_a_phone(self):
        # The server's computer syncs through a folder that another device then encrypts: its
        # next sync is told, and waits for the passphrase.
        remote = os.path.join(self.server.folder, "remote")
        other = os.path.join(self.server.folder, "other.sqlite")
        self.server.docket("remote", "set", remote)
        self.server.docket("sync")
        subprocess.run(
            [DOCKET, "--db", other, "remote", "set", remote, "--encrypt"], check=True,
            capture_output=True, timeout=30,
            env=dict(self.server.environment, DOCKET_TEST_LIGHT_KEYS="1",
                     DOCKET_SYNC_PASSPHRASE="a long phrase"))
        with self.assertRaises(RuntimeError):
            self.server.docket("sync")
        driver = self.open(phone=True)
        driver.get(self.server.base + "/settings")
        wait(driver, lambda d: d.find_elements(By.ID, "sync-heading"))
        self.assertIn("this computer has no key for it yet", self.text(driver))
        self.audit(driver, "settings with a passphrase to give")
        self.shot(driver, "phone-settings-passphrase")
        field = driver.find_element(By.ID, "passphrase")
        self.assertEqual(field.get_attribute("type"), "password")
        note = driver.find_element(By.CSS_SELECTOR, "form.passphrase .unreachable")
        self.assertFalse(note.is_displayed())
        # While the computer does not answer, the form says so on screen and offers no button.
        driver.execute_script("document.documentElement.dataset.connected = '0'")
        self.assertTrue(note.is_displayed())
        self.assertFalse(driver.find_element(By.CSS_SELECTOR, "form.passphrase button").is_displayed())
        driver.execute_script("document.documentElement.dataset.connected = '1'")
        field.send_keys("not the phrase")
        driver.find_element(By.CSS_SELECTOR, "form.passphrase button").click()
        wait(driver, lambda d: "does not open this remote" in self.text(d))
        # It stays on screen while the passphrase is typed again (other messages fade in 8 s).
        time.sleep(8.6)
        self.assertIn("does not open this remote",
                      driver.find_element(By.ID, "announce").text)
        driver.find_element(By.ID, "passphrase").send_keys("a long phrase")
        driver.find_element(By.CSS_SELECTOR, "form.passphrase button").click()
        wait(driver, lambda d: "The remote is open on this computer" in self.text(d))
        self.assertFalse(driver.find_elements(By.ID, "passphrase"))
        self.assertIn("this computer holds the key", self.text(driver))
        # The computer's next sync reads and writes the remote.
        self.server.docket("sync")

    def test_german_from_the_browser_and_the_switch(self):
        driver = self.open(language="de-DE")
        self.assertEqual(driver.find_element(By.TAG_NAME, "html").get_attribute("lang"), "de")
        self.assertIn("Neuer Vorgang", self.text(driver))
        self.audit(driver, "german")
        # The language is a setting: the gear in the header, a choice, Save.
        driver.find_element(By.CSS_SELECTOR, "a[href='/settings']").click()
        wait(driver, lambda d: d.find_elements(By.ID, "settings-heading"))
        self.assertIn("Einstellungen", driver.find_element(By.TAG_NAME, "h1").text)
        self.audit(driver, "settings")
        driver.find_element(By.CSS_SELECTOR, "label[for='language-en']").click()
        wait(driver, lambda d: d.find_element(By.ID, "language-en").is_selected())
        driver.find_element(By.CSS_SELECTOR, "form.language button").click()
        wait(driver, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en")
        self.assertIn("Settings", driver.find_element(By.TAG_NAME, "h1").text)


class SecurityTest(unittest.TestCase):
    def setUp(self):
        self.server = Server()
        self.cookie = self.server.cookie

    def tearDown(self):
        self.server.stop()

    def test_no_token_is_refused(self):
        driver = browser()
        try:
            driver.get(self.server.base + "/")
            self.assertIn("Refused", driver.find_element(By.TAG_NAME, "h1").text)
            self.assertEqual(driver.find_elements(By.ID, "issue-list"), [])
        finally:
            driver.quit()
        status, _ = self.server.request("GET", "/?token=" + "0" * 64)
        self.assertEqual(status, 403)

    def test_a_paired_browser_stays_paired_across_restarts_until_revoked(self):
        driver = browser(phone=True)
        try:
            driver.get(self.server.url)
            self.assertTrue(driver.find_elements(By.CSS_SELECTOR, "#issue-list li"))
            self.server.restart()
            # A new start, a new pairing code; the saved page still opens.
            driver.get(self.server.base + "/")
            self.assertTrue(driver.find_elements(By.CSS_SELECTOR, "#issue-list li"))
            paired = json.loads(self.server.docket("browsers", "--json"))
            names = [entry["name"] for entry in paired]
            self.assertEqual(len(paired), 2, names)  # this one and the tests' own client
            phone = [entry for entry in paired if entry["name"] == "Safari on iPhone"]
            self.assertEqual(len(phone), 1, names)
            self.server.docket("browsers", "revoke", phone[0]["id"][:8])
            driver.get(self.server.base + "/")
            self.assertIn("not paired", driver.find_element(By.TAG_NAME, "main").text)
            self.assertEqual(driver.find_elements(By.ID, "issue-list"), [])
            # The other paired browser is untouched.
            status, _ = self.server.request("GET", "/", headers={"Cookie": self.server.cookie})
            self.assertEqual(status, 200)
        finally:
            driver.quit()

    def test_a_foreign_host_is_refused(self):
        status, text = self.server.request(
            "GET", "/", headers={"Host": "evil.example", "Cookie": self.cookie})
        self.assertEqual(status, 403)
        self.assertNotIn("issue-list", text)
        status, _ = self.server.request(
            "GET", "/", headers={"Host": f"localhost:{self.server.port}", "Cookie": self.cookie})
        self.assertEqual(status, 200)

    def test_a_cross_site_post_without_the_csrf_token_changes_nothing(self):
        before = self.server.issues()
        victim = before[0]["id"]
        for headers, body in [
            ({"Origin": "http://evil.example"}, "back=/"),
            ({"Origin": f"http://127.0.0.1:{self.server.port}"}, "back=/&csrf=forged"),
        ]:
            status, _ = self.server.request(
                "POST", f"/issues/{victim}/delete", body=body, headers={
                    **headers, "Cookie": self.cookie,
                    "Content-Type": "application/x-www-form-urlencoded"})
            self.assertEqual(status, 403)
        self.assertEqual(self.server.issues(), before)


def free_port():
    """A port no one listens on at the moment (the proxy's own)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class NamedHTTPSConnection(http.client.HTTPSConnection):
    """https to 127.0.0.1 under another name (SNI and the certificate's name), without DNS."""

    def __init__(self, name, port, context):
        super().__init__(name, port, context=context, timeout=10)
        self.name = name

    def connect(self):
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.name)


class ProxyTest(unittest.TestCase):
    """`docket serve` behind Caddy, which terminates TLS with its own local CA: the browser's
    https origin, Secure cookies and HSTS come through the forwarded scheme and host."""

    def setUp(self):
        self.port = free_port()
        self.origin = f"https://tracker.test:{self.port}"
        # The address the phone uses is the proxy's: shown, and answered to.
        self.server = Server("--public-url", self.origin, port=str(free_port()))
        # Cleaned up even when the proxy fails to start (tearDown would not run then).
        self.addCleanup(self.server.stop)
        self.folder = tempfile.mkdtemp(prefix="docket-caddy-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        config = os.path.join(self.folder, "Caddyfile")
        with open(config, "w") as file:
            file.write(f"""{{
    admin off
    skip_install_trust
    auto_https disable_redirects
    http_port {free_port()}
    https_port {self.port}
}}
https://tracker.test:{self.port} {{
    bind 127.0.0.1
    tls internal
    reverse_proxy 127.0.0.1:{self.server.port}
}}
""")
        environment = dict(os.environ, HOME=self.folder,
                           XDG_DATA_HOME=os.path.join(self.folder, "data"),
                           XDG_CONFIG_HOME=os.path.join(self.folder, "config"))
        self.caddy = subprocess.Popen(
            [shutil.which("caddy") or "caddy", "run", "--config", config, "--adapter", "caddyfile"],
            env=environment, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(self.folder, "caddy.log"), "w"), text=True)
        self.addCleanup(self.stop_caddy)
        self.authority = os.path.join(
            self.folder, "data", "caddy", "pki", "authorities", "local", "root.crt")
        deadline = time.time() + 20
        while time.time() < deadline:
            if os.path.exists(self.authority):
                try:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        break
                except OSError:
                    pass
            if self.caddy.poll() is not None:
                with open(os.path.join(self.folder, "caddy.log")) as log:
                    raise RuntimeError("caddy stopped: " + log.read())
            time.sleep(0.1)
        else:
            raise RuntimeError("caddy did not start")

    def stop_caddy(self):
        self.caddy.terminate()
        try:
            self.caddy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.caddy.kill()
            self.caddy.wait(timeout=10)

    def connection(self):
        # The certificate is checked against the proxy's own CA, for the name.
        return NamedHTTPSConnection(
            "tracker.test", self.port, ssl.create_default_context(cafile=self.authority))

    def test_pairing_and_changes_through_the_proxy(self):
        self.assertTrue(self.server.url.startswith(self.origin + "/?token="), self.server.url)
        connection = self.connection()
        connection.request("GET", "/?token=" + self.server.token)
        response = connection.getresponse()
        response.read()
        self.assertEqual(response.status, 303)
        cookie = response.getheader("Set-Cookie")
        self.assertIn("; Secure", cookie)
        self.assertEqual(response.getheader("Strict-Transport-Security"), "max-age=86400")
        cookie = cookie.split(";")[0]
        connection.request("GET", "/", headers={"Cookie": cookie})
        page = connection.getresponse()
        text = page.read().decode()
        self.assertEqual(page.status, 200)
        csrf = re.search(r'<meta name="csrf" content="([0-9a-f]+)">', text).group(1)
        form = urllib.parse.urlencode({"title": "Filed through the proxy", "csrf": csrf})
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        # Posted from the page the browser has: its origin is the proxy's https one.
        connection.request("POST", "/issues", body=form, headers={**headers, "Origin": "http://tracker.test"})
        refused = connection.getresponse()
        refused.read()
        self.assertEqual(refused.status, 403)
        connection.request("POST", "/issues", body=form, headers={**headers, "Origin": self.origin})
        created = connection.getresponse()
        created.read()
        self.assertEqual(created.status, 303)
        self.assertIn("Filed through the proxy", [issue["title"] for issue in self.server.issues()])
        # Straight to docket serve, another name is refused, whatever is forwarded.
        status, _ = self.server.request("GET", "/", headers={
            "Host": "evil.example", "X-Forwarded-Host": "tracker.test", "Cookie": cookie})
        self.assertEqual(status, 403)

    def test_a_browser_pairs_and_files_an_issue_through_the_proxy(self):
        options = webdriver.ChromeOptions()
        if CHROMIUM:
            options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--host-resolver-rules=MAP tracker.test 127.0.0.1",
                         # The test's CA is not in the browser's store; the test above checks it.
                         "--ignore-certificate-errors", "--window-size=1400,900"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            driver.set_page_load_timeout(20)
            driver.get(self.server.url)
            driver.get(self.origin + "/?mode=new")
            field = wait(driver, lambda d: d.find_elements(By.NAME, "title"))[0]
            field.send_keys("From a browser far away")
            field.submit()
            wait(driver, lambda d: "From a browser far away" in d.find_element(By.ID, "issue-list").text)
            self.assertIn("From a browser far away", [issue["title"] for issue in self.server.issues()])
            # The server stops behind the proxy, which answers 502 for the live stream: the page
            # says it is offline. Started again, the stream opens again and changes come live.
            self.server.stop()
            wait(driver, lambda d: d.find_element(By.ID, "connection").is_displayed(), seconds=15)
            self.server.start(str(self.server.port))
            wait(driver, lambda d: not d.find_element(By.ID, "connection").is_displayed(), seconds=20)
            self.server.docket("add", "Made while the page watched")
            wait(driver, lambda d: "Made while the page watched" in d.find_element(By.ID, "issue-list").text,
                 seconds=10)
        finally:
            driver.quit()


class TransportTest(unittest.TestCase):
    def certificate(self):
        """A certificate for 127.0.0.1 and its key, made for this test."""
        folder = tempfile.mkdtemp(prefix="docket-tls-")
        certificate = os.path.join(folder, "cert.pem")
        key = os.path.join(folder, "key.pem")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
             "-keyout", key, "-out", certificate],
            check=True, capture_output=True, timeout=60)
        return certificate, key

    def test_tls_serves_https_with_a_secure_cookie(self):
        certificate, key = self.certificate()
        server = Server("--tls-cert", certificate, "--tls-key", key, "--allow-host", "tracker.test")
        try:
            self.assertTrue(server.url.startswith("https://127.0.0.1:"), server.url)
            context = ssl.create_default_context(cafile=certificate)
            connection = http.client.HTTPSConnection(
                "127.0.0.1", server.port, context=context, timeout=10)
            connection.request("GET", "/?token=" + server.token)
            response = connection.getresponse()
            response.read()
            self.assertEqual(response.status, 303)
            cookie = response.getheader("Set-Cookie")
            self.assertIn("Secure", cookie)
            self.assertIn("HttpOnly", cookie)
            # An address is not kept to https (browsers do not keep it for one); a name is, for
            # a day.
            self.assertIsNone(response.getheader("Strict-Transport-Security"))
            connection.request("GET", "/", headers={"Host": f"tracker.test:{server.port}"})
            named = connection.getresponse()
            named.read()
            self.assertEqual(named.getheader("Strict-Transport-Security"), "max-age=86400")
            connection.request("GET", "/", headers={"Cookie": cookie.split(";")[0]})
            page = connection.getresponse().read().decode()
            self.assertIn('id="issue-list"', page)
            connection.close()
            # Plain HTTP on the TLS port gets no page.
            plain = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            try:
                plain.request("GET", "/?token=" + server.token)
                self.assertNotEqual(plain.getresponse().status, 303)
            except (http.client.HTTPException, OSError):
                pass
        finally:
            server.stop()

    def test_tls_takes_only_1_2_and_1_3_with_forward_secret_aead(self):
        certificate, key = self.certificate()
        server = Server("--tls-cert", certificate, "--tls-key", key)

        def handshake(version, ciphers="DEFAULT:@SECLEVEL=0"):
            # The client allows anything it can (level 0), so a refusal is the server's.
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.load_verify_locations(certificate)
            context.minimum_version = version
            context.maximum_version = version
            context.set_ciphers(ciphers)
            try:
                with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
                    with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                        return tls.version(), tls.cipher()[0]
            except (ssl.SSLError, OSError):
                return None

        try:
            for old in (ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1):
                self.assertIsNone(handshake(old), old)
            version, cipher = handshake(ssl.TLSVersion.TLSv1_2)
            self.assertEqual(version, "TLSv1.2")
            self.assertTrue(cipher.startswith("ECDHE-"), cipher)
            self.assertTrue("GCM" in cipher or "CHACHA20" in cipher, cipher)
            self.assertEqual(handshake(ssl.TLSVersion.TLSv1_3)[0], "TLSv1.3")
            # Static RSA, and CBC even with a forward-secret key exchange, are refused.
            for weak in ("AES128-GCM-SHA256:AES128-SHA", "ECDHE-RSA-AES128-SHA:ECDHE-RSA-AES256-SHA"):
                self.assertIsNone(handshake(ssl.TLSVersion.TLSv1_2, weak), weak)
        finally:
            server.stop()

    def test_another_address_without_tls_warns_that_the_secrets_travel_in_clear(self):
        server = Server("--bind", "0.0.0.0")
        try:
            server.process.terminate()
            _, errors = server.process.communicate(timeout=10)
            self.assertIn("without TLS", errors)
        finally:
            server.stop()

    def test_closing_the_terminal_stops_the_server(self):
        server = Server()
        try:
            server.process.send_signal(signal.SIGHUP)
            self.assertEqual(server.process.wait(timeout=10), 0)
            self.assertIn("Stopped.", server.process.stdout.read())
        finally:
            server.stop()

    def test_a_taken_port_is_a_clear_error(self):
        first = Server()
        try:
            result = subprocess.run(
                [DOCKET, "serve", "--port", str(first.port)], env=first.environment,
                capture_output=True, text=True, timeout=20)
            self.assertEqual(result.returncode, 1)
            self.assertIn(f"port {first.port}", result.stderr)
        finally:
            first.stop()


class TextBrowser:
    """w3m or lynx in a terminal of its own (tmux, on a socket of this test's), typed at as a
    person types, its screen read back. Every wait is bounded."""

    def __init__(self, command, folder):
        self.socket = f"docket-text-{os.getpid()}-{id(self)}"
        self.environment = dict(os.environ, HOME=folder, TERM="xterm", LANG="C.UTF-8")
        subprocess.run(["tmux", "-L", self.socket, "new-session", "-d", "-x", "100", "-y", "50",
                        "-s", "browser", command], env=self.environment, check=True, timeout=10)

    def screen(self):
        return subprocess.run(["tmux", "-L", self.socket, "capture-pane", "-p", "-t", "browser"],
                              capture_output=True, text=True, timeout=10).stdout

    def type(self, *keys, literal=False):
        for key in keys:
            subprocess.run(["tmux", "-L", self.socket, "send-keys", "-t", "browser"]
                           + (["-l"] if literal else []) + [key], check=True, timeout=10)
            time.sleep(0.15)

    def wait_for(self, condition, seconds=8):
        deadline = time.time() + seconds
        while time.time() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError("the screen never showed what was waited for:\n" + self.screen())

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


class TextBrowserTest(unittest.TestCase):
    """w3m and lynx, which run no script and send no `Origin`, pair and create, edit, complete
    and delete, and their rows read as text."""

    def setUp(self):
        self.server = Server()
        self.home = tempfile.mkdtemp(prefix="docket-text-browser-")

    def tearDown(self):
        self.server.stop()

    def issue(self, title):
        return [issue for issue in self.server.issues() if issue["title"] == title]

    def until(self, condition, browser):
        """Waits (boundedly) for the database to show what the browser did."""
        deadline = time.time() + 8
        while not condition() and time.time() < deadline:
            time.sleep(0.1)
        self.assertTrue(condition(), browser.screen())

    def test_w3m_creates_edits_completes_and_deletes(self):
        address = f"http://127.0.0.1:{self.server.port}"
        w3m = TextBrowser(
            "w3m -o accept_cookie=1 -o use_cookie=1 -o accept_bad_cookie=1 -o confirm_qq=0 "
            f"'{address}/?mode=new&token={self.server.token}'", self.home)
        try:
            def search(text):
                w3m.type("/")
                w3m.wait_for(lambda screen: "Forward:" in screen)
                w3m.type(text, literal=True)
                # w3m reads what is typed in order; its prompt may stay drawn after the search.
                w3m.type("C-m")

            def fill(label, text):
                search(label)
                w3m.type("Tab", "C-m")
                w3m.wait_for(lambda screen: "TEXT:" in screen)
                w3m.type("C-a", "C-k")
                w3m.type(text, literal=True)
                w3m.type("C-m")
                w3m.wait_for(lambda screen: "TEXT:" not in screen)

            def press_before(text):
                # The button before `text` (w3m's search finds no button's label).
                search(text)
                w3m.type("Escape", "Tab", "C-m")

            w3m.wait_for(lambda screen: "Viewing <" in screen)
            fill("Title", "Filed from w3m")
            press_before("Cancel")  # Create
            self.until(lambda: len(self.issue("Filed from w3m")) == 1, w3m)
            reference = self.issue("Filed from w3m")[0]["id"]

            # Its row reads as words, with spaces between them.
            search("Open Filed")
            page = w3m.wait_for(lambda screen: " Open Filed from w3m" in screen)
            self.assertRegex(page, r"○ Open Filed from w3m Low [0-9a-f]{4,} (just now|\d+ \w+ ago)")

            w3m.type("U")  # w3m's "go to address"
            w3m.wait_for(lambda screen: "Goto URL:" in screen)
            w3m.type("C-a", "C-k")
            w3m.type(f"{address}/?issue={reference}&mode=edit", literal=True)
            w3m.type("C-m")
            w3m.wait_for(lambda screen: "Viewing <Filed from w3m" in screen)
            fill("Title", "Edited in w3m")
            press_before("Cancel")  # Save
            self.until(lambda: len(self.issue("Edited in w3m")) == 1, w3m)

            # The detail's buttons come before its history: Complete, then Delete.
            w3m.wait_for(lambda screen: "Viewing <Edited in w3m" in screen)
            search("History")
            w3m.type("Escape", "Tab", "Escape", "Tab", "C-m")
            self.until(lambda: self.issue("Edited in w3m")[0]["completed"], w3m)

            # Delete asks first, and deletes when asked again.
            w3m.wait_for(lambda screen: "Viewing <Edited in w3m" in screen)
            search("History")
            w3m.type("Escape", "Tab", "C-m")
            # The question, then its Delete button.
            search("Delete this issue?")
            w3m.type("Tab", "C-m")
            self.until(lambda: not self.issue("Edited in w3m"), w3m)
        finally:
            w3m.close()


    def test_lynx_creates_completes_and_deletes(self):
        address = f"http://127.0.0.1:{self.server.port}"
        lynx = TextBrowser(
            # No pause at its messages.
            f"lynx -delay=0 -accept_all_cookies -number_fields "
            f"'{address}/?mode=new&token={self.server.token}'",
            self.home)
        try:
            # The dumps below are a browser paired by the tests' own client: its cookie in
            # lynx's file, which lynx reads only with persistent cookies on.
            cookies = os.path.join(self.home, "cookies")
            name, value = self.server.cookie.split("=", 1)
            with open(cookies, "w") as file:
                file.write(f"127.0.0.1\tFALSE\t/\tFALSE\t2147483647\t{name}\t{value}\n")
            settings = os.path.join(self.home, "lynx.cfg")
            with open(settings, "w") as file:
                file.write("INCLUDE:/etc/lynx/lynx.cfg\nPERSISTENT_COOKIES:TRUE\n")

            def number(pattern, path):
                """The number lynx gives the field or link `pattern` finds on the page at
                `path`, as lynx numbers it (its dump of the same page, as another paired
                browser)."""
                dump = subprocess.run(
                    ["lynx", f"-cfg={settings}", "-dump", "-number_fields", "-accept_all_cookies",
                     f"-cookie_file={cookies}", address + path],
                    capture_output=True, text=True, timeout=20, env=lynx.environment).stdout
                match = re.search(pattern, dump)
                self.assertIsNotNone(match, dump)
                return match.group(1)

            def choose(digits):
                # A number typed, and Return: to the field, or a link followed. Zero opens
                # lynx's prompt (other digits may move the page), which drops what was typed
                # ahead: a digit at a time.
                # A key that comes while lynx still draws a page is lost: tried again, a few
                # times.
                for attempt in range(3):
                    lynx.type("0", literal=True)
                    try:
                        lynx.wait_for(lambda screen: re.search(r"number:$", screen, re.M), seconds=2)
                        break
                    except AssertionError:
                        if attempt == 2:
                            raise
                for count in range(1, len(digits) + 1):
                    lynx.type(digits[count - 1], literal=True)
                    lynx.wait_for(lambda screen: re.search(f"number: {digits[:count]}$", screen, re.M))
                lynx.type("C-m")

            lynx.wait_for(lambda screen: "Docket (p1" in screen)
            choose(number(r"Title \[(\d+)\]", "/?mode=new"))
            lynx.type("Filed from lynx", literal=True)
            lynx.type("Up")  # out of the field, to the link above it
            choose(number(r"\[(\d+)\]BUTTON\) Create", "/?mode=new"))  # to the button
            lynx.type("C-m")  # and press it
            self.until(lambda: self.issue("Filed from lynx"), lynx)
            reference = self.issue("Filed from lynx")[0]["id"]

            lynx.wait_for(lambda screen: "Filed from lynx · Docket" in screen)
            choose(number(r"\[(\d+)\]BUTTON\) Complete", f"/?issue={reference}"))
            lynx.type("C-m")
            self.until(lambda: self.issue("Filed from lynx")[0]["completed"], lynx)
            lynx.wait_for(lambda screen: "Marked completed." in screen)

            # Delete, a link to its question, followed.
            choose(number(r"\[(\d+)\]Delete\n", f"/?issue={reference}"))
            # The question's own Delete button (lynx drops what is typed while it loads a page:
            # `choose` tries again).
            choose(number(r"\[(\d+)\]BUTTON\) Delete", f"/?issue={reference}&mode=delete"))
            lynx.type("C-m")
            self.until(lambda: not self.issue("Filed from lynx"), lynx)
            self.assertNotIn(reference, [issue["id"] for issue in self.server.issues()])
        finally:
            lynx.close()


class ReadOnlyTest(unittest.TestCase):
    def test_read_only_refuses_every_change(self):
        server = Server("--read-only")
        try:
            cookie = server.cookie
            host = f"127.0.0.1:{server.port}"
            status, page = server.request("GET", "/", headers={"Host": host, "Cookie": cookie})
            self.assertEqual(status, 200)
            self.assertNotIn("action=\"/issues", page)
            csrf = re.search(r'name="csrf" content="([0-9a-f]+)"', page).group(1)
            before = server.issues()
            victim = before[0]["id"]
            for path, body in [("/issues", "title=No"), (f"/issues/{victim}/delete", ""),
                               (f"/issues/{victim}/complete", "completed=1"),
                               ("/tags", "name=No")]:
                status, _ = server.request("POST", path, body=f"{body}&csrf={csrf}&back=/", headers={
                    "Host": host, "Origin": "http://" + host, "Cookie": cookie,
                    "Content-Type": "application/x-www-form-urlencoded"})
                self.assertEqual(status, 403, path)
            self.assertEqual(server.issues(), before)
            driver = browser()
            try:
                driver.get(server.url)
                wait(driver, lambda d: d.find_elements(By.ID, "list-heading"))
                self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "[data-key='n']"), [])
                self.assertIn("Read-only", driver.find_element(By.TAG_NAME, "body").text)
            finally:
                driver.quit()
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
