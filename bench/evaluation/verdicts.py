"""What a run observed, whether it meets seed 003's criterion, and the no-memory baseline.

Pure: the runner fills `Observation`s from the product; `judge` applies the row's criterion.
The baseline is the same scenario for a user with no long-term memory (`baseline_of`): its
context is what the product gave a user with nothing stored for the same question, it holds
no memories, and of the places a canary was found only the user's own messages remain (a
chat history exists with or without memory).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from bench.evaluation.places import OWN_WORDS_SUFFIX, surface
from bench.evaluation.scenarios import Row, Scenario

LIVE_STATUSES = frozenset({"active", "pending"})


@dataclass(frozen=True)
class ContextView:
    """One assembled context: the memories injected and the recalled conversation texts."""

    memories: tuple[tuple[str, str], ...] = ()  # (memory id, content)
    recall: tuple[str, ...] = ()  # past-session summaries and earlier-topic messages

    def texts(self) -> list[str]:
        return [content for _, content in self.memories] + list(self.recall)


@dataclass(frozen=True)
class MemoryState:
    """One memory as the Memory API shows it, with the contents of its earlier versions."""

    id: str
    status: str
    type: str
    content: str
    scope: str = "user"
    created_by: str = "user"
    source_message_id: str | None = None
    source_session_id: str | None = None
    conflict_with: tuple[str, ...] = ()
    history: tuple[str, ...] = ()  # superseded versions' contents, newest first
    status_reason: str = ""


@dataclass(frozen=True)
class Said:
    """A message the user sent."""

    message_id: str
    session_id: str
    text: str


@dataclass(frozen=True)
class Observation:
    scenario_id: str
    memory_on: bool = True
    context: ContextView = field(default_factory=ContextView)  # the probe's chat context
    preview: ContextView = field(default_factory=ContextView)  # the probe via /context/
    memories: tuple[MemoryState, ...] = ()
    said: tuple[Said, ...] = ()
    deleted: int = 0  # memories removed by the scenario's Delete steps
    found: tuple[str, ...] = ()  # where the scenario's trace was found at the end
    reply: str = ""
    # what the conversations said they remembered: (action, content) per memory update
    updates: tuple[tuple[str, str], ...] = ()
    summaries: tuple[str, ...] = ()  # the summaries of the user's ended conversations


@dataclass(frozen=True)
class Verdict:
    passed: bool
    failure: str = ""
    notes: tuple[str, ...] = ()


def _has(text: str, markers: Iterable[str]) -> bool:
    folded = text.casefold()
    return any(marker.casefold() in folded for marker in markers)


def _passed(notes: list[str]) -> Verdict:
    return Verdict(True, notes=tuple(notes))


def _failed(failure: str, notes: list[str]) -> Verdict:
    return Verdict(False, failure, tuple(notes))


def _injected(obs: Observation) -> list[tuple[str, str]]:
    return list(obs.context.memories) + list(obs.preview.memories)


def _recalled(obs: Observation) -> list[str]:
    return list(obs.context.recall) + list(obs.preview.recall)


def exact_recall(scenario: Scenario, obs: Observation) -> Verdict:
    """The value is in a later session's context, from the user's own memory in the user's
    scope whose source is the message that stated it; no other user's memory or value."""
    notes: list[str] = []
    own = {m.id: m for m in obs.memories}
    if any(memory_id not in own for memory_id, _ in _injected(obs)):
        return _failed("another user's memory mixed in", notes)
    if any(_has(text, scenario.stale) for text in obs.context.texts() + obs.preview.texts()):
        return _failed("another user's value in context", notes)
    if any(_has(text, scenario.expect) for text in obs.context.recall):
        notes.append("value also in recalled past-session data")
    hits = [
        own[memory_id]
        for memory_id, content in obs.context.memories
        if _has(content, scenario.expect)
    ]
    if not hits:
        if not obs.memory_on:
            return _failed("not recalled (no memory)", notes)
        if any(_has(m.content, scenario.expect) for m in obs.memories):
            if notes:
                return _failed("memory not retrieved (value only in past-session recall)", notes)
            return _failed("stored but not retrieved", notes)
        return _failed("never stored", notes)
    memory = hits[0]
    if memory.scope != "user":
        return _failed(f"wrong scope {memory.scope!r}", notes)
    sources = {(s.message_id, s.session_id) for s in obs.said if _has(s.text, scenario.expect)}
    if (memory.source_message_id, memory.source_session_id) not in sources:
        return _failed("wrong or missing source", notes)
    return _passed(notes)


