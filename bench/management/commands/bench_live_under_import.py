"""How long a live "remember that ..." takes to become a memory while another user imports.

    python manage.py bench_live_under_import [--messages 50000] [--live 30] [--interval 3]
                                             [--baseline 10] [--keep]

Starts real Celery workers on the real queues (`-Q live` and `-Q bulk,celery`, as `make run`
does, concurrency from MEMORYHUB_LIVE_CONCURRENCY / MEMORYHUB_BULK_CONCURRENCY) against the
configured broker and this database. User Y then sends "remember that ..." messages through
the chat service every `--interval` seconds, first alone (the baseline row), then while user
X imports `--messages` messages through the import service (validated, stored, queued as
the API does). For each message it times send to stored memory and prints p50/p95/max; then
X's import progress. The users it made are deleted at the end unless `--keep`.

Run it with a broker no other worker consumes (`python -m memoryhub.launcher exec -- ...`
gives one), or other workers take part in what is measured.
"""

from __future__ import annotations

import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone

from bench import benchgen
from conversations.models import ChatSession, HistoryImport, Message
from conversations.services import chat, imports
from memories.models import ExtractionRun, MemoryVersion
from memoryhub import llm
from memoryhub.celery import app
from memoryhub.launcher import EMBEDDING_THREADS
from memoryhub.runtime import data_dir

TARGET_P95_SECONDS = 5.0
# Waiting longer than this for one memory counts as a timeout (reported, never dropped).
MEMORY_TIMEOUT_SECONDS = 120.0
BASE_DIR = Path(__file__).resolve().parents[3]

# Facts Y asks to remember: every one distinct, so none is merged into an earlier memory.
_PEOPLE = ["sister", "brother", "manager", "neighbour", "cousin", "friend Mina", "dentist"]
_FACTS = [
    "my {who}'s birthday is on {month} {day}",
    "my {who} lives in {city}",
    "I prefer {food} when I visit my {who}",
    "my {who} recommended the {city} museum",
]
_MONTHS = ["March", "April", "May", "June", "July", "August", "September", "October"]
_CITIES = ["Busan", "Daegu", "Lisbon", "Osaka", "Porto", "Jeonju", "Hanoi", "Quebec"]
_FOODS = ["bibimbap", "pho", "pastel de nata", "ramen", "naengmyeon", "tteokbokki"]


def live_sentences(count: int, *, seed: int) -> list[str]:
    """`count` distinct "Remember that ..." sentences."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        fact = rng.choice(_FACTS).format(
            who=rng.choice(_PEOPLE),
            month=rng.choice(_MONTHS),
            day=rng.randint(1, 28),
            city=rng.choice(_CITIES),
            food=rng.choice(_FOODS),
        )
        sentence = f"Remember that {fact}."
        if sentence not in found:
            found.append(sentence)
    return found


def import_payload(messages: int, *, seed: int) -> dict[str, Any]:
    """An export of `messages` messages in sessions of 10-60, Korean and English."""
    rng = random.Random(seed)
    pool = benchgen.text_pool(per_kind=8, seed=seed)
    by_kind: dict[tuple[int, str, str], list[str]] = {}
    for text in pool:
        by_kind.setdefault((text.topic, text.language, text.role), []).append(text.text)
    topics = sorted({text.topic for text in pool})
    start = timezone.now() - timedelta(days=400)
    sessions: list[dict[str, Any]] = []
    made = 0
    while made < messages:
        size = min(rng.randint(10, 60), messages - made)
        topic, language = rng.choice(topics), rng.choice(benchgen.LANGUAGES)
        at = start + timedelta(hours=6 * len(sessions))
        rows = []
        for i in range(size):
            role = "user" if i % 2 == 0 else "assistant"
            rows.append(
                {
                    "role": role,
                    "content": rng.choice(by_kind[(topic, language, role)]),
                    "created_at": (at + timedelta(minutes=i)).isoformat(),
                    "external_id": f"bench-{made + i}",
                }
            )
        sessions.append({"started_at": at.isoformat(), "messages": rows})
        made += size
    return {"sessions": sessions}


def p95(values: list[float]) -> float:
    """The nearest-rank 95th percentile of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


