"""`make run` starts everything and leaves nothing behind (slow: a whole product start)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psutil
import pytest
import redis

from memoryhub.launcher import port_holders

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(data_dir: str, port: int, log_path: Path, **extra: str) -> subprocess.Popen[bytes]:
    outer = ("DATABASE_URL", "CELERY_BROKER_URL", "MEMORYHUB_CACHE_URL")
    env = {k: v for k, v in os.environ.items() if k not in outer}
    env.update(MEMORYHUB_DATA_DIR=data_dir, PORT=str(port), ANTHROPIC_API_KEY="")
    env.update(extra)
    return subprocess.Popen(
        ["make", "-s", "run"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=log_path.open("wb"),
        stderr=subprocess.STDOUT,
    )


def _wait_for_url(log_path: Path, process: subprocess.Popen[bytes], timeout: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if "memoryhub is running at" in log_path.read_text(errors="replace"):
            return time.monotonic() - started
        assert process.poll() is None, log_path.read_text(errors="replace")[-3000:]
        time.sleep(0.2)
    raise AssertionError("not up in time:\n" + log_path.read_text(errors="replace")[-3000:])


def _everything_started(process: subprocess.Popen[bytes], data_dir: str) -> list[psutil.Process]:
    found = psutil.Process(process.pid).children(recursive=True)
    postmaster = Path(data_dir, "pg", "postmaster.pid")
    if postmaster.exists():
        pid = int(postmaster.read_text().splitlines()[0])
        found.append(psutil.Process(pid))
        found += psutil.Process(pid).children(recursive=True)
    return found


def _stop(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    os.kill(process.pid, sig)
    process.wait(timeout=90)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _assert_valkeys_are_private(data_dir: str, runtime: dict[str, str], log_path: Path) -> None:
    """Issue 13 line 8: a password from the data folder, owner-only files, no cache on disk."""
    password_file = Path(data_dir, "valkey.password")
    password = password_file.read_text().strip()
    assert len(password) >= 32 and _mode(password_file) == 0o600
    assert _mode(Path(data_dir, "runtime.json")) == 0o600
    assert password not in log_path.read_text(errors="replace")  # never printed
    for log in Path(data_dir, "logs").iterdir():
        assert password not in log.read_text(errors="replace"), log  # nor logged
    broker = redis.Redis.from_url(runtime["broker_url"])
    cache = redis.Redis.from_url(runtime["cache_url"])
    assert broker.connection_pool.connection_kwargs["password"] == password
    for url in (runtime["broker_url"], runtime["cache_url"]):
        port = redis.Redis.from_url(url).connection_pool.connection_kwargs["port"]
        with pytest.raises(redis.exceptions.AuthenticationError):
            redis.Redis(host="127.0.0.1", port=port).ping()
    # The broker keeps an append-only file, so queued tasks survive; the cache writes nothing.
    assert broker.config_get("appendonly") == {"appendonly": "yes"}
    assert broker.config_get("save") == {"save": ""}
    assert cache.config_get("appendonly") == {"appendonly": "no"}
    assert cache.config_get("save") == {"save": ""}
    broker_dir = Path(str(broker.config_get("dir")["dir"]))
    assert broker_dir == Path(data_dir, "valkey")
    assert wait_for(lambda: any(broker_dir.rglob("*.aof")))
    for path in [broker_dir, *broker_dir.rglob("*")]:
        assert _mode(path) == (0o700 if path.is_dir() else 0o600), path
    cache_dir = Path(str(cache.config_get("dir")["dir"]))
    assert [p.name for p in cache_dir.iterdir()] == ["valkey.log"]
    assert _mode(cache_dir) == 0o700


def wait_for(predicate: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def _assert_the_access_log_drops_query_strings(port: int, web_log: Path) -> None:
    page = urllib.request.urlopen(
        f"http://127.0.0.1:{port}/accounts/login/?next=/memories/%3Fq%3Dzqaccesscanary",
        timeout=60,
    )
    assert page.status == 200
    assert wait_for(lambda: '"GET /accounts/login/ HTTP/1.1" 200' in web_log.read_text()), (
        web_log.read_text()[-3000:]
    )
    assert "zqaccesscanary" not in web_log.read_text(errors="replace")


def _assert_a_quiet_start(terminal: str, data_dir: str, port: int) -> None:
    """Issue 15 line 4: the URL, the data folder, offline or Claude and the logs, in <= 15
    lines; migrations, the Celery banner and gunicorn's lines in the log files."""
    lines = terminal.splitlines()
    assert len(lines) <= 15, terminal
    assert f"memoryhub is running at http://127.0.0.1:{port}/" in terminal
    assert f"data folder: {data_dir}" in terminal
    assert "LLM: offline" in terminal
    assert f"logs: {data_dir}/logs/" in terminal
    for noise in ("Applying", "celery@", "[tasks]", "Booting worker", "Listening at", "Warning"):
        assert noise not in terminal, noise
    logs = Path(data_dir, "logs")
    assert "Apply all migrations" in (logs / "migrate.log").read_text()
    for worker in ("worker-live", "worker-bulk"):
        assert "[tasks]" in (logs / f"{worker}.log").read_text()  # the Celery banner
    assert "Listening at" in (logs / "web.log").read_text()
    assert "beat: Starting" in (logs / "beat.log").read_text()