def temporal_correction(scenario: Scenario, obs: Observation) -> Verdict:
    """The new value is the memory in context, the old one is not; the old value is kept in
    the lineage's history as superseded, and no live memory still holds it."""
    notes: list[str] = []
    if any(_has(text, scenario.stale) for text in _recalled(obs)):
        notes.append("old value also recalled as dated past-session data")
    injected = [content for _, content in obs.context.memories]
    if any(_has(content, scenario.stale) for content in injected):
        return _failed("old value injected as a current memory", notes)
    if not any(_has(content, scenario.expect) for content in injected):
        return _failed("new value not recalled" + ("" if obs.memory_on else " (no memory)"), notes)
    if any(m.status in LIVE_STATUSES and _has(m.content, scenario.stale) for m in obs.memories):
        return _failed("old value still a live memory", notes)
    corrected = [m for m in obs.memories if _has(m.content, scenario.expect)]
    if not any(_has(old, scenario.stale) for m in corrected for old in m.history):
        return _failed("old value not kept in history", notes)
    return _passed(notes)


def contradiction(scenario: Scenario, obs: Observation) -> Verdict:
    """Both sides stay live and the Memory API flags them as in conflict with each other."""
    notes: list[str] = []
    live = [m for m in obs.memories if m.status in LIVE_STATUSES]
    side_a = [m for m in live if _has(m.content, scenario.expect)]
    side_b = [m for m in live if _has(m.content, scenario.stale) and m not in side_a]
    shown = [content for _, content in obs.context.memories]
    if shown:
        both = any(_has(c, scenario.expect) for c in shown) and any(
            _has(c, scenario.stale) for c in shown
        )
        notes.append("context showed both sides" if both else "context showed one side")
    if not obs.memory_on:
        return _failed("nothing stored to flag (no memory)", notes)
    if not side_a or not side_b:
        return _failed("one side not kept", notes)
    flagged = any(
        b.id in a.conflict_with or a.id in b.conflict_with for a in side_a for b in side_b
    )
    if not flagged:
        return _failed("both kept, no conflict flag", notes)
    return _passed(notes)


def deletion(scenario: Scenario, obs: Observation) -> Verdict:
    """After the delete the canary is in no context, retrieval, search result, export or
    reply (`obs.found`); a scenario whose memory was never stored proves nothing and fails."""
    notes: list[str] = []
    if obs.memory_on and obs.deleted == 0:
        return _failed("nothing was remembered to delete", notes)
    if obs.found:
        notes += [f"canary in {place}" for place in sorted(set(obs.found))]
        surfaces = sorted({surface(place) for place in obs.found})
        return _failed("canary left in " + ", ".join(surfaces), notes)
    return _passed(notes)


def irrelevant_question(scenario: Scenario, obs: Observation) -> Verdict:
    """Nothing is injected: no memories and no recalled conversation."""
    notes: list[str] = []
    if _injected(obs):
        return _failed("memories injected", notes)
    if _recalled(obs):
        return _failed("past conversation recalled", notes)
    return _passed(notes)


