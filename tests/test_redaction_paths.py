"""Every way text enters stores a secret nowhere (issue 13, line 1).

Each test sends secrets through one entry path, runs the work a worker would run from the tasks
that path queued, and then searches everything stored for the secrets: every text, array and
JSON column of every model in the user's rows, what was written to the cache, the task
messages that would have gone to the broker, and the log records (the same scan as
`manage.py score_secrets`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from bench.management.commands import score_secrets
from conversations.models import ChatSession, HistoryImport, Message, Topic
from conversations.services import chat, sessions
from memories.logic.extraction_schema import ExtractedItem
from memories.logic.redaction import PLACEHOLDER_PATTERN, redact
from memories.models import Memory, MemoryVersion
from memories.services import extraction, memory_tool, revision
from memoryhub import llm
from tests.anthropic_fake import FakeAnthropic, completed, streamed

pytestmark = pytest.mark.django_db(transaction=True)

API_KEY = "sk-ant-api03-Qw7pLm2Zx9Rt4Vb8Nc3Hy6Js1Kd5Fg0A"
CARD = "4012 8888 8888 1881"
PASSWORD = "Kimchi2024"
RRN = "850714-2019376"  # invented, valid check digit

COVERED = (
    f"API 키는 {API_KEY} 이고 회사 카드 {CARD} 로 도메인 갱신했어. 비번은 {PASSWORD}야",
    [API_KEY, CARD, PASSWORD],
)
KINDS = [
    pytest.param(*COVERED, id="api-key-card-password"),
    pytest.param(
        f"연말정산 부양가족에 주민번호 {RRN} 넣어야 해",
        [RRN],
        id="resident-registration-number",
        marks=pytest.mark.xfail(
            not redact(RRN).found, reason="redact() learns 주민등록번호 on the redaction branch"
        ),
    ),
]


class Pipeline:
    """Runs an entry path with task messages recorded, then the tasks, as a worker would."""

    def __init__(self) -> None:
        self.recorder = score_secrets.Recorder()

    def __call__(self, action: Callable[[], Any]) -> Any:
        with score_secrets.recording(self.recorder):
            result = action()
            score_secrets.drain(self.recorder)
        return result

    def leaks(self, secrets: list[str], users: list[Any]) -> list[str]:
        texts = [
            *score_secrets.stored_texts(user_ids=[u.pk for u in users], since={}),
            *self.recorder.texts,
        ]
        return sorted(
            {
                place
                for secret in secrets
                for place, text in texts
                if score_secrets.secret_pattern(secret).search(text)
            }
        )


@pytest.fixture
def pipeline() -> Pipeline:
    return Pipeline()


@pytest.fixture
def api_session(api: Any) -> str:
    return str(api.post("/api/v1/sessions/", {}, format="json").json()["id"])


def _derived_texts(user: Any) -> Iterator[str]:
    """What the pipeline derived from the user's messages: titles, summaries, tags, topic
    keywords, message keywords."""
    for session in ChatSession.objects.filter(user=user):
        yield session.summary
        yield from session.tags
    for topic in Topic.objects.filter(user=user):
        yield from topic.keywords
        yield from topic.terms
    for message in Message.objects.filter(user=user):
        yield from message.keywords


def _assert_clean_and_derived(pipeline: Pipeline, secrets: list[str], user: Any) -> None:
    assert pipeline.leaks(secrets, [user]) == []
    derived = list(_derived_texts(user))
    assert derived, "the pipeline derived nothing: the test checked nothing"
    assert not [t for t in derived if "redacted" in t.lower()]
    # A title shows the first message as stored, markers whole (shown in the reader's language).
    for title in ChatSession.objects.filter(user=user).values_list("title", flat=True):
        assert title.count("[") == len(PLACEHOLDER_PATTERN.findall(title)), title


# --- live chat ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "secrets"), KINDS)
def test_a_secret_said_in_chat_through_the_service_is_stored_nowhere(user, pipeline, text, secrets):
    session = chat.chat_session_create(user=user)

    def say() -> None:
        chat.chat_exchange(session=session, content=text)
        sessions.session_end(session=session)

    pipeline(say)

    stored = Message.objects.get(user=user, role=Message.Role.USER)
    assert "[redacted: " in stored.content
    assert ChatSession.objects.get(pk=session.pk).status == ChatSession.Status.ENDED
    _assert_clean_and_derived(pipeline, secrets, user)


@pytest.mark.parametrize(("text", "secrets"), KINDS)
def test_a_secret_sent_to_the_chat_api_is_stored_and_found_nowhere(
    user, api, api_session, pipeline, text, secrets
):
    response = pipeline(
        lambda: api.post(
            f"/api/v1/sessions/{api_session}/messages/", {"content": text}, format="json"
        )
    )
    pipeline(lambda: api.post(f"/api/v1/sessions/{api_session}/end/", {}, format="json"))

    assert response.status_code == 201
    assert "[redacted: " in response.json()["user_message"]["content"]
    found = api.post("/api/v1/search/", {"query": text, "k": 20}, format="json").json()
    assert found["results"]
    assert not [r for r in found["results"] for s in secrets if s in r["text"]]
    _assert_clean_and_derived(pipeline, secrets, user)


def test_a_secret_sent_to_the_context_api_is_not_kept(user, api, pipeline):
    text, secrets = COVERED

    response = pipeline(lambda: api.post("/api/v1/context/", {"message": text}, format="json"))

    assert response.status_code == 200
    assert pipeline.leaks(secrets, [user]) == []


def test_a_secret_typed_on_the_chat_page_is_stored_nowhere(client, user, pipeline):
    text, secrets = COVERED
    client.force_login(user)
    session = chat.chat_session_create(user=user)

    response = pipeline(
        lambda: client.post(reverse("chat:message-create", args=[session.pk]), {"content": text})
    )

    assert response.status_code == 302
    assert Message.objects.filter(user=user).count() == 2
    assert pipeline.leaks(secrets, [user]) == []


def test_a_secret_typed_on_the_chat_page_and_streamed_is_stored_nowhere(client, user, pipeline):
    text, secrets = COVERED
    client.force_login(user)
    session = chat.chat_session_create(user=user)
    pipeline(
        lambda: client.post(
            reverse("chat:message-create", args=[session.pk]),
            {"content": text},
            HTTP_HX_REQUEST="true",
        )
    )
    message = Message.objects.get(user=user)

    streamed_body = pipeline(
        lambda: b"".join(
            client.get(
                reverse("chat:message-reply", args=[session.pk, message.pk])
            ).streaming_content
        ).decode()
    )

    assert "event: done" in streamed_body
    assert not [s for s in secrets if s in streamed_body]
    assert Message.objects.filter(user=user, role=Message.Role.ASSISTANT).exists()
    assert pipeline.leaks(secrets, [user]) == []


# --- imports -----------------------------------------------------------------------------------


def _import_payload(text: str) -> dict[str, Any]:
    now = timezone.now().isoformat()
    return {
        "sessions": [
            {
                "started_at": now,
                "messages": [
                    {
                        "role": "user",
                        "content": text,
                        "created_at": now,
                        "speaker": f"minji {CARD}",
                        "external_id": "ext-1",
                    },
                    {"role": "assistant", "content": f"알겠어, {text}", "created_at": now},
                ],
            }
        ]
    }


@pytest.mark.parametrize(("text", "secrets"), KINDS)
def test_a_secret_in_an_import_waits_and_is_stored_nowhere(user, api, pipeline, text, secrets):
    recorder = pipeline.recorder
    with score_secrets.recording(recorder):
        response = api.post("/api/v1/imports/", _import_payload(text), format="json")
        waiting = HistoryImport.objects.get(user=user).payload
        queued = [task.name for task, _args, _kwargs in recorder.queued]
        score_secrets.drain(recorder)

    assert response.status_code == 202
    assert queued == ["conversations.tasks.history_import_run"]
    assert not [s for s in [*secrets, CARD] if s in json.dumps(waiting, ensure_ascii=False)]
    assert Message.objects.filter(user=user, external_id="ext-1").get().speaker.startswith("minji")
    _assert_clean_and_derived(pipeline, [*secrets, CARD], user)


def test_a_secret_in_a_memoryhub_file_imported_by_command_is_stored_nowhere(
    tmp_path, django_user_model, pipeline
):
    text, secrets = COVERED
    path = tmp_path / "history.json"
    path.write_text(json.dumps(_import_payload(text), ensure_ascii=False))

    pipeline(lambda: call_command("import_history", str(path), "--user", "jiwoo"))

    user = django_user_model.objects.get(username="jiwoo")
    assert Message.objects.filter(user=user).count() == 2
    _assert_clean_and_derived(pipeline, [*secrets, CARD], user)


def test_a_secret_in_a_chatgpt_export_imported_by_command_is_stored_nowhere(
    tmp_path, django_user_model, pipeline
):
    text, secrets = COVERED
    export = [
        {
            "title": f"Billing {CARD}",
            "create_time": 1700000000.0,
            "current_node": "b",
            "mapping": {
                "a": {
                    "id": "a",
                    "parent": None,
                    "children": ["b"],
                    "message": {
                        "author": {"role": "user"},
                        "create_time": 1700000001.0,
                        "content": {"content_type": "text", "parts": [text]},
                    },
                },
                "b": {
                    "id": "b",
                    "parent": "a",
                    "children": [],
                    "message": {
                        "author": {"role": "assistant"},
                        "create_time": 1700000002.0,
                        "content": {"content_type": "text", "parts": [f"Noted: {API_KEY}"]},
                    },
                },
            },
        }
    ]
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export, ensure_ascii=False))

    pipeline(
        lambda: call_command("import_history", str(path), "--user", "mina", "--format", "chatgpt")
    )

    user = django_user_model.objects.get(username="mina")
    assert Message.objects.filter(user=user).count() == 2
    _assert_clean_and_derived(pipeline, secrets, user)


# --- memories ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "secrets"), KINDS)
def test_a_secret_written_as_a_memory_through_the_api_is_refused_and_stored_nowhere(
    user, api, pipeline, text, secrets
):
    created = pipeline(
        lambda: api.post("/api/v1/memories/", {"type": "fact", "content": text}, format="json")
    )
    memory = revision.memory_create(user=user, type="fact", content="I live in Seoul")
    patched = pipeline(
        lambda: api.patch(f"/api/v1/memories/{memory.pk}/", {"content": text}, format="json")
    )

    assert created.status_code == 400
    assert patched.status_code == 400
    assert "secrets are never stored" in json.dumps(created.json())
    assert MemoryVersion.objects.filter(user=user).count() == 1
    assert pipeline.leaks(secrets, [user]) == []


def test_a_secret_typed_into_a_memory_on_the_page_is_refused_and_stored_nowhere(
    client, user, pipeline
):
    text, secrets = COVERED
    client.force_login(user)
    memory = revision.memory_create(user=user, type="fact", content="I live in Seoul")

    response = pipeline(
        lambda: client.post(
            reverse("memories:edit", args=[memory.pk]),
            {"content": text, "type": "fact", "sensitivity": "normal"},
        )
    )

    assert response.status_code == 400
    assert "Secrets are never stored" in response.content.decode()
    assert MemoryVersion.objects.filter(user=user).count() == 1
    assert pipeline.leaks(secrets, [user]) == []


def test_a_secret_written_with_claudes_memory_tool_is_refused_and_stored_nowhere(user, pipeline):
    text, secrets = COVERED

    with pytest.raises(memory_tool.MemoryToolError, match="Not stored"):
        pipeline(
            lambda: memory_tool.memory_tool_execute(
                user=user,
                command={"command": "create", "path": "/memories/fact/new.md", "file_text": text},
            )
        )

    assert not Memory.objects.filter(user=user).exists()
    assert pipeline.leaks(secrets, [user]) == []


def test_a_models_tags_and_slot_with_a_secret_or_a_marker_are_not_stored(user):
    item = ExtractedItem(
        type="preference",
        content="I prefer window seats on long flights",
        importance=0.5,
        stated_by_user=True,
        confidence=0.9,
        tags=("travel", API_KEY, "[redacted: password]"),
        slot=f"likes:{CARD}",
    )

    stored = extraction.memory_store_candidate(user_id=user.pk, item=item)

    version = stored.memory.current_version
    assert version.tags == ["travel"]
    assert CARD not in version.slot
    assert version.slot == "prefers:seat:place"  # the slot the content itself answers


# --- what a model writes -----------------------------------------------------------------------


def _anthropic(answer: Callable[[str], str], reply: str) -> FakeAnthropic:
    """A model that streams `reply` and answers each short request by its prompt."""

    def respond(body: dict[str, Any]) -> Any:
        if body.get("stream"):
            return streamed(text=reply)(body)
        prompt = body["messages"][0]["content"]
        return completed(answer(prompt if isinstance(prompt, str) else ""))(body)

    return FakeAnthropic([respond] * 40)


def _short_answers(prompt: str) -> str:
    if "JSON만 출력" in prompt:  # session tags and summary
        return json.dumps(
            {
                "tags": ["도메인", "[redacted: password]", API_KEY, "결제"],
                "summary": (
                    f"도메인 갱신을 결제했다. 비번은 [redacted: password]였다. 키는 {API_KEY}."
                ),
            },
            ensure_ascii=False,
        )
    if "단어를 추출하라" in prompt:  # topic and message keywords
        return f"도메인, {API_KEY}, 결제"
    if "JSON array" in prompt:  # memory extraction
        return "[]"
    if "한글자만" in prompt:  # topic shift
        return "N"
    return ""


def test_what_claude_writes_is_stored_redacted_and_no_marker_becomes_a_tag_or_summary(
    user, pipeline, settings
):
    settings.ANTHROPIC_API_KEY = "test-key"
    reply = f"알겠어요. 키 {API_KEY} 는 저장하지 않을게요. 저장된 비번은 [redacted: password]예요."
    fake = _anthropic(_short_answers, reply)
    llm.set_provider(llm.AnthropicProvider(client=fake.client()))
    session = chat.chat_session_create(user=user)

    def say() -> None:
        chat.chat_exchange(session=session, content="도메인 갱신 결제 어떻게 했더라?")
        sessions.session_end(session=session)

    pipeline(say)

    stored_reply = Message.objects.get(user=user, role=Message.Role.ASSISTANT).content
    assert API_KEY not in stored_reply
    assert stored_reply.endswith("저장된 비번은 [redacted: password]예요.")
    ended = ChatSession.objects.get(pk=session.pk)
    assert ended.tags == ["도메인", "결제"]
    assert ended.summary == "도메인 갱신을 결제했다."
    topic = Topic.objects.get(session=ended)
    assert API_KEY not in topic.keywords and "도메인" in topic.keywords
    assert pipeline.leaks([API_KEY], [user]) == []


# --- a stored marker quoted back -----------------------------------------------------------------


def test_an_offline_reply_never_quotes_a_stored_marker_or_the_secret(user, pipeline):
    session = chat.chat_session_create(user=user)
    pipeline(lambda: chat.chat_exchange(session=session, content=f"비번은 {PASSWORD}야"))
    later = chat.chat_session_create(user=user)  # recall quotes earlier sessions, not this one

    exchange = pipeline(lambda: chat.chat_exchange(session=later, content="비번 뭐였지?"))

    # A sentence that held a secret says only that something was hidden: it is not told
    # back as what the user said (conversations.logic.said), marker or secret.
    reply = exchange.assistant_message.content
    assert "[redacted:" not in reply and "비번은" not in reply
    assert PASSWORD not in reply


def test_a_claude_reply_quoting_a_stored_marker_keeps_it_intact(user, pipeline, settings):
    settings.ANTHROPIC_API_KEY = "test-key"
    # Every short answer is unparseable and carries a key: it is logged redacted, if at all.
    fake = _anthropic(
        lambda _prompt: f"글쎄요 {API_KEY}",
        "기억하는 비번은 [redacted: password]야. password: [redacted: password]",
    )
    llm.set_provider(llm.AnthropicProvider(client=fake.client()))
    session = chat.chat_session_create(user=user)
    pipeline(lambda: chat.chat_exchange(session=session, content=f"비번은 {PASSWORD}야"))

    exchange = pipeline(lambda: chat.chat_exchange(session=session, content="비번 뭐였지?"))

    sent = [r for r in fake.requests if r.get("stream")][-1]["messages"]
    assert sent[0]["content"] == "비번은 [redacted: password]야"
    assert exchange.assistant_message.content == (
        "기억하는 비번은 [redacted: password]야. password: [redacted: password]"
    )
    assert pipeline.leaks([API_KEY, PASSWORD], [user]) == []
