"""The warm-up of `make run`'s processes (memoryhub/warmup.py) and its fork safety."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from memoryhub import warmup
from tests.conftest import ROOT

# What gunicorn (preload_app) and a Celery prefork worker do: warm the parent, fork, and in the
# child warm what may not cross a fork, use both models, and leave as a stopping process does.
_FORKED_CHILD = textwrap.dedent(
    """
    import os, sys
    import django
    django.setup()
    from memoryhub import embeddings, text, warmup

    warmup.before_fork(web=True)
    assert text._kiwi is not None and embeddings._embedder is None
    pid = os.fork()
    if pid == 0:
        warmup.after_fork()
        assert text.keywords("오늘은 동생이랑 한강에서 자전거를 탔어")
        vector = embeddings.embed_query("a bicycle ride by the river")
        assert vector.shape == (embeddings.get_embedder().dim,)
        sys.exit(0)  # the interpreter's teardown, as a gunicorn worker has it
    _, status = os.waitpid(pid, 0)
    print("child status", os.waitstatus_to_exitcode(status))
    """
)


def test_a_child_forked_after_the_warm_up_analyses_embeds_and_exits_cleanly():
    env = dict(os.environ, MEMORYHUB_WARM_UP="1", DJANGO_SETTINGS_MODULE="memoryhub.settings")
    done = subprocess.run(
        [sys.executable, "-c", _FORKED_CHILD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,  # a child that hangs on a thread pool it never had fails here
    )

    assert done.returncode == 0, done.stderr[-3000:]
    assert "child status 0" in done.stdout, done.stdout + done.stderr[-3000:]


def test_without_the_setting_nothing_is_loaded(monkeypatch):
    monkeypatch.delenv("MEMORYHUB_WARM_UP", raising=False)
    loaded = []
    monkeypatch.setattr("memoryhub.text.warm_up", lambda: loaded.append("kiwi"))
    monkeypatch.setattr("memoryhub.embeddings.warm_up", lambda: loaded.append("embedder"))

    warmup.before_fork(web=True)
    warmup.after_fork()

    assert loaded == []
    assert warmup.after_fork_in_background() is None


def test_with_the_setting_the_parent_loads_kiwi_and_the_child_the_embedder(monkeypatch):
    monkeypatch.setenv("MEMORYHUB_WARM_UP", "1")
    loaded = []
    monkeypatch.setattr("memoryhub.text.warm_up", lambda: loaded.append("kiwi"))
    monkeypatch.setattr("memoryhub.embeddings.warm_up", lambda: loaded.append("embedder"))

    warmup.before_fork()
    assert loaded == ["kiwi"]  # never the embedder before a fork
    thread = warmup.after_fork_in_background()
    assert thread is not None
    thread.join(timeout=30)

    assert loaded == ["kiwi", "kiwi", "embedder"]


def test_a_bad_value_of_the_setting_is_an_error(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.setenv("MEMORYHUB_WARM_UP", "sometimes")

    with pytest.raises(ImproperlyConfigured):
        warmup.enabled()


def test_a_ready_process_leaves_its_mark_where_the_launcher_looks(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMORYHUB_READY_DIR", str(tmp_path))

    warmup.report_ready("web")

    assert [p.name for p in tmp_path.iterdir()] == [f"web-{os.getpid()}"]


def test_without_a_ready_folder_nothing_is_written(monkeypatch, tmp_path):
    monkeypatch.delenv("MEMORYHUB_READY_DIR", raising=False)
    monkeypatch.chdir(tmp_path)

    warmup.report_ready("worker")

    assert list(tmp_path.iterdir()) == []