@dataclass
class Phase:
    """Y's messages of one phase: seconds from send to memory, and from the stored reply
    (when the chat turn returned and its extraction was queued) to memory."""

    name: str
    seconds: list[float] = field(default_factory=list)
    after_reply: list[float] = field(default_factory=list)
    no_memory: int = 0
    timeouts: int = 0

    def row(self) -> str:
        counts = f"no_memory={self.no_memory} timeouts={self.timeouts}"
        if not self.seconds:
            return f"{self.name:<13} n=0    {counts}"
        return (
            f"{self.name:<13} n={len(self.seconds):<3} send->memory "
            f"p50={statistics.median(self.seconds):5.2f} p95={p95(self.seconds):5.2f} "
            f"max={max(self.seconds):5.2f} s | reply->memory "
            f"p50={statistics.median(self.after_reply):5.2f} p95={p95(self.after_reply):5.2f} "
            f"max={max(self.after_reply):5.2f} s | {counts}"
        )


def _worker_database_url() -> str:
    """DATABASE_URL naming the database this process uses (the test database in tests)."""
    parts = urlsplit(os.environ.get("DATABASE_URL", ""))
    if not parts.scheme:
        raise CommandError("DATABASE_URL is not set; run under `python -m memoryhub.launcher`")
    return urlunsplit(parts._replace(path="/" + str(connection.settings_dict["NAME"])))


@contextmanager
def workers(*, live: str, bulk: str, stdout: Any) -> Iterator[list[str]]:
    """A live and a bulk worker, as `make run` starts them; stopped on the way out."""
    host, tag = socket.gethostname(), f"{os.getpid()}"
    env = dict(os.environ, DATABASE_URL=_worker_database_url(), PYTHONUNBUFFERED="1")
    started: list[subprocess.Popen[bytes]] = []
    names = []
    try:
        for queue, queues, concurrency in (("live", "live", live), ("bulk", "bulk,celery", bulk)):
            name = f"bench-{queue}-{tag}@{host}"
            log = data_dir() / f"bench-{queue}.log"
            log.parent.mkdir(parents=True, exist_ok=True)
            with log.open("ab") as out:
                started.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "celery",
                            "-A",
                            "memoryhub",
                            "worker",
                            "-Q",
                            queues,
                            "--concurrency",
                            concurrency,
                            "-n",
                            name,
                            "-l",
                            "INFO",
                        ],
                        cwd=BASE_DIR,
                        env=env,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                    )
                )
            names.append(name)
            stdout.write(f"worker {name}: -Q {queues} --concurrency {concurrency}; log {log}")
        deadline = time.monotonic() + 180
        while len(app.control.ping(destination=names, timeout=1.0)) < len(names):
            if time.monotonic() > deadline or any(p.poll() is not None for p in started):
                raise CommandError("the workers did not start; see their logs above")
        yield names
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _memory_made(message_id: int) -> bool | None:
    """True once a memory came from the message; False when its extraction ended without
    one; None while it is still waiting."""
    # The run first: it commits with the memories, so once it is seen they are too.
    if not ExtractionRun.objects.filter(source_message_id=message_id).exists():
        return None
    return MemoryVersion.objects.filter(source_message_id=message_id).exists()


def measure_live(
    *, user: Any, sentences: list[str], interval: float, phase: Phase, poll: float = 0.05
) -> None:
    """Send each sentence through the chat service every `interval` seconds and time each
    from send to stored memory, until every one has a memory or timed out.

    A thread of its own (with its own database connection) watches for the memories, so a
    memory stored while the next message is being sent is seen when it is stored.
    """
    session = chat.chat_session_create(user=user)
    pending: dict[int, tuple[float, float]] = {}
    lock = threading.Lock()
    sending = threading.Event()
    sending.set()

    def watch() -> None:
        try:
            while sending.is_set() or pending:
                with lock:
                    waiting = list(pending.items())
                for message_id, (sent_at, replied_at) in waiting:
                    made = _memory_made(message_id)
                    now = time.monotonic()
                    if made is True:
                        phase.seconds.append(now - sent_at)
                        phase.after_reply.append(now - replied_at)
                    elif made is False:
                        phase.no_memory += 1
                    elif now - sent_at > MEMORY_TIMEOUT_SECONDS:
                        phase.timeouts += 1
                    else:
                        continue
                    with lock:
                        del pending[message_id]
                time.sleep(poll)
        finally:
            connection.close()

    watcher = threading.Thread(target=watch, name="bench-watch", daemon=True)
    watcher.start()
    try:
        next_send = time.monotonic()
        for sentence in sentences:
            time.sleep(max(0.0, next_send - time.monotonic()))
            sent_at = time.monotonic()
            next_send = sent_at + interval
            exchange = chat.chat_exchange(session=session, content=sentence)
            with lock:
                pending[exchange.user_message.pk] = (sent_at, time.monotonic())
    finally:
        sending.clear()
        watcher.join()


