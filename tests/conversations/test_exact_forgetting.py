"""Forgetting is exact (issue 13 line 5): deleting one memory removes its content from every
derived place and changes nothing else.

Over the scenarios of `forgetting_scenarios.py` it measures
- collateral: lines of messages and replies that did not carry the content but changed, the
  kept words of a carrying line that were lost, and titles, summaries, tags or topic keywords
  of sessions that held no carrying line that changed;
- residue: carrying lines left as they were, and each place that still holds a word naming the
  fact: message lines, titles, summaries, tags and their weights, topic keywords, the context
  saved with replies, search results, a fresh context, memory versions and the receipt.
Run with `-s` to see the figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from conversations import tasks
from conversations.models import ChatSession, Message, TagWeight, Topic
from conversations.services import indexing, sessions, topics
from memories.logic.extraction_schema import ExtractedItem
from memories.models import DeletionReceipt, Memory, MemoryVersion
from memories.services import extraction
from tests.conftest import _api_client_for
from tests.conversations.forgetting_scenarios import HELD_OUT, TUNING, Scenario

pytestmark = pytest.mark.django_db

MARK = "» "
RECALL = "@recall "


@dataclass
class Built:
    memory: Memory
    others: list[Memory]
    # message id -> (content, which lines carry the content)
    lines: dict[int, tuple[str, list[bool]]] = field(default_factory=dict)
    sessions: list[ChatSession] = field(default_factory=list)
    carrying_sessions: set[int] = field(default_factory=set)


def _store(user: Any, content: str, source: Message) -> Memory:
    outcome = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(type="preference", content=content),
        source_message_id=source.pk,
        source_session_id=source.session_id,
    )
    assert outcome.memory is not None, (content, outcome.outcome)
    return outcome.memory


def _recall_context(first: ChatSession, memory: Memory) -> dict[str, Any]:
    topic = Topic.objects.filter(session=first).order_by("id").first()
    assert topic is not None
    recalled = [
        {"role": m.role, "content": m.content, "created_at": m.created_at.isoformat()}
        for m in topic.messages.order_by("created_at", "id")
    ]
    version = memory.current_version
    assert version is not None
    return {
        "session_recall": [
            {"session_id": str(first.pk), "summary": first.summary, "tags": list(first.tags)}
        ],
        "topic_recall": [
            {"topic_id": str(topic.pk), "keywords": list(topic.keywords), "messages": recalled}
        ],
        "memories": [
            {
                "id": str(memory.pk),
                "version": 1,
                "type": "preference",
                "content": version.content,
                "score": 0.5,
            }
        ],
        "tokens": 100,
    }


def _build(user: Any, scenario: Scenario) -> Built:
    """The scenario's sessions as a live chat would leave them: titled, segmented into a topic,
    ended (tags, summary, topic keywords), embedded; the memories stated in them."""
    start = timezone.now() - timedelta(days=30)
    built: Built | None = None
    created: list[ChatSession] = []
    lines: dict[int, tuple[str, list[bool]]] = {}
    carrying: set[int] = set()
    source: Message | None = None
    for index, turns in enumerate(scenario.sessions):
        started = start + timedelta(days=3 * index)
        session = ChatSession.objects.create(user=user, started_at=started)
        topic = topics.topic_open(session=session, started_at=started)
        previous: Message | None = None
        for turn, raw in enumerate(turns):
            role = Message.Role.USER if turn % 2 == 0 else Message.Role.ASSISTANT
            context: dict[str, Any] = {}
            if raw.startswith(RECALL):
                assert built is not None, "a recall needs the memory stated before it"
                raw = raw.removeprefix(RECALL)
                context = _recall_context(created[0], built.memory)
            marks = [line.startswith(MARK) for line in raw.split("\n")]
            content = "\n".join(line.removeprefix(MARK) for line in raw.split("\n"))
            at = started + timedelta(minutes=turn)
            message = Message.objects.create(
                session=session,
                user=user,
                role=role,
                content=content,
                created_at=at,
                topic=topic,
                keywords=indexing.message_keywords(content, at),
                context=context,
                reply_to=previous if role == Message.Role.ASSISTANT else None,
            )
            lines[message.pk] = (content, marks)
            if any(marks):
                carrying.add(session.pk)
            previous = message
            if (index, turn) == scenario.source:
                source = message
                built = Built(
                    memory=_store(user, scenario.memory, message),
                    others=[_store(user, other, message) for other in scenario.others],
                )
        first_line = turns[0].removeprefix(MARK).split("\n")[0]
        session.title = first_line.removeprefix(MARK)[:80]
        session.last_message_at = started + timedelta(minutes=len(turns))
        session.save(update_fields=["title", "last_message_at"])
        sessions.session_finalize(session_id=session.pk)
        created.append(session)
    assert built is not None and source is not None
    indexing.messages_embed_pending(user_id=user.pk)
    built.lines, built.sessions, built.carrying_sessions = lines, created, carrying
    return built


def _derived(session: ChatSession) -> tuple[str, str, list[str], list[list[str]]]:
    session.refresh_from_db()
    keywords = [list(t.keywords) for t in Topic.objects.filter(session=session).order_by("id")]
    return session.title, session.summary, list(session.tags), keywords


@dataclass
class Figures:
    lines: int = 0
    carrying: int = 0
    collateral: int = 0
    residue: int = 0
    derived_copies_before: int = 0
    problems: list[str] = field(default_factory=list)


def _holds(text: str, words: list[str]) -> list[str]:
    return [w for w in words if w.lower() in text.lower()]


def _check_scenario_is_well_formed(scenario: Scenario, built: Built) -> None:
    for content, marks in built.lines.values():
        for line, carries in zip(content.split("\n"), marks, strict=True):
            assert carries or not _holds(line, scenario.gone), (scenario.name, line)


def _measure(api: Any, user: Any, scenario: Scenario, built: Built, figures: Figures) -> None:
    name = scenario.name
    gone = scenario.gone
    before = {s.pk: _derived(s) for s in built.sessions}
    figures.derived_copies_before += sum(
        bool(_holds(json.dumps(before[s.pk], ensure_ascii=False), gone)) for s in built.sessions
    )

    response = api.delete(f"/api/v1/memories/{built.memory.pk}/")
    assert response.status_code == 200, response.content

    # Lines of messages and replies.
    for message in Message.objects.filter(pk__in=built.lines):
        content, marks = built.lines[message.pk]
        old, new = content.split("\n"), message.content.split("\n")
        if len(old) != len(new):
            figures.collateral += sum(not m for m in marks)
            figures.problems.append(f"{name}: line count changed in {message.content!r}")
            continue
        for was, now, carries in zip(old, new, marks, strict=True):
            figures.lines += 1
            figures.carrying += carries
            if not carries and was != now:
                figures.collateral += 1
                figures.problems.append(f"{name}: collateral {was!r} -> {now!r}")
            if carries and (was == now or _holds(now, gone)):
                figures.residue += 1
                figures.problems.append(f"{name}: residue in line {now!r}")
    everything = "\n".join(Message.objects.filter(user=user).values_list("content", flat=True))
    for word in scenario.kept:
        if word not in everything:
            figures.collateral += 1
            figures.problems.append(f"{name}: lost {word!r}")
    # Derived copies: untouched sessions keep theirs; none keeps the fact.
    for session in built.sessions:
        after = _derived(session)
        if session.pk not in built.carrying_sessions and after != before[session.pk]:
            figures.collateral += 1
            figures.problems.append(f"{name}: derived text of an untouched session {after}")
        if _holds(json.dumps(after, ensure_ascii=False), gone):
            figures.residue += 1
            figures.problems.append(f"{name}: residue in title/summary/tags/topics {after}")
    places = {
        "saved context": json.dumps(
            list(Message.objects.filter(user=user).values_list("context", flat=True)),
            ensure_ascii=False,
        ),
        "tag weights": " ".join(TagWeight.objects.filter(user=user).values_list("tag", flat=True)),
        "memory versions": " ".join(
            MemoryVersion.objects.filter(memory__user=user).values_list("content", flat=True)
        ),
        "receipt": json.dumps(response.json(), ensure_ascii=False),
        "search": json.dumps(
            [
                api.post("/api/v1/search/", {"query": query}, format="json").json()["results"]
                for query in [scenario.memory, *gone]
            ],
            ensure_ascii=False,
        ),
        "context": json.dumps(
            api.post("/api/v1/context/", {"message": scenario.memory}, format="json").json(),
            ensure_ascii=False,
        ),
    }
    for place, text in places.items():
        if _holds(text, gone):
            figures.residue += 1
            figures.problems.append(f"{name}: residue in {place}")
    for other in built.others:
        if not Memory.objects.filter(pk=other.pk).exists():
            figures.collateral += 1
            figures.problems.append(f"{name}: another memory went: {other.pk}")


def _run(
    scenarios: list[Scenario],
    django_user_model: Any,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
    label: str,
) -> Figures:
    for task in (tasks.messages_embed, tasks.messages_backfill):
        monkeypatch.setattr(task, "delay", lambda **kw: indexing.messages_embed_pending(**kw))
    figures = Figures()
    for number, scenario in enumerate(scenarios):
        user = django_user_model.objects.create_user(username=f"s{number}", password="pw-long-1")
        built = _build(user, scenario)
        _check_scenario_is_well_formed(scenario, built)
        with django_capture_on_commit_callbacks(execute=True):
            _measure(_api_client_for(user), user, scenario, built, figures)
    print(
        f"\n[exact forgetting, {label}] scenarios={len(scenarios)} lines={figures.lines} "
        f"carrying={figures.carrying} derived_copies_before={figures.derived_copies_before} "
        f"collateral={figures.collateral} residue={figures.residue}"
    )
    for problem in figures.problems:
        print("  ", problem)
    return figures


def test_forgetting_is_exact_over_the_tuning_scenarios(
    django_user_model, monkeypatch, django_capture_on_commit_callbacks
):
    assert len(TUNING) >= 20
    assert sum(any("\uac00" <= ch <= "\ud7a3" for ch in s.memory) for s in TUNING) >= 8

    figures = _run(
        TUNING, django_user_model, monkeypatch, django_capture_on_commit_callbacks, "tuning"
    )

    assert figures.derived_copies_before > 0  # summaries and tags did hold facts
    assert (figures.collateral, figures.residue) == (0, 0), figures.problems


def test_forgetting_is_exact_over_scenarios_written_after_the_matcher(
    django_user_model, monkeypatch, django_capture_on_commit_callbacks
):
    assert len(HELD_OUT) >= 10

    figures = _run(
        HELD_OUT, django_user_model, monkeypatch, django_capture_on_commit_callbacks, "held out"
    )

    assert figures.collateral == 0, figures.problems
    # Measured once, not tuned on (docs/reliability.md): two carrying lines share one content
    # word with the fact ("따님 입학을 축하드려요", a question naming "kindergarten"), so they
    # and the summaries, tags, search hits and context derived from them keep it: 9 places.
    assert figures.residue <= 9, figures.problems


def test_the_confirmation_page_lists_each_copy_and_the_receipt_names_them_without_text(
    client, user, api, monkeypatch, django_capture_on_commit_callbacks
):
    for task in (tasks.messages_embed, tasks.messages_backfill):
        monkeypatch.setattr(task, "delay", lambda **kw: indexing.messages_embed_pending(**kw))
    built = _build(user, TUNING[0])
    client.force_login(user)

    page = client.get(reverse("account:memory-delete", args=[built.memory.pk])).content.decode()

    first = built.sessions[0]
    assert first.title in page
    assert "나는 매일 아침 핸드드립 커피를 마셔" in page  # the span, previewed
    assert (first.started_at.date().isoformat()) in page
    assert "로스터리 원두는 신선해서" not in page  # a reply that does not carry it is not listed
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("account:memory-delete", args=[built.memory.pk]), follow=True
        )
    receipt = DeletionReceipt.objects.get(user=user)
    kinds = {c["kind"] for c in receipt.copies}
    assert {"statement", "reply", "summary", "recalled"} <= kinds
    assert {c["session_id"] for c in receipt.copies} >= {str(first.pk)}
    shown = response.content.decode() + json.dumps(api.get("/api/v1/receipts/").json())
    assert "핸드드립" not in shown and "커피" not in json.dumps(receipt.copies)
    assert f'href="{reverse("chat:session-detail", args=[first.pk])}"' in response.content.decode()
    api_receipt = api.get("/api/v1/receipts/").json()["results"][0]
    assert api_receipt["copies"] == receipt.copies
