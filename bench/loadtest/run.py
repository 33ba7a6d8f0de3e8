"""Drive a running memoryhub with a rising number of simulated people; find the knee.

Start the product in one terminal, offline (no API key), on a data folder of its own so the
load test's accounts stay out of your own data:

    ANTHROPIC_API_KEY= MEMORYHUB_DATA_DIR=/tmp/memoryhub-load PORT=8000 make run
    # more web processes (the default is 2, each with 8 threads):
    # MEMORYHUB_WEB_WORKERS=3 ANTHROPIC_API_KEY= MEMORYHUB_DATA_DIR=/tmp/memoryhub-load make run

and in another, once it prints its URL:

    MEMORYHUB_DATA_DIR=/tmp/memoryhub-load .venv/bin/python -m bench.loadtest.run \\
        --url http://127.0.0.1:8000 --steps 10,20,40,60,80 --step-seconds 90 \\
        --plot docs/load.png --json /tmp/load.json

For each number of people N it adds people (each signs up on arrival) until N are chatting
and every one has signed up (password hashing is costly and stays out of the figures), lets
them settle for `--warmup-seconds`, then measures for `--step-seconds`: throughput,
p50/p95 per action (`bench/loadtest/locustfile.py` names them) and errors. The knee is the first N
whose reply p95 (the whole streamed reply) exceeds `--p95-limit` seconds or that had any error.

While it measures it samples the run's processes every 2 s (`loadtest/sampling.py`): CPU per
group (web, live and bulk workers, beat, broker, PostgreSQL, this driver, and everything else
on the machine), the busiest web worker, and the database's client connections from
`pg_stat_activity`; and estimates the requests in flight (throughput x mean time, Little's
law) against the web's threads (`--web-threads`, workers x threads). `--data-dir` (default
MEMORYHUB_DATA_DIR or `.data`) is the run's data folder: its `run.json` names the processes
and its `runtime.json` the database.

Every request goes to `--url`, which must be on this machine (loopback), and each step ends by
itself: the run lasts about len(steps) x (warm-up + step) plus the arrivals.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import gevent  # noqa: E402
from locust import between, events  # noqa: E402
from locust.env import Environment  # noqa: E402

from bench.loadtest.locustfile import Person  # noqa: E402
from bench.loadtest.options import local_url, parse_steps, positive, think_range  # noqa: E402
from bench.loadtest.sampling import Sampler  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REPLY = "reply"
# The actions of the table, in order; "remembered" is from the reply's end to the notices.
ACTIONS = ("reply", "reply first chunk", "send", "new chat", "memories", "search", "api search",
           "notices", "remembered")  # fmt: skip
# Not requests of their own (parts or spans of other requests): left out of "in flight".
NOT_REQUESTS = {"reply first chunk", "remembered"}


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.loadtest.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--url", type=local_url, default="http://127.0.0.1:8000")
    parser.add_argument("--steps", type=parse_steps, default=parse_steps("10,20,40,60,80"))
    parser.add_argument("--step-seconds", type=positive, default=90.0)
    parser.add_argument("--warmup-seconds", type=positive, default=20.0)
    parser.add_argument("--spawn-rate", type=positive, default=2.0, help="arrivals per second")
    parser.add_argument(
        "--think",
        type=think_range,
        default=None,
        help="MIN,MAX seconds a person waits between actions (default 3,10)",
    )
    parser.add_argument("--p95-limit", type=positive, default=2.0, help="seconds, reply p95")
    parser.add_argument(
        "--web-threads",
        type=int,
        default=None,
        help="the web's workers x threads (default: MEMORYHUB_WEB_WORKERS x 8)",
    )
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--database-url", default=None,
                        help="for pg_stat_activity (default: the run's runtime.json)")  # fmt: skip
    parser.add_argument("--stop-after-knee", action="store_true",
                        help="stop after the first step past the knee")  # fmt: skip
    parser.add_argument("--plot", type=Path, default=None, help="write a PNG plot here")
    parser.add_argument("--json", type=Path, default=None, help="write the rows as JSON here")
    return parser.parse_args(argv)


def _data_dir(given: Path | None) -> Path:
    if given is not None:
        return given.resolve()
    return Path(os.environ.get("MEMORYHUB_DATA_DIR") or ROOT / ".data").resolve()


def _database_url(given: str | None, data_dir: Path) -> str | None:
    if given:
        return given
    try:
        return str(json.loads((data_dir / "runtime.json").read_text())["database_url"]) or None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _commit() -> str:
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True, timeout=10)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return done.stdout.strip() or "unknown"


def _action_stats(env: Environment, duration: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """Per action: count, failures, p50 and p95 (ms); and the step's totals."""
    actions: dict[str, Any] = {}
    requests = failures = 0
    in_flight_ms = 0.0
    for entry in env.stats.entries.values():
        row = actions.setdefault(entry.name, {"count": 0, "failures": 0, "p50": None, "p95": None})
        row["count"] += entry.num_requests
        row["failures"] += entry.num_failures
        if entry.num_requests:
            row["p50"] = entry.get_response_time_percentile(0.5)
            row["p95"] = entry.get_response_time_percentile(0.95)
        failures += entry.num_failures
        if entry.name not in NOT_REQUESTS:
            requests += entry.num_requests
            in_flight_ms += entry.total_response_time
    errors = sorted(
        ((e.occurrences, f"{e.name}: {e.error}") for e in env.stats.errors.values()), reverse=True
    )
    totals = {
        "requests_per_second": requests / duration,
        "turns_per_second": actions.get(REPLY, {}).get("count", 0) / duration,
        "failures": failures,
        # Little's law: the mean number of requests being served at once.
        "in_flight": in_flight_ms / 1000 / duration,
        "errors": [f"{n} x {text}"[:200] for n, text in errors[:5]],
    }
    return actions, totals


