"""More worker machines (issue 20 line 4): a worker started elsewhere, from its own copy of the
code in a folder of its own and with nothing but the database's and the broker's URLs (and
the settings module and the code's path), joins and takes its queue's tasks.

Two such "machines" here: one worker serves `live`, the other `bulk`; each embeds the messages
of the tasks its queue was sent, into the shared database; and neither needs anything of the
data folder of `make run` (their copies of the code have none, and they leave no runtime
file, log or broker state in one of their own).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.result import AsyncResult
from django.conf import settings

from conversations.models import ChatSession, Message
from conversations.tasks import messages_backfill, messages_embed
from memoryhub.celery import app
from tests.conftest import ROOT, test_database_url, wait_until
from tests.workers import WORKER_ARGS, worker_stop

pytestmark = [pytest.mark.worker, pytest.mark.slow]

# What a checkout holds that another machine would not have: the data folder, the virtualenv,
# git's files and caches. Tests and docs are not needed to run a worker.
_NOT_CODE = shutil.ignore_patterns(
    ".data", ".venv", ".git", "__pycache__", "*.pyc", "node_modules", "tests", "docs", ".ci"
)
# Passed through when set: CPU workarounds of this machine (see tests of the embedding model).
_MACHINE = ("PATH", "LANG", "LC_ALL", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def _machine(folder: Path) -> dict[str, str]:
    """A folder standing in for another machine: its own copy of the code; returns the only
    environment its worker gets."""
    shutil.copytree(ROOT, folder / "code", ignore=_NOT_CODE)
    env = {name: os.environ[name] for name in _MACHINE if name in os.environ}
    env.update(
        DATABASE_URL=test_database_url(),
        CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
        DJANGO_SETTINGS_MODULE="memoryhub.settings",
        PYTHONPATH=str(folder / "code"),
        HOME=str(folder),
        PYTHONUNBUFFERED="1",
    )
    return env


def _start(folder: Path, *, name: str, queues: str) -> subprocess.Popen[bytes]:
    env = _machine(folder)
    with (folder / "worker.log").open("ab") as log:
        return subprocess.Popen(
            [
                sys.executable,
                *["-m", "celery", "-A", "memoryhub", "worker", "--pool", "solo"],
                *("-Q", queues, "-n", f"{name}@%h", *WORKER_ARGS),
            ],
            cwd=folder,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


@pytest.fixture
def two_machines(transactional_db: None, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    app.control.purge()
    a, b = tmp_path / "machine-a", tmp_path / "machine-b"
    a.mkdir()
    b.mkdir()
    processes = [
        _start(a, name=f"machine-a-{os.getpid()}", queues="live"),
        _start(b, name=f"machine-b-{os.getpid()}", queues="bulk"),
    ]
    try:
        for folder, process in zip((a, b), processes, strict=True):
            assert wait_until(lambda f=folder: "ready." in _log(f), timeout=180), _log(folder)
            assert process.poll() is None
        yield a, b
    finally:
        for process in processes:
            worker_stop(process)


def _log(folder: Path) -> str:
    path = folder / "worker.log"
    return path.read_text(errors="replace") if path.exists() else ""


def _unembedded(user: Any, count: int) -> list[Message]:
    session = ChatSession.objects.create(user=user)
    return [
        Message.objects.create(
            session=session, user=user, role="user", content=f"Note {n}: the blue folder."
        )
        for n in range(count)
    ]


def _ran(folder: Path, task: str, task_id: str) -> bool:
    return f"Task {task}[{task_id}] succeeded" in _log(folder)


def test_two_workers_from_separate_folders_take_the_live_and_the_bulk_queue(
    two_machines: tuple[Path, Path], user: Any, other_user: Any
) -> None:
    a, b = two_machines
    live_messages = _unembedded(user, 3)
    bulk_messages = _unembedded(other_user, 3)

    live = messages_embed.delay(user_id=user.pk)
    bulk = messages_backfill.delay(user_id=other_user.pk)

    assert AsyncResult(live.id).get(timeout=180) >= 0
    assert AsyncResult(bulk.id).get(timeout=180) >= 0
    for message in live_messages + bulk_messages:
        message.refresh_from_db()
        assert message.embedding is not None
    assert _ran(a, "conversations.tasks.messages_embed", live.id)
    assert _ran(b, "conversations.tasks.messages_backfill", bulk.id)
    assert not _ran(b, "conversations.tasks.messages_embed", live.id)
    assert not _ran(a, "conversations.tasks.messages_backfill", bulk.id)
    for folder in (a, b):
        # A worker needs no data folder: nothing is read from one, and at most the secret key
        # it generates when MEMORYHUB_SECRET_KEY is unset is written to its own.
        data = folder / "code" / ".data"
        assert not data.exists() or {p.name for p in data.iterdir()} <= {"secret_key"}
