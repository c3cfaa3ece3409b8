"""Headless Chromium driven over the DevTools protocol, to check and photograph game pages.

The protocol runs over a pipe (``--remote-debugging-pipe``: Chromium reads
commands from its fd 3 and writes replies and events to its fd 4, one JSON
message each, ended by a NUL byte), so no port is opened and only the
standard library is needed. Chromium is the Debian package ``chromium``
(``apt-get install chromium``), or the program named by ``SCORPION_CHROMIUM``.

    with Browser() as browser:
        tab = browser.open("file:///tmp/deal5.html", width=390, height=844)
        tab.key("End")
        tab.evaluate("scorpionPage.state().cardsDrawn")   # 0: the won position
        tab.screenshot("deal5.png")

As a command, it photographs a page after pressing some keys::

    python -m scorpion_solver.page.browser PAGE.html OUT.png [--width 390] [--step N] [--keys End ArrowLeft]
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# key name -> (code, Windows virtual key code), as a keyboard sends them.
KEYS = {
    "ArrowLeft": ("ArrowLeft", 37),
    "ArrowUp": ("ArrowUp", 38),
    "ArrowRight": ("ArrowRight", 39),
    "ArrowDown": ("ArrowDown", 40),
    "Home": ("Home", 36),
    "End": ("End", 35),
    "Enter": ("Enter", 13),
    "Tab": ("Tab", 9),
}


class BrowserError(RuntimeError):
    """Chromium is missing, did not answer, or reported an error."""


def find_chromium() -> str | None:
    """The Chromium program: ``SCORPION_CHROMIUM``, else the first of NAMES on the PATH."""
    named = os.environ.get("SCORPION_CHROMIUM")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium process; :meth:`open` gives a tab."""

    def __init__(self, executable: str | None = None, timeout: float = 60.0):
        program = executable or find_chromium()
        if program is None:
            raise BrowserError("no Chromium found: apt-get install chromium (or set SCORPION_CHROMIUM)")
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="scorpion-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire_fds() -> None:  # in the child: its fd 3 reads our commands, its fd 4 writes to us
            high_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        args = [
            program,
            "--headless",
            "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--no-default-browser-check",
            "--hide-scrollbars",
            "--mute-audio",
            "--remote-debugging-pipe",
            f"--user-data-dir={self._profile.name}",
            "about:blank",
        ]
        self._log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            pass_fds=(3, 4),
            preexec_fn=wire_fds,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        self.version = self.send("Browser.getVersion").get("product", "")

    # -- the protocol

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        """Send one command and wait for its reply (events that arrive meanwhile are kept in ``events``)."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, session: str | None = None) -> dict:
        """The first event ``method`` (of ``session``) not yet consumed, waiting for it if needed."""
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method and (session is None or event.get("sessionId") == session):
                    return self.events.pop(i)
            self.events.append(self._read())

    def _read(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_child], [], [], max(0.0, left))
            if not ready:
                raise BrowserError(f"Chromium did not answer within {self.timeout:g} s{self._tail_of_log()}")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise BrowserError(f"Chromium closed the pipe (exit {self.process.poll()}){self._tail_of_log()}")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def _tail_of_log(self) -> str:
        self._log.seek(0)
        text = self._log.read().decode(errors="replace").strip().splitlines()[-3:]
        return (": " + " | ".join(text)) if text else ""

    # -- tabs

    def open(self, url: str, width: int = 1280, height: int = 900, mobile: bool = False) -> Tab:
        """A new tab of the given size showing ``url``, once its load event has fired."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tab = Tab(self, session)
        tab.send("Page.enable")
        tab.send("Runtime.enable")
        tab.send("Network.enable")
        tab.send("Log.enable")
        tab.resize(width, height, mobile)
        tab.navigate(url)
        return tab

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send("Browser.close")
            except (BrowserError, OSError):
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        self._log.close()
        self._profile.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Tab:
    """One page in the browser: navigate, press keys, evaluate script, take screenshots."""

    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def navigate(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})
        self.browser.wait_event("Page.loadEventFired", self.session)

    def resize(self, width: int, height: int, mobile: bool = False) -> None:
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )

    def key(self, key: str, times: int = 1) -> None:
        """Press and release a key (a name of KEYS) as a keyboard would."""
        code, vk = KEYS[key]
        for _ in range(times):
            for kind in ("rawKeyDown", "keyUp"):
                self.send(
                    "Input.dispatchKeyEvent",
                    {"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk},
                )

    def click(self, selector: str) -> None:
        """A mouse click at the middle of the first element matching ``selector``."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        if box is None:
            raise BrowserError(f"no element {selector!r} to click")
        for kind in ("mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1}
            )

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (BrowserError if it throws)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(f"{expression}: {details.get('exception', {}).get('description') or details['text']}")
        return result["result"].get("value")

    def screenshot(self, path: str | Path, full_page: bool = True) -> Path:
        """A PNG of the page (the whole page, or the viewport)."""
        params: dict = {"format": "png"}
        if full_page:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params.update(
                captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
            )
        data = self.send("Page.captureScreenshot", params)["data"]
        out = Path(path)
        out.write_bytes(base64.b64decode(data))
        return out

    def requested_urls(self) -> list[str]:
        """Every URL the page asked for so far (the page itself included)."""
        return [
            e["params"]["request"]["url"]
            for e in self.browser.events
            if e.get("method") == "Network.requestWillBeSent" and e.get("sessionId") == self.session
        ]

    def console_errors(self) -> list[str]:
        """Script errors and console errors reported so far."""
        out = []
        for e in self.browser.events:
            if e.get("sessionId") != self.session:
                continue
            if e.get("method") == "Runtime.exceptionThrown":
                details = e["params"]["exceptionDetails"]
                out.append(details.get("exception", {}).get("description") or details.get("text", ""))
            elif e.get("method") == "Runtime.consoleAPICalled" and e["params"].get("type") == "error":
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in e["params"]["args"]))
            elif e.get("method") == "Log.entryAdded" and e["params"]["entry"].get("level") == "error":
                out.append(e["params"]["entry"].get("text", ""))
        return out


def png_size(path: str | Path) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    head = Path(path).read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Photograph a game page in headless Chromium.")
    parser.add_argument("page", help="the HTML file")
    parser.add_argument("png", help="the PNG to write")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--keys", nargs="*", default=[], help=f"keys to press first ({', '.join(KEYS)})")
    parser.add_argument("--step", type=int, default=None, help="open the page at this step (#step=N)")
    parser.add_argument("--viewport", action="store_true", help="only the viewport, not the whole page")
    args = parser.parse_args(argv)
    url = Path(args.page).resolve().as_uri() + (f"#step={args.step}" if args.step is not None else "")
    with Browser() as browser:
        tab = browser.open(url, args.width, args.height, mobile=args.width < 600)
        for key in args.keys:
            tab.key(key)
        tab.screenshot(args.png, full_page=not args.viewport)
    print(f"wrote {args.png} {png_size(args.png)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
