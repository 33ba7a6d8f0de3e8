"""Offline compaction of old turns into a structured session state (seed 003, section 2).

The state keeps what the session needs to go on: the goal and its done-condition, what was
done and confirmed, decisions with reasons and constraints, exact identifiers, open blockers
and the next step. It is session state, never a long-term memory, and the turns it covers
stay stored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from conversations.logic.summarize import split_sentences

_IDENTIFIER = re.compile(
    r"(?:https?://\S+)"  # URLs
    r"|(?:[\w.-]+/)+[\w.-]+"  # paths: app/page.tsx, src/lib/db.py
    r"|\b[\w-]+\.(?:py|js|ts|tsx|jsx|json|md|yml|yaml|toml|sql|html|css|go|rs|java)\b"
    r"|#\d+\b"  # issue / PR numbers
    r"|\b[A-Z]{2,}-\d+\b"  # ticket ids
    r"|\bv?\d+\.\d+(?:\.\d+)?\b"  # versions
    r"|`[^`]{2,80}`"  # code spans
)
_CUES = {
    "goal": (r"하려고|하고 싶|할 거야|목표|계획|want to|going to|plan to|trying to|goal|need to"),
    "done_condition": r"되면 끝|끝나면|완료 조건|done when|finished when|is done once",
    "completed": (
        r"했어|했다|했습니다|완료|끝났|해결|성공|고쳤|done|finished|fixed|solved|completed|"
        r"set up|deployed|merged|works now"
    ),
    "decisions": (
        r"하기로|결정|정했|선택|쓰기로|decided|let's|we'll use|chose|go with|agreed|instead of"
    ),
    "constraints": r"반드시|절대|하면 안|말고|must|never|don't|cannot|can't|only|without",
    "blockers": (
        r"에러|오류|안 돼|안돼|막혔|실패|문제|error|fail|broken|blocked|stuck|issue|bug|crash"
    ),
    "next_step": r"다음|이제|내일|할게|해볼게|next|then|tomorrow|will|todo|to do",
}
_PATTERNS = {key: re.compile(value, re.IGNORECASE) for key, value in _CUES.items()}
_MAX_ITEMS = 6


@dataclass
class SessionState:
    goal: str = ""
    done_condition: str = ""
    completed: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    identifiers: list[str] = field(default_factory=list)
    blockers: list[str] = field(default_factory=list)
    next_step: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "goal": self.goal,
            "done_condition": self.done_condition,
            "completed": self.completed,
            "decisions": self.decisions,
            "constraints": self.constraints,
            "identifiers": self.identifiers,
            "blockers": self.blockers,
            "next_step": self.next_step,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SessionState:
        def strings(value: Any) -> list[str]:
            return [str(v) for v in value][: _MAX_ITEMS * 2] if isinstance(value, list) else []

        return cls(
            goal=str(data.get("goal", ""))[:500],
            done_condition=str(data.get("done_condition", ""))[:500],
            completed=strings(data.get("completed")),
            decisions=strings(data.get("decisions")),
            constraints=strings(data.get("constraints")),
            identifiers=strings(data.get("identifiers")),
            blockers=strings(data.get("blockers")),
            next_step=str(data.get("next_step", ""))[:500],
        )

    def render(self) -> str:
        lines = []
        if self.goal:
            lines.append(f"Goal: {self.goal}")
        if self.done_condition:
            lines.append(f"Done when: {self.done_condition}")
        for label, items in (
            ("Completed", self.completed),
            ("Decisions", self.decisions),
            ("Constraints", self.constraints),
            ("Identifiers", self.identifiers),
            ("Open blockers", self.blockers),
        ):
            if items:
                lines.append(f"{label}: " + "; ".join(items))
        if self.next_step:
            lines.append(f"Next step: {self.next_step}")
        return "\n".join(lines)


def _add(items: list[str], value: str) -> None:
    value = value.strip()
    if value and value not in items:
        items.append(value[:300])
    del items[:-_MAX_ITEMS]


def fold(state: SessionState, turns: Sequence[tuple[str, str]]) -> SessionState:
    """Fold (role, text) turns, oldest first, into `state` with cue rules; return it."""
    blockers_resolved: list[str] = []
    for role, text in turns:
        for match in _IDENTIFIER.finditer(text):
            _add(state.identifiers, match.group(0).strip("`"))
        for sentence in split_sentences(text):
            if role == "user" and _PATTERNS["goal"].search(sentence) and not state.goal:
                state.goal = sentence[:300]
            if (
                _PATTERNS["done_condition"].search(sentence)
                and role == "user"
                and not state.done_condition
            ):
                state.done_condition = sentence[:300]
            if _PATTERNS["decisions"].search(sentence):
                _add(state.decisions, sentence)
            if _PATTERNS["constraints"].search(sentence) and role == "user":
                _add(state.constraints, sentence)
            completed = _PATTERNS["completed"].search(sentence)
            if completed and role == "user":
                _add(state.completed, sentence)
                if _PATTERNS["blockers"].search(sentence):
                    blockers_resolved.append(sentence)
            elif _PATTERNS["blockers"].search(sentence) and role == "user":
                _add(state.blockers, sentence)
            if _PATTERNS["next_step"].search(sentence):
                state.next_step = sentence[:300]
    # "빌드 에러는 해결했어" closes the blocker it names; keep only blockers still open.
    if blockers_resolved:
        state.blockers = [
            b
            for b in state.blockers
            if not any(_shares_words(b, resolved) for resolved in blockers_resolved)
        ]
    return state


def _shares_words(a: str, b: str) -> bool:
    words_a = set(re.findall(r"\w{2,}", a.lower()))
    words_b = set(re.findall(r"\w{2,}", b.lower()))
    return len(words_a & words_b) >= 1