def _assert_every_process_is_warm(process: subprocess.Popen[bytes], data_dir: str) -> None:
    """Issue 15 line 2: the URL appears once every web worker and every Celery worker have
    loaded their models (each reports itself in the ready folder after its warm-up)."""
    ready = {p.name for p in Path(data_dir, "ready").iterdir()}
    (launcher,) = psutil.Process(process.pid).children()  # make's one child
    spawned = launcher.children()
    (master,) = [p for p in spawned if "gunicorn" in " ".join(p.cmdline())]
    workers = master.children()
    assert len(workers) == 2
    assert {f"web-{p.pid}" for p in workers} <= ready
    celery = [p for p in spawned if "celery" in p.cmdline() and "worker" in p.cmdline()]
    assert celery and all(f"worker-{p.pid}" in ready for p in celery), (ready, celery)


def _token(data_dir: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["MEMORYHUB_DATA_DIR"] = data_dir
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "issue_token", "zq", "--create"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.strip().splitlines()[-1]


def _put_requests_in_flight(port: int, token: str) -> list[socket.socket]:
    """An import upload whose body is still coming, a chat turn, a reply stream whose request
    is half sent, and an idle keep-alive connection, all open when the signal comes."""
    opened = []
    session = json.loads(
        urllib.request.urlopen(
            urllib.request.Request(
                f"http://127.0.0.1:{port}/api/v1/sessions/",
                method="POST",
                data=b"{}",
                headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            ),
            timeout=60,
        ).read()
    )
    head = f"Host: 127.0.0.1\r\nAuthorization: Token {token}\r\nContent-Type: application/json\r\n"
    upload = socket.create_connection(("127.0.0.1", port))
    upload.sendall(
        f"POST /api/v1/imports/ HTTP/1.1\r\n{head}Content-Length: 200000\r\n\r\n"
        '{"sessions": [{"started_at": "2026-11-30T10:00:00+09:00", "messages": ['.encode()
    )
    opened.append(upload)
    body = json.dumps({"content": "오늘 저녁에 뭐 먹을까? 파스타가 좋을 것 같아"}).encode()
    chat = socket.create_connection(("127.0.0.1", port))
    chat.sendall(
        f"POST /api/v1/sessions/{session['id']}/messages/ HTTP/1.1\r\n{head}"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    opened.append(chat)
    stream = socket.create_connection(("127.0.0.1", port))
    stream.sendall(
        f"GET /sessions/{session['id']}/messages/1/reply/ HTTP/1.1\r\n"
        "Accept: text/event-stream\r\n".encode()
    )
    opened.append(stream)
    opened.append(socket.create_connection(("127.0.0.1", port)))
    return opened


def _assert_everything_stops(
    process: subprocess.Popen[bytes], started: list[psutil.Process], port: int, send: Any
) -> int:
    """`send()` the signal; within 15 s every process is gone and the port is free."""
    signalled = time.monotonic()
    send()
    code = process.wait(timeout=60)
    while time.monotonic() - signalled < 15:
        alive = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if not alive and not port_holders(port):
            break
        time.sleep(0.1)
    alive = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert alive == [], f"left behind: {[(p.pid, p.name()) for p in alive]}"
    assert port_holders(port) == []
    with socket.socket() as sock:  # what the next run's gunicorn does
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
    return code


def _cleanup(data_dir: str) -> None:
    for proc in psutil.process_iter(["cmdline"]):
        if data_dir in " ".join(proc.info["cmdline"] or []):
            proc.kill()
    shutil.rmtree(data_dir, ignore_errors=True)


def test_make_run_serves_the_product_and_stops_every_process_it_started(tmp_path):
    data_dir = tempfile.mkdtemp(prefix="mh", dir="/tmp")  # short: the socket path has a limit
    port = _free_port()
    log_path = tmp_path / "run.log"
    try:
        process = _start(data_dir, port, log_path)
        _wait_for_url(log_path, process, timeout=600)
        names = {p.name() for p in _everything_started(process, data_dir)}
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=60)
        assert page.status == 200
        with pytest.raises(urllib.error.HTTPError) as unauthorised:
            urllib.request.urlopen(
                urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/sessions/", method="POST"),
                timeout=60,
            )
        assert unauthorised.value.code == 401
        assert json.loads(unauthorised.value.read())["error"]["code"] == "not_authenticated"
        assert "postgres" in names and "valkey-server" in names
        runtime = json.loads(Path(data_dir, "runtime.json").read_text())
        assert runtime["database_url"].startswith("postgresql://")
        _assert_valkeys_are_private(data_dir, runtime, log_path)
        _assert_the_access_log_drops_query_strings(port, Path(data_dir, "logs", "web.log"))
        _assert_every_process_is_warm(process, data_dir)

        # A gunicorn master killed outright takes its workers with it (they used to keep
        # the port); the launcher notices and stops everything else.
        started = _everything_started(process, data_dir)
        master = next(
            p
            for p in started
            if "gunicorn" in " ".join(p.cmdline())
            and "gunicorn" not in " ".join(p.parent().cmdline())
        )
        code = _assert_everything_stops(process, started, port, lambda: master.kill())
        assert code != 0
        terminal = log_path.read_text()
        assert "web exited with code -9; stopping everything" in terminal
        assert f"the whole log: {data_dir}/logs/web.log" in terminal
        assert not Path(data_dir, "runtime.json").exists()

        # A second run reuses the data and starts new logs; Ctrl-C (SIGINT to the group) with
        # requests in flight stops it.
        log_path.write_text("")
        second = _start(data_dir, port, log_path)
        seconds = _wait_for_url(log_path, second, timeout=600)
        print(f"second start: {seconds:.1f} s")
        assert Path(data_dir, "logs", "web.log.1").exists()
        in_flight = _put_requests_in_flight(port, _token(data_dir))
        started = _everything_started(second, data_dir)
        code = _assert_everything_stops(
            second, started, port, lambda: os.killpg(second.pid, signal.SIGINT)
        )
        for sock in in_flight:
            sock.close()
        terminal = log_path.read_text()
        _assert_a_quiet_start(terminal, data_dir, port)
        assert "[memoryhub] stopped" in terminal
        assert (
            not Path(data_dir, "runtime.json").exists() and not Path(data_dir, "run.json").exists()
        )
    finally:
        _cleanup(data_dir)


class _SilentUpstream:
    """A stand-in for the Anthropic API that takes every request and never answers: a chat
    turn sent to the product waits on it, as it waits on a long streamed reply."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._hold, daemon=True).start()

    def _hold(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                self.held.append(self.server.accept()[0])

    def close(self) -> None:
        self.server.close()
        for sock in self.held:
            sock.close()


def test_sigterm_with_requests_in_flight_stops_every_process_within_15_s(tmp_path):
    data_dir = tempfile.mkdtemp(prefix="mh", dir="/tmp")
    port = _free_port()
    log_path = tmp_path / "run.log"
    upstream = _SilentUpstream()
    try:
        process = _start(
            data_dir,
            port,
            log_path,
            ANTHROPIC_API_KEY="sk-ant-test-key",
            ANTHROPIC_BASE_URL=f"http://127.0.0.1:{upstream.port}",
        )
        _wait_for_url(log_path, process, timeout=600)
        assert "LLM: Claude" in log_path.read_text()
        in_flight = _put_requests_in_flight(port, _token(data_dir))
        assert wait_for(lambda: upstream.held)  # a chat turn is waiting on "Claude"
        started = _everything_started(process, data_dir)
        assert len([p for p in started if "gunicorn" in " ".join(p.cmdline())]) == 3

        _assert_everything_stops(process, started, port, lambda: process.terminate())

        for sock in in_flight:
            sock.close()
        assert "[memoryhub] stopped" in log_path.read_text()
    finally:
        upstream.close()
        _cleanup(data_dir)