def _wait_for_people(env: Environment, people: int, timeout: float) -> None:
    """Until `people` are running and every one of them has signed up."""
    runner = env.runner
    assert runner is not None
    deadline = time.monotonic() + timeout
    while (runner.user_count < people or Person.arrived < people) and (time.monotonic() < deadline):
        gevent.sleep(0.5)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    data_dir = _data_dir(args.data_dir)
    port = urlsplit(args.url).port or 80
    sampler = Sampler(data_dir=data_dir, port=port,
                      database_url=_database_url(args.database_url, data_dir))  # fmt: skip
    if args.think is not None:
        Person.wait_time = between(*args.think)
    env = Environment(user_classes=[Person], host=args.url, events=events)
    runner = env.create_local_runner()
    sampling = True

    def sample_forever() -> None:
        while sampling:
            sampler.sample()
            gevent.sleep(sampler.interval)

    sampler_greenlet = gevent.spawn(sample_forever)
    report: dict[str, Any] = {
        "url": args.url,
        "commit": _commit(),
        "load_average_start": os.getloadavg(),
        "cores": os.cpu_count(),
        "step_seconds": args.step_seconds,
        "warmup_seconds": args.warmup_seconds,
        "p95_limit_seconds": args.p95_limit,
        "web_threads": args.web_threads
        or int(os.environ.get("MEMORYHUB_WEB_WORKERS", "2") or 2) * 8,
        "rows": [],
        "knee": None,
    }
    try:
        for people in args.steps:
            runner.start(people, spawn_rate=args.spawn_rate)
            _wait_for_people(env, people, timeout=people / args.spawn_rate + 120)
            gevent.sleep(args.warmup_seconds)
            env.stats.reset_all()
            sampler.reset()
            started = time.monotonic()
            gevent.sleep(args.step_seconds)
            duration = time.monotonic() - started
            actions, totals = _action_stats(env, duration)
            row = {"people": people, "seconds": round(duration, 1), "actions": actions, **totals,
                   "server": sampler.summary(), "load_average": os.getloadavg()}  # fmt: skip
            report["rows"].append(row)
            print(_row_line(row), file=sys.stderr, flush=True)
            reply_p95 = actions.get(REPLY, {}).get("p95")
            past = totals["failures"] > 0 or reply_p95 is None or reply_p95 > args.p95_limit * 1000
            if past and report["knee"] is None:
                report["knee"] = people
                if args.stop_after_knee:
                    break
    finally:
        sampling = False
        runner.quit()
        sampler_greenlet.kill()
    report["load_average_end"] = os.getloadavg()
    report["sampler_error"] = sampler.error
    return report


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value / 1000:.2f}"


def _row_line(row: dict[str, Any]) -> str:
    reply = row["actions"].get(REPLY, {})
    return (f"[loadtest] {row['people']} people: {row['turns_per_second']:.2f} turns/s, "
            f"reply p50 {_ms(reply.get('p50'))} s p95 {_ms(reply.get('p95'))} s, "
            f"{row['failures']} errors")  # fmt: skip


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%"


SERVER_GROUPS = ("web", "worker live", "worker bulk", "beat", "postgres", "broker")


def _cpu_per_turn(row: dict[str, Any]) -> str:
    """CPU seconds the server's processes spent per chat turn, with the pages around it: a
    figure that does not depend on how much of the machine others take."""
    cpu = (row["server"] or {}).get("cpu")
    if not cpu or not row["turns_per_second"]:
        return "-"
    return f"{sum(cpu.get(g, 0.0) for g in SERVER_GROUPS) / 100 / row['turns_per_second']:.2f}"


