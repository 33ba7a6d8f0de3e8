"""Settings for running behind PgBouncer (docs/deploy.md, section 8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_PRINT = (
    "from django.conf import settings; "
    "print(sorted({a['DISABLE_SERVER_SIDE_CURSORS'] for a in settings.DATABASES.values()}))"
)


def _in_a_child(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYHUB_DB_")}
    full.update(env, DJANGO_SETTINGS_MODULE="memoryhub.settings")
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {_PRINT}"],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_server_side_cursors_stay_on_unless_turned_off_for_transaction_pooling():
    default = _in_a_child({})
    off = _in_a_child({"MEMORYHUB_DB_DISABLE_SERVER_SIDE_CURSORS": "true"})

    assert default.returncode == 0, default.stderr
    assert default.stdout.strip() == "[False]"
    assert off.returncode == 0, off.stderr
    assert off.stdout.strip() == "[True]"


def test_a_bad_value_for_server_side_cursors_is_refused():
    bad = _in_a_child({"MEMORYHUB_DB_DISABLE_SERVER_SIDE_CURSORS": "sometimes"})

    assert bad.returncode != 0
    assert "MEMORYHUB_DB_DISABLE_SERVER_SIDE_CURSORS must be a boolean" in bad.stderr
