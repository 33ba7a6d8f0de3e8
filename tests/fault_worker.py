"""A Celery worker whose memory extraction stops inside its transaction (fault tests only).

Run as `python tests/fault_worker.py worker ...`: the first extraction writes its source
message id to `$FAULT_MARKER` after its `ExtractionRun` row is inserted (not yet committed)
and then waits, so a test can kill the worker at exactly that point. Nothing here is
importable by the product; it patches the product from outside.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
    django.setup()
    from memories.services import extraction
    from memoryhub.celery import app

    marker = Path(os.environ["FAULT_MARKER"])
    store_one = extraction._store_one

    def stalled(**kwargs: Any) -> Any:
        # Written whole, then renamed: the test waits for the file and reads it at once, and
        # under load it used to read the file between its creation and its write ('').
        partial = marker.with_suffix(".partial")
        partial.write_text(str(kwargs["source_message_id"]))
        os.replace(partial, marker)
        time.sleep(3600)
        return store_one(**kwargs)

    extraction._store_one = stalled
    app.worker_main(sys.argv[1:])


if __name__ == "__main__":
    main()
