"""Apps depend one way (docs/DESIGN.md): conversations calls memories; memories never imports
conversations. The evaluation harness drives the whole product and is the one exception."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXEMPT = {"evaluation", "eval_memory.py"}


def test_memories_never_imports_conversations():
    offenders = []
    for path in (ROOT / "memories").rglob("*.py"):
        if EXEMPT & set(path.parts) or path.name in EXEMPT:
            continue
        if re.search(r"^\s*(from|import)\s+conversations\b", path.read_text(), re.MULTILINE):
            offenders.append(str(path.relative_to(ROOT)))

    assert offenders == []


def test_only_memoryhub_llm_imports_anthropic():
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("memoryhub", "conversations", "memories")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"^\s*(from|import)\s+anthropic\b", path.read_text(), re.MULTILINE)
        and path != ROOT / "memoryhub" / "llm.py"
    ]

    assert offenders == []
