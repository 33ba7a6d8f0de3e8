"""What the server's processes do while the load runs: CPU per process group and database
connections, sampled every few seconds, so the limit can be named with evidence.

The processes are those of the `make run` using a data folder: its launcher (`run.json`) and
every process under it (gunicorn's master and workers, the live and bulk Celery workers and
their pool, beat, the embedded Valkeys), and the embedded PostgreSQL's postmaster with its
backends (`<data dir>/pg/postmaster.pid`). Without a run record, the process listening on the
URL's port and its parent stand in for the launcher.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

GROUPS = ("web", "worker live", "worker bulk", "beat", "broker", "postgres", "load driver")


def group_of(cmdline: list[str], *, driver_pid: int, pid: int) -> str | None:
    """The group a process of the run belongs to, from its command line."""
    if pid == driver_pid:
        return "load driver"
    command = " ".join(cmdline)
    if "gunicorn" in command:
        return "web"
    if "celery" in command and "beat" in cmdline:
        return "beat"
    if "celery" in command and "worker" in cmdline:
        return "worker bulk" if "bulk@" in command or "-Q bulk" in command else "worker live"
    if "valkey" in command or "redis-server" in command:
        return "broker"
    if "postgres" in command:
        return "postgres"
    return None


def run_processes(*, data_dir: Path, port: int | None) -> list[psutil.Process]:
    """The processes of the run: the launcher's descendants and PostgreSQL's."""
    roots: list[psutil.Process] = []
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError, psutil.Error):
        launcher = int(json.loads((data_dir / "run.json").read_text())["launcher"])
        roots.append(psutil.Process(launcher))
    if not roots and port is not None:
        with contextlib.suppress(psutil.Error):
            for conn in psutil.net_connections(kind="tcp"):
                if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port:
                    if conn.pid:
                        holder = psutil.Process(conn.pid)
                        roots.append(holder.parent() or holder)
                    break
    with contextlib.suppress(OSError, ValueError, IndexError, psutil.Error):
        postmaster = int((data_dir / "pg" / "postmaster.pid").read_text().split()[0])
        roots.append(psutil.Process(postmaster))
    found: dict[int, psutil.Process] = {}
    for root in roots:
        with contextlib.suppress(psutil.Error):
            for process in [root, *root.children(recursive=True)]:
                found[process.pid] = process
    return list(found.values())


@dataclass
class Sample:
    """CPU seconds per group since the last sample, database connections now."""

    at: float
    cpu: dict[str, float]
    machine_busy: float
    connections: dict[str, int]


@dataclass
class Sampler:
    """Samples the run's processes every `interval` seconds while `running`.

    `summary()` gives, for the samples since the last `reset()`, each group's CPU as a
    percentage of one core (200% = both cores of a 2-core machine), the busiest single web
    worker, the machine's CPU used by processes outside the run, and the database connections
    (mean and peak; peak active).
    """

    data_dir: Path
    port: int | None
    database_url: str | None
    interval: float = 2.0
    samples: list[Sample] = field(default_factory=list)
    _last: dict[int, tuple[str, float]] = field(default_factory=dict)
    _last_machine: tuple[float, float] | None = None
    _web_workers: dict[int, float] = field(default_factory=lambda: defaultdict(float))
    _started: float = field(default_factory=time.monotonic)
    error: str | None = None

    def reset(self) -> None:
        self.samples = []
        self._web_workers = defaultdict(float)
        self._started = time.monotonic()

    def sample(self) -> None:
        now = time.monotonic()
        cpu: dict[str, float] = defaultdict(float)
        seen: dict[int, tuple[str, float]] = {}
        first = not self._last
        for process in run_processes(data_dir=self.data_dir, port=self.port) + [
            psutil.Process(os.getpid())
        ]:
            with contextlib.suppress(psutil.Error):
                group = group_of(process.cmdline(), driver_pid=os.getpid(), pid=process.pid)
                if group is None:
                    continue
                times = process.cpu_times()
                used = times.user + times.system
                # A process new since the last sample used all its CPU since then.
                before = self._last.get(process.pid, (group, 0.0))[1]
                delta = max(0.0, used - before)
                if not first:
                    cpu[group] += delta
                    if group == "web" and not process.children():  # a worker, not the master
                        self._web_workers[process.pid] += delta
                seen[process.pid] = (group, used)
        self._last = seen
        machine = psutil.cpu_times()
        busy = machine.user + machine.nice + machine.system + machine.irq + machine.softirq
        total = busy + machine.idle + getattr(machine, "iowait", 0.0)
        machine_busy = 0.0
        if self._last_machine is not None:
            machine_busy = busy - self._last_machine[0]
        self._last_machine = (busy, total)
        self.samples.append(Sample(now, dict(cpu), machine_busy, self._connections()))

    def _connections(self) -> dict[str, int]:
        if not self.database_url:
            return {}
        try:
            import psycopg

            with psycopg.connect(self.database_url, autocommit=True, connect_timeout=5) as conn:
                rows = conn.execute(
                    "SELECT coalesce(state, ''), count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND backend_type = 'client backend'"
                    " AND pid <> pg_backend_pid() GROUP BY 1"
                ).fetchall()
                limit = conn.execute("SELECT current_setting('max_connections')::int").fetchone()
        except Exception as exc:  # the sample goes on without it; the reason is reported
            self.error = f"pg_stat_activity: {type(exc).__name__}: {exc}"
            return {}
        counts = {str(state): int(n) for state, n in rows}
        counts["max_connections"] = int(limit[0]) if limit else 0
        return counts

    def summary(self) -> dict[str, Any]:
        samples = self.samples[1:] if len(self.samples) > 1 else []
        elapsed = (samples[-1].at - self.samples[0].at) if samples else 0.0
        if elapsed <= 0:
            return {}
        per_group = {
            group: 100 * sum(s.cpu.get(group, 0.0) for s in samples) / elapsed for group in GROUPS
        }
        ours = sum(sum(s.cpu.values()) for s in samples)
        machine = sum(s.machine_busy for s in samples)
        totals = [sum(n for k, n in s.connections.items() if k != "max_connections")
                  for s in samples if s.connections]  # fmt: skip
        active = [s.connections.get("active", 0) for s in samples if s.connections]
        return {
            "cpu": per_group,
            "busiest_web_worker": 100 * max(self._web_workers.values(), default=0.0) / elapsed,
            "other_processes": max(0.0, 100 * (machine - ours) / elapsed),
            "machine": 100 * machine / elapsed,
            "db_connections_mean": sum(totals) / len(totals) if totals else None,
            "db_connections_max": max(totals, default=None),
            "db_active_max": max(active, default=None),
            "max_connections": next(
                (s.connections["max_connections"] for s in samples if s.connections), None
            ),
        }
