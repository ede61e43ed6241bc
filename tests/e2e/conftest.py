"""Browser tests: Debian's Chromium driven by Playwright against the live service.

The service runs as in production, on the test database: the ASGI app under uvicorn
(``asgi_server``), a real Celery worker on Redis and a beat that sends the overdue-clock sweep
every second. Without Chromium, PostgreSQL or Redis the tests are skipped, unless
``REQUIRE_SERVICES=1`` (CI), where they fail with the reason.

Fixtures for every browser test (the tournament pages' too):
- ``live_url``: the base URL of the running service (worker and beat included).
- ``browser``: one Chromium for all the browser tests.
- ``new_context(locale="en", **options)``: a fresh browser context (its own cookies, so its
  own guest or user), closed after the test, which then fails if a page script threw or the
  Content-Security-Policy refused anything (``csp_violations``). Each records every
  Server-Sent Event message its pages receive in ``window.__sse`` (see ``sse_messages``).
- ``csp_violations``: every Content-Security-Policy violation of the test's contexts, as
  "directive blocked-uri at source:line on page", from three witnesses: a
  ``securitypolicyviolation`` listener in every frame, the browser's console, and the
  reports the live service's ``/csp-report`` logged. A test fails at teardown when any was
  seen. A context made with ``bypass_csp=True`` (a test harness page, not ours) reports none.
- ``sign_in(context, live_url, user)``: the context's session cookie for a Django user.
- ``screenshot(page, name)``: ``var/screenshots/<name>-390x844.png`` and ``-1280x900.png``.
- ``dropping_proxy``: ``.url`` reaches the live server through a proxy whose ``.drop(s)``
  cuts every connection (live streams too) and refuses new ones for ``s`` seconds.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
E2E_DIR = Path(__file__).resolve().parent

# Wraps EventSource so a test can read every message a page received (test-only).
RECORD_SSE = """
(() => {
  const Native = window.EventSource;
  if (!Native || Native.__recorded) return;
  window.__sse = [];
  class Recorded extends Native {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("state", (event) => window.__sse.push(event.data));
    }
  }
  Recorded.__recorded = true;
  window.EventSource = Recorded;
})();
"""


# Tells the test of every CSP violation in every frame, as the browser dispatches it (test-only;
# init scripts and bindings run outside the page's policy).
RECORD_CSP = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolation(
    `${event.effectiveDirective} ${event.blockedURI || "inline"} at ` +
    `${event.sourceFile || "?"}:${event.lineNumber} on ${event.documentURI}` +
    (event.sample ? ` (${event.sample})` : "")
  );
});
"""
CSP_CONSOLE = ("Content Security Policy", "Content-Security-Policy")