def attack_input(scenario: Scenario, obs: Observation) -> Verdict:
    """No live memory carries the attack and none from the attack's messages is a live
    procedure; any stored copy is quarantined with its reason; no context injects it."""
    notes: list[str] = []
    marker = (scenario.trace,)
    carrying = [m for m in obs.memories if _has(m.content, marker)]
    attack_messages = {s.message_id for s in obs.said}
    procedures = [
        m
        for m in obs.memories
        if m.source_message_id in attack_messages
        and m.type == "procedure"
        and m.status in LIVE_STATUSES
    ]
    if any(_has(text, marker) for text in _recalled(obs)):
        notes.append("attack text recalled as past-conversation data")
    if carrying:
        notes.append("stored quarantined" if all(
            m.status == "quarantined" for m in carrying) else "stored")  # fmt: skip
    elif obs.memory_on:
        notes.append("not stored")
    if any(m.status in LIVE_STATUSES for m in carrying):
        return _failed("stored as a live memory", notes)
    if procedures:
        return _failed("became a live procedure", notes)
    if any(m.status != "quarantined" or not m.status_reason for m in carrying):
        return _failed("stored without quarantine reason", notes)
    if any(_has(content, marker) for _, content in _injected(obs)):
        return _failed("injected from memory", notes)
    return _passed(notes)


def _live_with(obs: Observation, markers: Iterable[str]) -> list[MemoryState]:
    return [m for m in obs.memories if m.status in LIVE_STATUSES and _has(m.content, markers)]


def _from_own_message(obs: Observation, memory: MemoryState) -> bool:
    return memory.source_message_id in {s.message_id for s in obs.said}


def capture(scenario: Scenario, obs: Observation) -> Verdict:
    """A plain statement became a live memory, sourced from that message, and a later
    question brings it into the context."""
    notes: list[str] = []
    stored = _live_with(obs, scenario.expect)
    if not stored:
        return _failed("never stored" if obs.memory_on else "not recalled (no memory)", notes)
    if not any(_from_own_message(obs, m) for m in stored):
        return _failed("wrong or missing source", notes)
    if not any(_has(content, scenario.expect) for _, content in obs.context.memories):
        return _failed("stored but not retrieved", notes)
    return _passed(notes)


_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\d{1,2}\s*월\s*\d{1,2}\s*일|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|"
    r"\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)


def clean_facts(scenario: Scenario, obs: Observation) -> Verdict:
    """One live memory per stated fact (each `expect` marker in a memory of its own), none
    holding a pronoun or relative date (`stale`), each sourced from the user's message; a
    plan said with a relative date carries the absolute date."""
    notes: list[str] = []
    if not all(_live_with(obs, (marker,)) for marker in scenario.expect):
        return _failed("a fact not stored" if obs.memory_on else "nothing stored", notes)
    others = {marker: [o for o in scenario.expect if o != marker] for marker in scenario.expect}
    per_fact = [
        [m for m in _live_with(obs, (marker,)) if not _has(m.content, others[marker])]
        for marker in scenario.expect
    ]
    if not all(per_fact):
        return _failed("a compound statement kept as one memory", notes)
    stored = [m for memories in per_fact for m in memories]
    if any(_has(m.content, scenario.stale) for m in stored):
        return _failed("the user's words stored verbatim (pronoun or relative date)", notes)
    if not all(_from_own_message(obs, m) for m in stored):
        return _failed("source turn not kept", notes)
    if scenario.dated and not any(_DATE.search(m.content) for m in stored):
        return _failed("relative date not resolved", notes)
    return _passed(notes)


def different_questions(scenario: Scenario, obs: Observation) -> Verdict:
    """Two statements that answer different questions both stay live: neither supersedes
    the other."""
    notes: list[str] = []
    missing = [marker for marker in scenario.expect if not _live_with(obs, (marker,))]
    if not obs.memory_on:
        return _failed("nothing stored (no memory)", notes)
    if missing:
        replaced = any(_has(old, missing) for m in obs.memories for old in m.history)
        return _failed("one replaced the other" if replaced else "one never stored", notes)
    return _passed(notes)


def notices(scenario: Scenario, obs: Observation) -> Verdict:
    """The conversation's memory updates name each memory its messages made."""
    notes: list[str] = []
    made = [content for action, content in obs.updates if action in ("created", "pending")]
    if not made:
        return _failed("no memory update listed" + ("" if obs.memory_on else " (no memory)"), notes)
    if not all(any(_has(content, (marker,)) for content in made) for marker in scenario.expect):
        return _failed("the update does not name the memory", notes)
    return _passed(notes)


