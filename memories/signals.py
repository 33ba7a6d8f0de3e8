"""Hooks other apps connect to; memories never imports them.

`memory_content_removed` is sent inside the deleting transaction with `user_id` and
`memory_ids` (strings). A receiver that keeps copies of memory content (for example the
context stored with an assistant message) removes them there and returns how many copies it
removed; the counts go into the deletion receipt as `cached_copies`.
"""

from __future__ import annotations

from django.dispatch import Signal

memory_content_removed = Signal()
