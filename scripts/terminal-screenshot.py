#!/usr/bin/env python3
"""The README's picture of the terminal app: the real app on the sample data, run in tmux, its
screen captured with its colours, drawn as HTML in a terminal's palette and photographed by
headless Chromium.

    scripts/terminal-screenshot.py DOCKET_BINARY OUT.png [COLUMNS ROWS]
"""
import html
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

# A dark terminal's sixteen colours (xterm's, a little softened).
PALETTE = [
    "#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
    "#666666", "#d54e53", "#b9ca4a", "#e7c547", "#7aa6da", "#c397d8", "#70c0b1", "#eaeaea",
]
FOREGROUND, BACKGROUND = "#d8dbd9", "#1d1f21"


def colour_256(number):
    if number < 16:
        return PALETTE[number]
    if number < 232:
        number -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[number // 36], steps[number // 6 % 6], steps[number % 6])
    grey = 8 + (number - 232) * 10
    return "#%02x%02x%02x" % (grey, grey, grey)


def to_html(screen):
    """The captured lines (with SGR escapes) as spans in a <pre>."""
    state = {"fg": None, "bg": None, "bold": False, "dim": False, "reverse": False}
    out = []
    for line in screen.split("\n"):
        for piece in re.split(r"(\x1b\[[0-9;]*m)", line):
            if piece.startswith("\x1b["):
                apply_sgr(state, piece[2:-1])
                continue
            if not piece:
                continue
            fg, bg = state["fg"] or FOREGROUND, state["bg"] or BACKGROUND
            if state["reverse"]:
                fg, bg = bg, fg
            style = f"color:{fg};background:{bg};"
            if state["bold"]:
                style += "font-weight:bold;"
            if state["dim"]:
                style += "opacity:0.62;"
            out.append(f'<span style="{style}">{html.escape(piece)}</span>')
        out.append("\n")
    return "".join(out)


def apply_sgr(state, text):
    codes = [int(code) if code else 0 for code in text.split(";")] or [0]
    index = 0
    while index < len(codes):
        code = codes[index]
        if code == 0:
            state.update(fg=None, bg=None, bold=False, dim=False, reverse=False)
        elif code == 1:
            state["bold"] = True
        elif code == 2:
            state["dim"] = True
        elif code == 22:
            state["bold"] = state["dim"] = False
        elif code == 7:
            state["reverse"] = True
        elif code == 27:
            state["reverse"] = False
        elif 30 <= code <= 37 or 90 <= code <= 97:
            state["fg"] = PALETTE[code - 30 if code < 90 else code - 82]
        elif 40 <= code <= 47 or 100 <= code <= 107:
            state["bg"] = PALETTE[code - 40 if code < 100 else code - 92]
        elif code == 39:
            state["fg"] = None
        elif code == 49:
            state["bg"] = None
        elif code in (38, 48) and index + 1 < len(codes):
            key = "fg" if code == 38 else "bg"
            if codes[index + 1] == 5 and index + 2 < len(codes):
                state[key] = colour_256(codes[index + 2])
                index += 2
            elif codes[index + 1] == 2 and index + 4 < len(codes):
                state[key] = "#%02x%02x%02x" % tuple(codes[index + 2:index + 5])
                index += 4
        index += 1


def capture(binary, columns, rows):
    folder = tempfile.mkdtemp(prefix="docket-shot-")
    database = os.path.join(folder, "docket.sqlite")
    session = f"docket-shot-{os.getpid()}"
    # The picture is of the English app in colour, whatever the caller's own settings say.
    environment = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color",
                       DOCKET_DB=database)
    for name in ("NO_COLOR", "LANGUAGE", "LC_MESSAGES", "DOCKET_SCREEN_READER"):
        environment.pop(name, None)
    try:
        subprocess.run([binary, "sample-data"], env=environment, check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["tmux", "-L", session, "new-session", "-d", "-x", str(columns),
                        "-y", str(rows),
                        shlex.join(["env", f"DOCKET_DB={database}", "LC_ALL=C.UTF-8",
                                    "TERM=xterm-256color", binary, "--lang", "en"])],
                       env=environment, check=True)
        screen = ""
        for _ in range(100):  # at most 10 s
            time.sleep(0.1)
            screen = subprocess.run(["tmux", "-L", session, "capture-pane", "-p", "-e"],
                                    capture_output=True, text=True).stdout
            if "Fix login layout" in screen:
                break
        else:
            sys.exit("terminal-screenshot: the app did not show the sample issues")
        def plain():
            return subprocess.run(["tmux", "-L", session, "capture-pane", "-p"],
                                  capture_output=True, text=True, check=True).stdout

        # The list focused (its keys in the bar at the bottom) and its third issue chosen, its
        # detail beside it, as in use.
        def list_focused():
            return "/ search" in plain().rstrip().split("\n")[-1]

        for _ in range(3):  # three panes: at most one turn round them
            if list_focused():
                break
            subprocess.run(["tmux", "-L", session, "send-keys", "Tab"], check=True)
            time.sleep(0.3)
        if not list_focused():
            sys.exit("terminal-screenshot: the list never took the focus")
        for key in ["j", "j"]:
            subprocess.run(["tmux", "-L", session, "send-keys", key], check=True)
            time.sleep(0.3)
        for _ in range(50):  # at most 5 s
            screen = subprocess.run(["tmux", "-L", session, "capture-pane", "-p", "-e"],
                                    capture_output=True, text=True, check=True).stdout
            if "Choose an issue" not in screen:
                return screen
            time.sleep(0.1)
        sys.exit("terminal-screenshot: the app did not show the chosen issue")
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


def main():
    binary, output = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    columns = int(sys.argv[3]) if len(sys.argv) > 3 else 120
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 32
    screen = capture(binary, columns, rows).rstrip("\n")
    page = f"""<!doctype html><meta charset="utf-8"><style>
      html, body {{ margin: 0; background: {BACKGROUND}; }}
      pre {{ margin: 0; padding: 14px 18px; font: 15px/1.17 "DejaVu Sans Mono", monospace;
            color: {FOREGROUND}; background: {BACKGROUND}; display: inline-block; }}
    </style><pre id="screen">{to_html(screen)}</pre>"""
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as file:
        file.write(page)
        path = file.name
    options = webdriver.ChromeOptions()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1600,1000",
                     "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.get("file://" + path)
        driver.find_element("id", "screen").screenshot(output)
    finally:
        driver.quit()
        os.unlink(path)
    print(f"terminal-screenshot: wrote {output}")


if __name__ == "__main__":
    main()
