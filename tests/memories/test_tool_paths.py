"""Path traversal is refused by the memory tool (issue 5 line 9): pure."""

from __future__ import annotations

import pytest

from memories.logic.tool_paths import PathRefused, parse_path


@pytest.mark.parametrize(
    ("raw", "parts"),
    [
        ("/memories", ()),
        ("/memories/", ()),
        ("/memories/fact", ("fact",)),
        ("/memories/fact/12.md", ("fact", "12.md")),
        ("/memories/notes.md", ("notes.md",)),
    ],
)
def test_paths_under_memories_are_accepted(raw, parts):
    assert parse_path(raw).parts == parts


@pytest.mark.parametrize(
    "raw",
    [
        "/memories/../etc/passwd",
        "/memories/fact/../../etc/passwd",
        "/memories/..",
        "/memories/./fact",
        "/memories//fact",
        "/etc/passwd",
        "/memoriesevil/fact",
        "memories/fact",
        "../memories/fact",
        "/memories/%2e%2e/%2e%2e/etc/passwd",
        "/memories/%2e%2e%2fetc%2fpasswd",
        "/memories/%252e%252e%252f",
        "/memories/fact%2f..%2f..",
        "/memories\\..\\..\\windows",
        "/memories/fact\\12.md",
        "/memories/fact/12.md\x00.txt",
        "/memories/fact/\n12.md",
        "/memories/．．/etc",
        "/memories／..／etc",
        "/memories/.hidden",
        "/memories/a/b/c.md",
        "",
        None,
        42,
        "/memories/" + "a" * 300,
    ],
)
def test_traversal_and_encoded_separators_are_refused(raw):
    with pytest.raises(PathRefused):
        parse_path(raw)
