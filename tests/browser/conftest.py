"""Browser tests: pytest-playwright driving Debian's chromium against pytest-django's live server.

Never `playwright install`: the browser is Debian's (`apt-get install chromium fonts-nanum`,
which .ci/run does). Without /usr/bin/chromium every browser test is skipped with that reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API keeps an event loop running in the main thread, which trips Django's
# "no sync database calls from async code" guard in the test's own setup code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PASSWORD = "a-long-password-1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(
        reason=f"{CHROMIUM} is missing: install Debian's chromium and fonts-nanum with apt-get "
        "(.ci/run does) to run the browser tests"
    )
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": CHROMIUM_FLAGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "locale": "en-US", "viewport": {"width": 1100, "height": 900}}


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    """Save the page as people would see it: test-artifacts/<name>.png.

    `focus` scrolls to an element and saves the window instead of the whole page (the chat's
    sticky composer would cover it in a whole-page picture).
    """
    ARTIFACTS.mkdir(exist_ok=True)

    def save(page: Any, name: str, *, focus: Any = None) -> Path:
        path = ARTIFACTS / f"{name}.png"
        if focus is not None:
            focus.evaluate("element => element.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(path), full_page=focus is None)
        return path

    return save


@pytest.fixture
def site(live_server: Any, transactional_db: None) -> Iterator[str]:
    """The live server's address, on a database each test starts empty."""
    yield live_server.url


@pytest.fixture
def log_in(site: str) -> Callable[[Any, Any], None]:
    def submit(page: Any, user: Any, password: str = PASSWORD) -> None:
        page.goto(f"{site}/accounts/login/")
        page.fill("input[name=username]", user.get_username())
        page.fill("input[name=password]", password)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(f"{site}/")

    return submit
