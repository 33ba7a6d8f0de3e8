"""Warm-start benchmark: the product started fresh as `make run` starts it, then the first chat
replies after the URL appears and the finalizing after "End session".

    python manage.py bench_warm_start                      # this checkout, 3 runs
    python manage.py bench_warm_start --baseline /work/main --runs 1

Each run starts `python -m memoryhub.launcher run` of the checkout in a new data folder on a
free port (offline: no API key), waits for the URL line, creates a user with `issue_token`,
and times over the REST API: the chat replies of one session (a web worker's first request
loads the models if they were not loaded at start), then from `POST .../end/` until the
session is `ended` and every topic of it has its vector (topic and session finalizing both
done, read from the database). `--baseline DIR` runs the same against another checkout (with
its own .venv), e.g. a commit from before the warm-up, and prints both. Needs no database of
its own.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

URL_LINE = "memoryhub is running at"
# Turns of one session: two topics, Korean and English, as a person would type them.
TURNS = (
    "요즘 아침마다 한강 공원에서 달리기를 하고 있어",
    "무릎이 조금 아픈데 신발을 바꿔야 할까?",
    "By the way, my sister is visiting Seoul next month",
    "Can you suggest a few places she would enjoy?",
)


@dataclass
class Figures:
    label: str
    start_s: float = 0.0
    replies_s: list[float] = field(default_factory=list)
    finalize_s: float = 0.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _call(
    url: str, *, token: str, body: dict[str, Any] | None = None, method: str = "POST"
) -> dict[str, Any]:
    data = json.dumps(body or {}).encode() if method == "POST" else None
    request = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=180) as response:
        loaded = json.loads(response.read() or b"{}")
    return loaded if isinstance(loaded, dict) else {}


class _Product:
    """One `make run` of a checkout in its own data folder; stopped (and removed) on exit."""

    def __init__(self, checkout: Path) -> None:
        self.checkout = checkout
        self.data_dir = Path(tempfile.mkdtemp(prefix="mhb", dir="/tmp"))  # short socket path
        self.port = _free_port()
        outer = ("DATABASE_URL", "CELERY_BROKER_URL", "MEMORYHUB_CACHE_URL")
        self.env = {k: v for k, v in os.environ.items() if k not in outer}
        self.env.update(
            MEMORYHUB_DATA_DIR=str(self.data_dir), PORT=str(self.port), ANTHROPIC_API_KEY=""
        )
        self.python = str(checkout / ".venv" / "bin" / "python")
        self.output = self.data_dir / "bench-terminal.txt"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, *, timeout: float) -> float:
        started = time.monotonic()
        self.process = subprocess.Popen(
            [self.python, "-m", "memoryhub.launcher", "run"],
            cwd=self.checkout,
            env=self.env,
            start_new_session=True,
            stdout=self.output.open("wb"),
            stderr=subprocess.STDOUT,
        )
        while time.monotonic() - started < timeout:
            if URL_LINE in self.output.read_text(errors="replace"):
                return time.monotonic() - started
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise CommandError(
            "the product did not start:\n" + self.output.read_text(errors="replace")[-3000:]
        )

    def token(self) -> str:
        done = subprocess.run(
            [self.python, "manage.py", "issue_token", "bench", "--create"],
            cwd=self.checkout,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip().splitlines()[-1]

    def database_url(self) -> str:
        return str(json.loads((self.data_dir / "runtime.json").read_text())["database_url"])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def _finalized(database_url: str, session_id: str) -> bool:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT s.status, (SELECT count(*) FROM conversations_topic t "
            "WHERE t.session_id = s.id AND (t.embedding IS NULL OR t.ended_at IS NULL)) "
            "FROM conversations_chatsession s WHERE s.id = %s",
            [int(session_id)],
        ).fetchone()
    return row is not None and row[0] == "ended" and row[1] == 0


def measure(checkout: Path, *, label: str, turns: int, timeout: float) -> Figures:
    figures = Figures(label=label)
    product = _Product(checkout)
    try:
        figures.start_s = product.start(timeout=timeout)
        token = product.token()
        base = f"http://127.0.0.1:{product.port}/api/v1"
        session = _call(f"{base}/sessions/", token=token)
        for content in (TURNS * turns)[:turns]:
            began = time.monotonic()
            _call(
                f"{base}/sessions/{session['id']}/messages/", token=token, body={"content": content}
            )
            figures.replies_s.append(time.monotonic() - began)
        database_url = product.database_url()
        began = time.monotonic()
        _call(f"{base}/sessions/{session['id']}/end/", token=token)
        while not _finalized(database_url, session["id"]):
            if time.monotonic() - began > timeout:
                raise CommandError(f"the session was not finalized within {timeout:.0f} s")
            time.sleep(0.05)
        figures.finalize_s = time.monotonic() - began
    except (OSError, urllib.error.URLError, subprocess.CalledProcessError) as exc:
        raise CommandError(f"{label}: {exc}") from exc
    finally:
        product.stop()
    return figures


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


class Command(BaseCommand):
    help = "Start the product fresh; time the first chat replies and the end-of-session finalizing."
    requires_system_checks: list[str] = []  # needs no database: each run starts its own

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=3, help="fresh starts per checkout")
        parser.add_argument("--turns", type=int, default=4, help="chat turns before the end")
        parser.add_argument(
            "--baseline", type=Path, help="another checkout (with its .venv) to measure as well"
        )
        parser.add_argument("--timeout", type=float, default=300.0, help="seconds per step")

    def handle(self, *args: Any, **options: Any) -> None:
        runs, turns = options["runs"], options["turns"]
        if not 1 <= runs <= 20 or not 2 <= turns <= 20:
            raise CommandError("--runs must be 1-20 and --turns 2-20")
        checkouts = [("this checkout", Path(settings.BASE_DIR))]
        if options["baseline"]:
            baseline = options["baseline"].resolve()
            if not (baseline / ".venv" / "bin" / "python").exists():
                raise CommandError(f"{baseline} has no .venv/bin/python")
            checkouts.append((f"baseline {baseline}", baseline))
        load = os.getloadavg()[0]
        self.stdout.write(f"machine: {os.cpu_count()} cores, load {load:.2f} at the start")
        for label, checkout in checkouts:
            results = []
            for number in range(1, runs + 1):
                figures = measure(checkout, label=label, turns=turns, timeout=options["timeout"])
                results.append(figures)
                replies = " ".join(f"{s:.2f}" for s in figures.replies_s)
                self.stdout.write(
                    f"{label} run {number}: URL after {figures.start_s:.1f} s; replies {replies} s;"
                    f" finalizing {figures.finalize_s:.2f} s"
                )
                sys.stdout.flush()
            first = _median([r.replies_s[0] for r in results])
            # Each web worker loads its models on its first request unless warmed, and which
            # worker takes which request is up to the kernel: the slowest reply shows it.
            slowest = _median([max(r.replies_s) for r in results])
            final = _median([r.finalize_s for r in results])
            start = _median([r.start_s for r in results])
            self.stdout.write(
                f"{label} (median of {runs}): URL after {start:.1f} s, first reply {first:.2f} s,"
                f" slowest of {turns} replies {slowest:.2f} s, finalizing {final:.2f} s "
                "(targets: every reply <= 1.5 s, finalizing <= 3 s)"
            )
