"""Path checks for Claude's memory tool: pure functions, no Django.

Every path must be `/memories` or below it, in canonical form. Refused outright, before any
lookup: `..` and `.` segments, empty segments, backslashes, NUL and other control characters,
percent-encoding (`%2e%2e%2f`, `%252e`), characters that change under NFKC (fullwidth `．．／`),
anything outside `/memories`, and more than two levels (`/memories/<type>/<file>`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

ROOT = "/memories"
MAX_PATH_CHARS = 255
_SEGMENT = re.compile(r"[\w\-][\w.\-]{0,99}")


class PathRefused(ValueError):
    """A path the memory tool will not touch."""


@dataclass(frozen=True)
class ToolPath:
    """A checked path: `parts` is () for /memories, (dir,) or (dir, file) below it."""

    parts: tuple[str, ...]

    @property
    def text(self) -> str:
        return "/".join((ROOT, *self.parts))


def parse_path(raw: object) -> ToolPath:
    """The checked form of `raw`, or PathRefused saying why."""
    if not isinstance(raw, str) or not raw:
        raise PathRefused("The path must be a non-empty string.")
    if len(raw) > MAX_PATH_CHARS:
        raise PathRefused(f"The path is longer than {MAX_PATH_CHARS} characters.")
    if any(ord(char) < 32 or ord(char) == 127 for char in raw):
        raise PathRefused("The path contains control characters.")
    if "\\" in raw:
        raise PathRefused("The path contains a backslash; use / as the separator.")
    if "%" in raw:
        raise PathRefused("The path contains percent-encoding; write the characters themselves.")
    if unicodedata.normalize("NFKC", raw) != raw:
        raise PathRefused("The path contains non-canonical characters.")
    if raw != ROOT and not raw.startswith(ROOT + "/"):
        raise PathRefused(f"Path must start with {ROOT}, got: {raw}")
    rest = raw[len(ROOT) :]
    if rest.endswith("/"):
        rest = rest[:-1]
    parts = tuple(rest[1:].split("/")) if rest else ()
    for part in parts:
        if part in ("", ".", ".."):
            raise PathRefused(f"Path {raw} would escape the /memories directory.")
        if not _SEGMENT.fullmatch(part):
            raise PathRefused(f"Path {raw} has a name with characters that are not allowed.")
    if len(parts) > 2:
        raise PathRefused("Memories are at most two levels deep: /memories/<type>/<file>.")
    return ToolPath(parts=parts)
