"""Where the embedded PostgreSQL and broker live, and how settings find them.

The launcher (`python -m memoryhub.launcher`) starts the embedded services and writes their
addresses to `<data dir>/runtime.json` (0600: the Valkey URLs carry its password); settings
read that file when `DATABASE_URL` or
`CELERY_BROKER_URL` is unset, so `manage.py` commands in another shell find the running
product. This module stays import-light: settings import it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DATABASE_NAME = "memoryhub"


def data_dir() -> Path:
    return Path(os.environ.get("MEMORYHUB_DATA_DIR") or BASE_DIR / ".data").resolve()


def pgdata_dir() -> Path:
    return data_dir() / "pg"


def runtime_file(name: str = "runtime") -> Path:
    return data_dir() / f"{name}.json"


def read_runtime(name: str = "runtime") -> dict[str, str]:
    try:
        loaded = json.loads(runtime_file(name).read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}


def embedded_database_url() -> str:
    """The embedded server's URL: from the runtime file, else its default socket folder."""
    recorded = read_runtime().get("database_url")
    if recorded:
        return recorded
    return f"postgresql://postgres@/{DATABASE_NAME}?host={pgdata_dir()}"


def embedded_broker_url() -> str:
    return read_runtime().get("broker_url") or "redis://127.0.0.1:6390/0"


def embedded_cache_url() -> str | None:
    """The embedded cache's URL (its own Valkey, never written to disk), if one runs."""
    return read_runtime().get("cache_url") or None