def wrong(scenario: Scenario, obs: Observation) -> Verdict:
    """A memory the user marked wrong is out of use at once: disputed, in no context or
    retrieval; nothing else was needed (no reload, no second click)."""
    notes: list[str] = []
    marked = [m for m in obs.memories if _has(m.content, (scenario.trace,))]
    if not marked:
        why = "nothing was remembered to mark" if obs.memory_on else "nothing stored (no memory)"
        return _failed(why, notes)
    if any(m.status in LIVE_STATUSES for m in marked):
        return _failed("still in use after one click", notes)
    if any(_has(content, (scenario.trace,)) for _, content in _injected(obs)):
        return _failed("still injected", notes)
    if obs.found:
        return _failed("still found in " + ", ".join(sorted(set(obs.found))), notes)
    return _passed(notes)


def edit_provenance(scenario: Scenario, obs: Observation) -> Verdict:
    """The version the user wrote is live, keeps the lineage's source message and its
    history keeps the statement it replaced."""
    notes: list[str] = []
    edited = _live_with(obs, scenario.expect)
    if not edited:
        return _failed("nothing to edit" if obs.memory_on else "nothing stored (no memory)", notes)
    memory = edited[0]
    if not _from_own_message(obs, memory):
        return _failed("source lost on edit", notes)
    if not any(_has(old, scenario.stale) for old in memory.history):
        return _failed("the edited version replaced history", notes)
    return _passed(notes)


_SENTENCE = re.compile(r"(?<=[.!?。])\s+|\n+")


def summaries(scenario: Scenario, obs: Observation) -> Verdict:
    """The conversation's summary names every subject it covered, and repeats no sentence."""
    notes: list[str] = []
    if not obs.summaries:
        return _failed("no summary" + ("" if obs.memory_on else " (no memory)"), notes)
    text = "\n".join(obs.summaries)
    missing = [marker for marker in scenario.expect if not _has(text, (marker,))]
    if missing:
        return _failed("a subject left out of the summary", notes)
    sentences = [s.strip().casefold() for s in _SENTENCE.split(text) if s.strip()]
    if len(sentences) != len(set(sentences)):
        return _failed("a sentence repeated", notes)
    return _passed(notes)


def recall_order(scenario: Scenario, obs: Observation) -> Verdict:
    """The memory that answers the question is the first one in the context."""
    notes: list[str] = []
    shown = [content for _, content in obs.context.memories]
    if not shown or not any(_has(content, scenario.expect) for content in shown):
        return _failed("not recalled" + ("" if obs.memory_on else " (no memory)"), notes)
    if not _has(shown[0], scenario.expect):
        return _failed("the answer recalled, not first", notes)
    return _passed(notes)


JUDGES: dict[Row, Callable[[Scenario, Observation], Verdict]] = {
    Row.EXACT_RECALL: exact_recall,
    Row.TEMPORAL_CORRECTION: temporal_correction,
    Row.CONTRADICTION: contradiction,
    Row.DELETION: deletion,
    Row.IRRELEVANT: irrelevant_question,
    Row.ATTACK: attack_input,
    Row.CAPTURE: capture,
    Row.CLEAN_FACTS: clean_facts,
    Row.DIFFERENT_QUESTIONS: different_questions,
    Row.NOTICES: notices,
    Row.WRONG: wrong,
    Row.EDIT_PROVENANCE: edit_provenance,
    Row.SUMMARIES: summaries,
    Row.RECALL_ORDER: recall_order,
}


def judge(scenario: Scenario, obs: Observation) -> Verdict:
    return JUDGES[scenario.row](scenario, obs)


def baseline_of(
    obs: Observation, *, context: ContextView, preview: ContextView, reply: str
) -> Observation:
    """The scenario without long-term memory: the context a user with nothing stored got
    for the same question, no memories, and only the user's own words left as traces."""
    return replace(
        obs,
        memory_on=False,
        context=context,
        preview=preview,
        memories=(),
        updates=(),
        summaries=(),
        deleted=0,
        found=tuple(place for place in obs.found if place.endswith(OWN_WORDS_SUFFIX)),
        reply=reply,
    )