def _missing() -> str | None:
    if not (Path(CHROMIUM).exists() and os.access(CHROMIUM, os.X_OK)):
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        return "browser tests need PostgreSQL (DATABASE_URL)"
    if not os.environ.get("REDIS_URL"):
        return "browser tests need Redis (REDIS_URL)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    problem = _missing()
    if problem is None or REQUIRED:  # CI: the ``browser`` fixture fails, saying why
        return
    skip = pytest.mark.skip(reason=problem)
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).parents:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _sync_playwright_with_django(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playwright's sync API keeps an event loop in the test's thread; Django's ORM refuses to
    run there unless told that the loop never runs Django code at the same time (it does not:
    the test thread calls one or the other)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# Package scope, not session: Playwright's sync API keeps an event loop in the main thread while
# it runs, and every later test there would be taken for async code by Django and asgiref.
@pytest.fixture(scope="package")
def _playwright() -> Iterator[object]:
    problem = _missing()
    if problem:
        pytest.fail(f"REQUIRE_SERVICES=1 but {problem}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright
    # While the loop ran, Django kept this thread's connections per asyncio context; the live
    # server's teardown terminated every backend but that context's, so the thread's own may
    # be dead now: drop them, and the next test reconnects.
    from django.db import connections

    connections.close_all()


@pytest.fixture(scope="package")
def browser(_playwright) -> Iterator[object]:
    chromium = _playwright.chromium.launch(
        executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True
    )
    yield chromium
    chromium.close()


@pytest.fixture
def live_url(asgi_server: str, redis_url: str, celery_queue: str, postgres_only) -> Iterator[str]:
    """The service with its timers as deployed: a Celery worker and a one-second beat."""
    from games.tasks import sweep_overdue
    from tests.games.hosting_helpers import celery_worker

    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(1.0):
            sweep_overdue.delay()

    with celery_worker(celery_queue):
        ticker = threading.Thread(target=beat, name="test-beat", daemon=True)
        ticker.start()
        yield asgi_server
        stop.set()
        ticker.join(5)


class CspViolations(list):
    """What ``csp_violations`` collects; ``watch(context)`` wires a browser context to it."""

    def watch(self, context) -> None:
        context.expose_function("__cspViolation", self._violation)
        context.add_init_script(RECORD_CSP)
        context.on("console", self._console)

    def _violation(self, text: str) -> None:
        self.append(text)

    def _console(self, message) -> None:
        if any(marker in message.text for marker in CSP_CONSOLE):
            self.append(f"console: {message.text}")


class _ReportLog(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(f"/csp-report: {record.getMessage()}")


@pytest.fixture
def csp_violations() -> Iterator[CspViolations]:
    """Every CSP violation the test's browser contexts met; the test fails if there was one."""
    found = CspViolations()
    handler = _ReportLog(found)
    reports = logging.getLogger("hosting.csp_reports")  # the live server runs in this process
    # Its own level: other tests quieten their parents (``hosting``) below WARNING.
    level = reports.level
    reports.setLevel(logging.WARNING)
    reports.addHandler(handler)
    yield found
    reports.removeHandler(handler)
    reports.setLevel(level)
    refused = "\n".join(found)
    assert not found, f"the Content-Security-Policy refused part of a page:\n{refused}"


@pytest.fixture
def new_context(browser, csp_violations: CspViolations) -> Iterator[Callable[..., object]]:
    contexts = []
    script_errors: list[str] = []

    def make(locale: str = "en", **options: object) -> object:
        options.setdefault("viewport", DESKTOP)
        context = browser.new_context(locale=locale, **options)
        context.set_default_timeout(10_000)
        context.add_init_script(RECORD_SSE)
        if not options.get("bypass_csp"):
            csp_violations.watch(context)
        context.on("weberror", lambda error: script_errors.append(str(error.error)))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert script_errors == [], "the pages' scripts failed"


@pytest.fixture
def sign_in() -> Callable[[object, str, object], None]:
    """Give a browser context a signed-in session for ``user`` (no login form round trip)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    def sign(context, base_url: str, user) -> None:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key}
        context.add_cookies([{**cookie, "url": base_url}])

    return sign


def sse_messages(page) -> list[str]:
    """Every SSE ``state`` message the page has received so far (the raw data texts)."""
    return page.evaluate("window.__sse || []")


def save_screenshots(page, name: str) -> list[Path]:
    """The page at phone and desktop width (full page), then back to its own viewport."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    original = page.viewport_size
    paths = []
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)  # layout settles
        path = SCREENSHOTS / f"{name}-{size['width']}x{size['height']}.png"
        page.screenshot(path=str(path), full_page=True)
        paths.append(path)
    if original:
        page.set_viewport_size(original)
    return paths


def save_snapshot(page, name: str) -> Path:
    """The page as it is, at its own viewport, in one quick shot: for a moment that lasts only
    seconds (a 3-second window), which two resized full-page shots could outlast on a loaded
    machine."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or {"width": 0, "height": 0}
    path = SCREENSHOTS / f"{name}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(path))
    return path


@pytest.fixture
def screenshot() -> Callable[[object, str], list[Path]]:
    return save_screenshots


def no_horizontal_scroll(page) -> bool:
    """At the page's current width, nothing sticks out sideways."""
    return not sticking_out(page)


def sticking_out(page) -> list[str]:
    """The outermost elements wider than the page at its current width (none: no sideways
    scroll), each as "tag#id.class right-edge"."""
    return page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          if (document.documentElement.scrollWidth <= width) return [];
          const out = [];
          const scrolls = (el) => {
            for (let up = el.parentElement; up; up = up.parentElement) {
              const overflow = getComputedStyle(up).overflowX;
              if (["auto", "scroll", "hidden"].includes(overflow)) return true;
            }
            return false;
          };
          for (const el of document.body.querySelectorAll("*")) {
            if (scrolls(el)) continue;
            const box = el.getBoundingClientRect();
            const parent = el.parentElement.getBoundingClientRect();
            if (box.right > width + 1 && parent.right <= width + 1) {
              const name = `${el.tagName.toLowerCase()}#${el.id}.${el.className}`;
              out.push(`${name} ${Math.round(box.right)}`);
            }
          }
          return out.slice(0, 10);
        }"""
    )


class DroppingProxy:
    """A TCP proxy in front of the live server whose connections the test can drop, as a
    flaky mobile network does: ``drop(seconds)`` cuts every open connection (the live stream
    included) and refuses new ones for that long."""

    def __init__(self, target: str) -> None:
        import socket

        host, port = target.removeprefix("http://").split(":")
        self._target = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._open: list[object] = []
        self._lock = threading.Lock()
        self._refuse_until = 0.0
        self._closed = False
        threading.Thread(target=self._accept, name="dropping-proxy", daemon=True).start()

    def drop(self, seconds: float) -> None:
        import time

        with self._lock:
            self._refuse_until = time.monotonic() + seconds
            sockets, self._open = self._open, []
        for sock in sockets:
            _close(sock)

    def close(self) -> None:
        self._closed = True
        self.drop(0)
        _close(self._listener)

    def _accept(self) -> None:
        import socket
        import time

        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if time.monotonic() < self._refuse_until:
                _close(client)
                continue
            try:
                upstream = socket.create_connection(self._target)
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def _pump(source, sink) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        _close(source)
        _close(sink)


def _close(sock) -> None:
    import socket

    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


@pytest.fixture
def dropping_proxy(live_url: str) -> Iterator[DroppingProxy]:
    proxy = DroppingProxy(live_url)
    yield proxy
    proxy.close()