def import_progress(record: HistoryImport, *, started: float) -> str:
    record.refresh_from_db()
    imported = Message.objects.filter(session__history_import=record)
    sessions = ChatSession.objects.filter(history_import=record)
    extracted = ExtractionRun.objects.filter(user_id=record.user_id).count()
    user_messages = imported.filter(role=Message.Role.USER).count()
    return (
        f"import of X after {time.monotonic() - started:.0f} s: {record.status}; "
        f"stored {record.done:,}/{record.total:,}; "
        f"embedded {imported.filter(embedding__isnull=False).count():,}; "
        f"sessions finished {sessions.filter(status=ChatSession.Status.ENDED).count():,}"
        f"/{sessions.count():,}; user messages extracted {extracted:,}/{user_messages:,}"
    )


class Command(BaseCommand):
    help = "Time a live 'remember that ...' to its memory while another user imports."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--messages", type=int, default=50_000, help="X's import size")
        parser.add_argument("--live", type=int, default=30, help="Y's messages under import")
        parser.add_argument("--baseline", type=int, default=10, help="Y's messages alone")
        parser.add_argument("--interval", type=float, default=3.0, help="seconds between sends")
        parser.add_argument("--seed", type=int, default=15)
        parser.add_argument("--keep", action="store_true", help="keep the users it made")

    def handle(self, *args: Any, **options: Any) -> None:
        size, live, baseline = options["messages"], options["live"], options["baseline"]
        if not 1 <= size <= settings.MEMORYHUB_MAX_IMPORT_MESSAGES:
            raise CommandError(
                f"--messages must be 1-{settings.MEMORYHUB_MAX_IMPORT_MESSAGES} "
                "(MEMORYHUB_MAX_IMPORT_MESSAGES)"
            )
        if live < 1 or baseline < 0 or options["interval"] <= 0:
            raise CommandError("--live must be at least 1, --baseline 0 or more, --interval > 0")
        # This process sends the chat turns, as a web worker of `make run` does: the same
        # embedding threads (set before the model is first loaded here and in the workers).
        for name, value in EMBEDDING_THREADS.items():
            os.environ.setdefault(name, value)
        live_slots = os.environ.get("MEMORYHUB_LIVE_CONCURRENCY", "2")
        bulk_slots = os.environ.get("MEMORYHUB_BULK_CONCURRENCY", "1")
        mode = "offline" if llm.get_provider().offline else "Claude"
        self.stdout.write(
            f"bench_live_under_import: X imports {size:,} messages; Y sends 'Remember that "
            f"...' every {options['interval']} s; LLM {mode}; "
            f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        sentences = live_sentences(1 + baseline + live, seed=options["seed"])
        payload = import_payload(size, seed=options["seed"])
        users = get_user_model().objects
        tag = f"{os.getpid()}-{int(time.time())}"
        x = users.create_user(username=f"bench-importer-{tag}", password=None)
        y = users.create_user(username=f"bench-live-{tag}", password=None)
        alone, loaded = Phase("baseline"), Phase("under import")
        try:
            with workers(live=live_slots, bulk=bulk_slots, stdout=self.stdout):
                # One untimed message: a fresh worker loads its models on its first task.
                measure_live(user=y, sentences=sentences[:1], interval=0, phase=Phase("warm"))
                measure_live(
                    user=y,
                    sentences=sentences[1 : 1 + baseline],
                    interval=options["interval"],
                    phase=alone,
                )
                self.stdout.write(alone.row())
                began = time.monotonic()
                record = imports.history_import_create(user=x, payload=payload)
                self.stdout.write(
                    f"import {record.pk} queued in {time.monotonic() - began:.1f} s "
                    "(validated and stored for its task)"
                )
                measure_live(
                    user=y,
                    sentences=sentences[1 + baseline :],
                    interval=options["interval"],
                    phase=loaded,
                )
                self.stdout.write(alone.row())
                self.stdout.write(loaded.row())
                self.stdout.write(import_progress(record, started=began))
        finally:
            if not options["keep"]:
                users.filter(pk__in=[x.pk, y.pk]).delete()
        met = loaded.seconds and p95(loaded.seconds) <= TARGET_P95_SECONDS and not loaded.timeouts
        verdict = "met" if met else "missed"
        self.stdout.write(
            f"target: p95 under import at most {TARGET_P95_SECONDS:.0f} s: {verdict}; "
            f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