def table(report: dict[str, Any]) -> str:
    """The report as Markdown tables: latency per action, then the server's processes."""
    rows = report["rows"]
    head = ["N", "req/s", "turns/s"] + [f"{a} p50/p95 s" for a in ACTIONS] + ["errors"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [str(row["people"]), f"{row['requests_per_second']:.1f}",
                 f"{row['turns_per_second']:.2f}"]  # fmt: skip
        for action in ACTIONS:
            stats = row["actions"].get(action)
            cells.append("-" if not stats else f"{_ms(stats['p50'])} / {_ms(stats['p95'])}")
        cells.append(str(row["failures"]))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    head = ["N", "in flight", "web", "busiest web worker", "worker live", "worker bulk", "beat",
            "postgres", "broker", "load driver", "other processes", "machine",
            "server CPU s/turn", "DB conns mean/max (active max)", "load avg 1 min"]  # fmt: skip
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        server = row["server"] or {}
        cpu = server.get("cpu", {})
        conns = "-"
        if server.get("db_connections_mean") is not None:
            conns = (f"{server['db_connections_mean']:.0f} / {server['db_connections_max']}"
                     f" ({server['db_active_max']})")  # fmt: skip
        lines.append("| " + " | ".join([
            str(row["people"]), f"{row['in_flight']:.1f} of {report['web_threads']}",
            *(_pct(cpu.get(g)) for g in ("web",)), _pct(server.get("busiest_web_worker")),
            *(_pct(cpu.get(g)) for g in ("worker live", "worker bulk", "beat", "postgres",
                                         "broker", "load driver")),
            _pct(server.get("other_processes")), _pct(server.get("machine")),
            _cpu_per_turn(row), conns,
            f"{row['load_average'][0]:.1f}",
        ]) + " |")  # fmt: skip
    return "\n".join(lines)


def summary_lines(report: dict[str, Any]) -> list[str]:
    lines = [
        f"commit {report['commit']}, {report['cores']} cores, load average "
        f"{report['load_average_start'][0]:.1f} at the start and "
        f"{report['load_average_end'][0]:.1f} at the end; {report['step_seconds']:.0f} s per "
        f"step after {report['warmup_seconds']:.0f} s to settle; CPU as % of one core",
    ]
    knee = report["knee"]
    limit = report["p95_limit_seconds"]
    if knee is None:
        lines.append(f"knee: none up to {report['rows'][-1]['people'] if report['rows'] else 0} "
                     f"people (reply p95 <= {limit:g} s and no errors at every step)")  # fmt: skip
    else:
        lines.append(f"knee: {knee} people (the first step with reply p95 > {limit:g} s "
                     "or an error)")  # fmt: skip
    for row in report["rows"]:
        for error in row["errors"]:
            lines.append(f"  {row['people']} people: {error}")
    if report.get("sampler_error"):
        lines.append(f"sampler: {report['sampler_error']}")
    return lines


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["rows"]
    people = [row["people"] for row in rows]
    figure, latency = plt.subplots(figsize=(7, 4), dpi=120)
    shown = (("reply", "o-", "C0"), ("send", "s--", "C1"), ("memories", "^:", "C2"),
             ("search", "v:", "C3"))  # fmt: skip
    for action, style, color in shown:
        for quantile, alpha in (("p95", 1.0), ("p50", 0.4)):
            values = [(row["actions"].get(action) or {}).get(quantile) for row in rows]
            seconds = [float("nan") if v is None else v / 1000 for v in values]
            latency.plot(people, seconds, style, color=color, alpha=alpha,
                         label=f"{action} {quantile}")  # fmt: skip
    latency.axhline(report["p95_limit_seconds"], color="grey", linewidth=0.8)
    if report["knee"] is not None:
        latency.axvline(report["knee"], color="red", linewidth=0.8, linestyle="--")
    latency.set_xlabel("people chatting at once")
    latency.set_ylabel("seconds")
    latency.set_ylim(bottom=0)
    throughput = latency.twinx()
    throughput.plot(people, [row["turns_per_second"] for row in rows], "k+-", label="turns/s")
    throughput.set_ylabel("chat turns per second")
    throughput.set_ylim(bottom=0)
    lines, labels = latency.get_legend_handles_labels()
    more, more_labels = throughput.get_legend_handles_labels()
    latency.legend(lines + more, labels + more_labels, fontsize=7, loc="upper left")
    latency.set_title(f"memoryhub under load (offline, commit {report['commit']})", fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    report = measure(args)
    print(table(report))
    print()
    for line in summary_lines(report):
        print(line)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1, default=str))
    if args.plot is not None:
        plot(report, args.plot)
        print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
