from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connections
from django.utils import timezone

from conversations.models import ChatSession, HistoryImport, Message, TagWeight, Topic
from conversations.services import imports, tag_weights

pytestmark = pytest.mark.django_db


def _session(started, messages, prefix="m"):
    return {
        "started_at": started.isoformat(),
        "messages": [
            {"role": role, "content": content,
             "created_at": (started + timedelta(minutes=i)).isoformat(),
             "external_id": f"{prefix}{i}"}
            for i, (role, content) in enumerate(messages)
        ],
    }  # fmt: skip


def _diving(started, prefix):
    return _session(started, [
        ("user", "주말에 스쿠버다이빙 자격증 따러 제주도 가."),
        ("assistant", "스쿠버다이빙 자격증 멋지네요! 제주도 어디로 가세요?"),
        ("user", "서귀포 스쿠버다이빙 센터에서 이틀 동안 교육받아."),
    ], prefix)  # fmt: skip


def _violin(started, prefix):
    return _session(started, [
        ("user", "요즘 바이올린 레슨 다시 시작했어."),
        ("assistant", "바이올린 레슨 좋네요. 어떤 곡을 연습하세요?"),
        ("user", "바이올린으로 사계 봄 1악장 연습 중이야."),
    ], prefix)  # fmt: skip


def test_import_is_queued_then_processed_with_progress_and_history_timestamps(api, user):
    started = timezone.now() - timedelta(days=3)
    payload = {"sessions": [_violin(started, "v")]}

    response = api.post("/api/v1/imports/", payload, format="json")

    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "queued"
    imports.history_import_run(
        import_id=int(body["id"]),
        finalize=lambda sid: imports.session_import_finalize(session_id=sid),
    )  # the task body, with the pipeline inline
    status = api.get(f"/api/v1/imports/{body['id']}/").json()
    assert status["status"] == "done"
    assert status["progress"] == {"done": 3, "total": 3}
    assert status["vectors_pending"] == 0
    session = ChatSession.objects.get(pk=status["session_ids"][0])
    assert session.status == ChatSession.Status.ENDED
    assert session.started_at == started
    assert session.ended_at == started + timedelta(minutes=2)
    assert "바이올린" in session.tags
    first = Message.objects.filter(session=session).order_by("created_at").first()
    assert first.created_at == started and first.external_id == "v0"
    assert Topic.objects.filter(session=session).exists()
    assert HistoryImport.objects.get(pk=body["id"]).payload == {}


def test_resending_the_same_external_ids_does_not_duplicate(api, user):
    started = timezone.now() - timedelta(days=3)
    payload = {"sessions": [_violin(started, "v")]}

    for _ in range(2):
        record = imports.history_import_create_inline(user=user, payload=payload)

    assert Message.objects.filter(user=user).count() == 3
    assert ChatSession.objects.filter(user=user).count() == 1
    assert record.status == "done"


def test_a_partly_new_resend_adds_only_the_new_messages_to_the_same_session(user):
    started = timezone.now() - timedelta(days=3)
    imports.history_import_create_inline(user=user, payload={"sessions": [_violin(started, "v")]})
    longer = _violin(started, "v")
    longer["messages"].append({"role": "assistant", "content": "봄 1악장 좋죠.",
                               "created_at": (started + timedelta(minutes=5)).isoformat(),
                               "external_id": "v3"})  # fmt: skip

    imports.history_import_create_inline(user=user, payload={"sessions": [longer]})

    assert Message.objects.filter(user=user).count() == 4
    assert ChatSession.objects.filter(user=user).count() == 1


@pytest.mark.parametrize(
    "payload, place",
    [
        ({}, "sessions"),
        ({"sessions": []}, "sessions"),
        ({"sessions": [{"messages": []}]}, "sessions[0].messages"),
        ({"sessions": [{"started_at": "yesterday", "messages": [
            {"role": "user", "content": "hi", "created_at": "2025-01-01T00:00:00Z"}]}]},
         "sessions[0].started_at"),
        ({"sessions": [{"started_at": "2025-01-01T00:00:00Z", "messages": [
            {"role": "bot", "content": "hi", "created_at": "2025-01-01T00:00:00Z"}]}]},
         "sessions[0].messages[0].role"),
        ({"sessions": [{"started_at": "2025-01-01T00:00:00Z", "messages": [
            {"role": "user", "content": "", "created_at": "2025-01-01T00:00:00Z"}]}]},
         "sessions[0].messages[0].content"),
        ({"sessions": [{"started_at": "2025-01-01T00:00:00Z", "messages": [
            {"role": "user", "content": "a", "created_at": "2025-01-01T00:00:00Z",
             "external_id": "x"},
            {"role": "user", "content": "b", "created_at": "2025-01-01T00:00:00Z",
             "external_id": "x"}]}]},
         "sessions[0].messages[1].external_id"),
    ],
)  # fmt: skip
def test_a_malformed_import_is_400_naming_the_place_and_writes_nothing(api, payload, place):
    response = api.post("/api/v1/imports/", payload, format="json")

    assert response.status_code == 400
    assert place in response.json()["error"]["fields"]
    assert HistoryImport.objects.count() == 0 and Message.objects.count() == 0


def test_a_payload_queued_before_offsets_were_required_still_parses_in_the_server_zone(settings):
    settings.TIME_ZONE = "Asia/Seoul"

    with pytest.raises(imports.ImportInvalid):
        imports.parse_payload(NAIVE_PAYLOAD)
    (session,) = imports.parse_payload(NAIVE_PAYLOAD, stored=True)

    assert session.messages[0].created_at.isoformat() == "2025-11-20T08:01:00+09:00"


def test_an_import_over_the_message_limit_is_413(api, settings):
    settings.MEMORYHUB_MAX_IMPORT_MESSAGES = 2
    payload = {"sessions": [_violin(timezone.now(), "v")]}

    response = api.post("/api/v1/imports/", payload, format="json")

    assert response.status_code == 413
    assert HistoryImport.objects.count() == 0


def test_another_users_import_is_404(api, other_api, user):
    record = imports.history_import_create_inline(
        user=user, payload={"sessions": [_violin(timezone.now(), "v")]}
    )

    assert other_api.get(f"/api/v1/imports/{record.pk}/").status_code == 404


def test_imported_history_decays_by_its_own_timestamps(api, user):
    now = timezone.now()
    imports.history_import_create_inline(user=user, payload={"sessions": [
        _diving(now - timedelta(days=60, minutes=2), "d"),
        _violin(now - timedelta(days=1, minutes=2), "v"),
    ]})  # fmt: skip

    tags = {row["tag"]: row["weight"] for row in api.get("/api/v1/tags/").json()["results"]}

    assert "다이빙" not in tags
    assert tags["바이올린"] == pytest.approx(0.95, abs=0.01)
    assert TagWeight.objects.filter(user=user, tag="다이빙").exists()
    tag_weights.tag_weights_decay(now=now)  # the daily beat job writes back and forgets
    assert not TagWeight.objects.filter(user=user, tag="다이빙").exists()
    assert TagWeight.objects.get(user=user, tag="바이올린").weight == pytest.approx(0.95, abs=0.01)


def test_tags_api_lists_effective_weights_strongest_first(api, user):
    now = timezone.now()
    tag_weights.tag_weights_add(
        user_id=user.pk, tags=["a"], amount=1.0, at=now - timedelta(days=10)
    )
    tag_weights.tag_weights_add(user_id=user.pk, tags=["b"], amount=1.0, at=now)

    results = api.get("/api/v1/tags/").json()["results"]

    assert [r["tag"] for r in results] == ["b", "a"]
    assert results[1]["weight"] == pytest.approx(0.95**10, abs=0.01)
    assert set(results[0]) == {"tag", "weight", "updated_at"}


def test_import_history_command_reads_a_memoryhub_file(tmp_path, django_user_model, capsys):
    path = tmp_path / "history.json"
    path.write_text(json.dumps({"sessions": [_violin(timezone.now() - timedelta(days=2), "v")]}))

    call_command("import_history", str(path), "--user", "jiwoo")

    user = django_user_model.objects.get(username="jiwoo")
    assert Message.objects.filter(user=user).count() == 3
    assert "3 messages" in capsys.readouterr().out


def test_import_history_command_reads_a_chatgpt_export(tmp_path, django_user_model):
    export = [{
        "title": "Trip", "create_time": 1700000000.0, "current_node": "c",
        "mapping": {
            "root": {"id": "root", "message": None, "parent": None, "children": ["a"]},
            "a": {"id": "a", "parent": "root", "children": ["b"], "message": {
                "author": {"role": "user"}, "create_time": 1700000001.0,
                "content": {"content_type": "text", "parts": ["Plan a trip to Busan"]}}},
            "b": {"id": "b", "parent": "a", "children": ["c"], "message": {
                "author": {"role": "assistant"}, "create_time": 1700000002.0,
                "content": {"content_type": "text", "parts": ["Sure, how many days?"]}}},
            "c": {"id": "c", "parent": "b", "children": [], "message": {
                "author": {"role": "user"}, "create_time": 1700000003.0,
                "content": {"content_type": "text", "parts": ["Three days in May"]}}},
        },
    }]  # fmt: skip
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export))

    call_command("import_history", str(path), "--user", "mina", "--format", "chatgpt")

    messages = list(Message.objects.filter(user__username="mina").order_by("created_at"))
    assert [m.content for m in messages] == [
        "Plan a trip to Busan",
        "Sure, how many days?",
        "Three days in May",
    ]
    assert messages[0].external_id == "chatgpt:a"
    assert messages[0].created_at.year == 2023


def test_import_history_command_names_the_bad_place_and_imports_nothing(tmp_path):
    path = tmp_path / "bad.json"
    bad = {"role": "user", "content": 5, "created_at": "2025-01-01T00:00:00Z"}
    sessions = [
        _violin(timezone.now(), "v"),
        {"started_at": "2025-01-01T00:00:00Z", "messages": [bad]},
    ]
    path.write_text(json.dumps({"sessions": sessions}))

    with pytest.raises(CommandError, match=r"sessions\[1\]\.messages\[0\]\.content"):
        call_command("import_history", str(path), "--user", "x")

    assert Message.objects.count() == 0


def test_import_history_command_rejects_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")

    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_history", str(path))


def _import_queuing_extraction(api, monkeypatch, payload):
    from conversations.tasks import exchange_extract

    queued: list[dict] = []
    monkeypatch.setattr(exchange_extract, "delay", lambda **kw: queued.append(kw))
    body = api.post("/api/v1/imports/", payload, format="json").json()
    imports.history_import_run(
        import_id=int(body["id"]),
        finalize=lambda sid: imports.session_import_finalize(session_id=sid),
    )
    return queued


def test_imported_history_becomes_memories_dated_by_the_messages_and_without_model_calls(
    api, user, monkeypatch
):
    from conversations.tasks import exchange_extract
    from memories.models import MemoryVersion
    from memoryhub.models import LLMCall

    started = timezone.now() - timedelta(days=30)
    payload = {"sessions": [_session(started, [
        ("user", "기억해줘: 나는 고수를 싫어해."),
        ("assistant", "알겠어요, 고수는 빼고 추천할게요."),
        ("user", "I live in Busan."),
    ], "h")]}  # fmt: skip

    queued = _import_queuing_extraction(api, monkeypatch, payload)

    assert queued == []  # extracted by the import's own steps, not a task per message
    stored = Message.objects.filter(user=user, role="user").order_by("created_at")
    versions = MemoryVersion.objects.filter(user=user)
    assert {v.source_message_id for v in versions} == {m.pk for m in stored}
    assert {v.observed_at for v in versions} == {m.created_at for m in stored}
    assert not LLMCall.objects.filter(user=user, task__startswith="extract").exists()
    assert [exchange_extract(message_id=m.pk)["status"] for m in stored] == ["skipped"] * 2


def test_import_extraction_can_be_switched_off(api, user, monkeypatch, settings):
    from memories.models import ExtractionRun

    settings.MEMORYHUB_IMPORT_EXTRACTION = "off"
    started = timezone.now() - timedelta(days=3)

    queued = _import_queuing_extraction(api, monkeypatch, {"sessions": [_violin(started, "v")]})

    assert queued == []
    assert not ExtractionRun.objects.filter(user=user).exists()
    assert ChatSession.objects.get(user=user).status == ChatSession.Status.ENDED


def _write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


NAIVE_PAYLOAD = {
    "sessions": [
        {
            "started_at": "2025-11-20T08:00:00+09:00",
            "messages": [{"role": "user", "content": "안녕", "created_at": "2025-11-20T08:01:00"}],
        }
    ]
}
CHATGPT_NODE: dict[str, Any] = {"id": "a", "parent": None, "children": []}
MALFORMED_FILES = {
    "a time without its offset": (
        "naive.json",
        json.dumps(NAIVE_PAYLOAD).encode(),
        "memoryhub",
        r"sessions\[0\]\.messages\[0\]\.created_at.*UTC offset",
    ),
    "empty": ("empty.json", b"", "memoryhub", "is empty"),
    "only whitespace": ("blank.json", b"  \n", "memoryhub", "is empty"),
    "not utf-8": ("latin.json", '{"sessions": "café"}'.encode("latin-1"), "memoryhub", "UTF-8"),
    "truncated": ("cut.json", b'{"sessions": [', "memoryhub", "line 1 column"),
    "nested too deeply": ("deep.json", b"[" * 100_000 + b"]" * 100_000, "memoryhub", "deeply"),
    "a list, not an object": ("list.json", b"[1, 2]", "memoryhub", "sessions"),
    "sessions of numbers": ("nums.json", b'{"sessions": [1]}', "memoryhub", r"sessions\[0\]"),
    "chatgpt: an object": ("c1.json", b'{"a": 1}', "chatgpt", "list of conversations"),
    "chatgpt: a node that is a list": (
        "c2.json",
        json.dumps([{"create_time": 1.0, "current_node": "a", "mapping": {"a": [1]}}]).encode(),
        "chatgpt",
        "no user or assistant messages",
    ),
    "chatgpt: an author that is a string": (
        "c3.json",
        json.dumps(
            [
                {
                    "create_time": 1.0,
                    "current_node": "a",
                    "mapping": {
                        "a": {**CHATGPT_NODE, "message": {"author": "user", "content": "hi"}}
                    },
                }
            ]
        ).encode(),
        "chatgpt",
        "no user or assistant messages",
    ),
    "chatgpt: a NaN time": (
        "c4.json",
        b'[{"create_time": NaN, "current_node": "a", "mapping": {}}]',
        "chatgpt",
        r"conversations\[0\]\.create_time",
    ),
    "chatgpt: a time past datetime's range": (
        "c5.json",
        b'[{"create_time": 1e300, "current_node": "a", "mapping": {}}]',
        "chatgpt",
        r"conversations\[0\]\.create_time",
    ),
    "chatgpt: a message time in 2200": (
        "c6.json",
        json.dumps(
            [
                {
                    "create_time": 1.7e9,
                    "current_node": "a",
                    "mapping": {
                        "a": {
                            **CHATGPT_NODE,
                            "message": {
                                "author": {"role": "user"},
                                "create_time": 7.3e9,
                                "content": {"parts": ["hi"]},
                            },
                        }
                    },
                }
            ]
        ).encode(),
        "chatgpt",
        r"sessions\[0\]\.messages\[0\]\.created_at: must be between 1970-01-01 and 2100",
    ),
}


@pytest.mark.parametrize("case", MALFORMED_FILES)
def test_import_history_on_a_malformed_file_is_a_command_error_naming_the_place(tmp_path, case):
    name, data, file_format, expected = MALFORMED_FILES[case]
    path = _write(tmp_path, name, data)

    with pytest.raises(CommandError, match=expected):
        call_command("import_history", str(path), "--user", "x", "--format", file_format)

    assert Message.objects.count() == 0
    assert not HistoryImport.objects.exists()


def test_import_history_on_a_directory_or_a_missing_file_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="is a directory"):
        call_command("import_history", str(tmp_path))
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_history", str(tmp_path / "missing.json"))


def test_import_history_refuses_a_file_over_the_size_limit_before_reading_it(tmp_path, monkeypatch):
    from conversations.management.commands import import_history

    monkeypatch.setattr(import_history, "MAX_FILE_BYTES", 1024 * 1024)
    path = _write(tmp_path, "huge.json", b" " * (2 * 1024 * 1024))

    with pytest.raises(CommandError, match="2 MB; at most 1 MB per import"):
        call_command("import_history", str(path))


def _failing_on_second_session(monkeypatch):
    real = imports._store_session

    def store(record, item):
        if item.messages[0].external_id.startswith("d"):  # the diving session
            raise RuntimeError("the disk is full")
        return real(record, item)

    monkeypatch.setattr(imports, "_store_session", store)


def test_an_import_whose_worker_keeps_failing_ends_failed_with_a_reason_code(
    api, user, monkeypatch
):
    from celery.exceptions import Retry

    from conversations.tasks import history_import_run

    now = timezone.now()
    payload = {"sessions": [_violin(now - timedelta(days=2), "v"), _diving(now, "d")]}
    monkeypatch.setattr(history_import_run, "delay", lambda **kw: None)
    import_id = int(api.post("/api/v1/imports/", payload, format="json").json()["id"])
    _failing_on_second_session(monkeypatch)

    with pytest.raises(Retry):  # a first failure is retried, not given up on
        history_import_run.apply(kwargs={"import_id": import_id}, throw=True)
    assert HistoryImport.objects.get(pk=import_id).status == "running"
    history_import_run.apply(kwargs={"import_id": import_id}, retries=3).get()

    record = HistoryImport.objects.get(pk=import_id)
    assert record.status == "failed" and record.error == "worker_error"
    assert record.payload == {} and record.finished_at is not None
    # The first session was stored whole before the failure; nothing of the second.
    assert Message.objects.filter(user=user).count() == 3
    assert record.sessions_done == 1
    body = api.get(f"/api/v1/imports/{import_id}/").json()
    assert body["status"] == "failed" and body["error"] == "worker_error"
    assert "sessions stored before it remain" in body["error_message"]
    korean = api.get(f"/api/v1/imports/{import_id}/", HTTP_ACCEPT_LANGUAGE="ko").json()
    assert korean["error"] == "worker_error"


def test_import_history_whose_import_fails_midway_is_a_command_error_and_marked_failed(
    tmp_path, monkeypatch
):
    now = timezone.now()
    payload = {"sessions": [_violin(now - timedelta(days=2), "v"), _diving(now, "d")]}
    path = _write(tmp_path, "history.json", json.dumps(payload).encode())
    _failing_on_second_session(monkeypatch)

    with pytest.raises(CommandError, match="stopped on RuntimeError and is marked failed"):
        call_command("import_history", str(path), "--user", "x")

    record = HistoryImport.objects.get()
    assert record.status == "failed" and record.error == "worker_error"


def test_the_recovery_job_requeues_an_orphaned_running_import_then_marks_it_failed(
    user, monkeypatch
):
    from conversations.services import recovery
    from conversations.tasks import history_import_run

    sent: list[int] = []
    monkeypatch.setattr(history_import_run, "delay", lambda import_id, **_: sent.append(import_id))
    record = HistoryImport.objects.create(user=user, status="running", total=1)
    now = timezone.now()

    def sweep(minutes):
        return recovery.work_requeue_unpublished(now=now + timedelta(minutes=minutes)).imports

    assert sweep(0) == 0  # first seen running now: within the grace period
    grace = settings.MEMORYHUB_RECOVERY_GRACE_MINUTES
    for attempt in range(1, recovery.IMPORT_REQUEUES + 1):
        cache.delete(f"recovery:import:{record.pk}")  # the once-per-grace marker expired
        assert sweep(grace * attempt + 1) == 1
        assert sent == [record.pk] * attempt
        assert HistoryImport.objects.get(pk=record.pk).status == "running"
    cache.delete(f"recovery:import:{record.pk}")
    sweep(grace * 10)

    record.refresh_from_db()
    assert sent == [record.pk] * recovery.IMPORT_REQUEUES
    assert record.status == "failed" and record.error == "worker_lost"


def test_the_recovery_job_leaves_alone_an_import_a_worker_is_running(user, monkeypatch):
    from conversations.services import recovery
    from conversations.tasks import history_import_lock, history_import_run

    sent: list[int] = []
    monkeypatch.setattr(history_import_run, "delay", lambda import_id, **_: sent.append(import_id))
    record = HistoryImport.objects.create(user=user, status="running", total=1)
    now = timezone.now()
    recovery.work_requeue_unpublished(now=now)

    # Another database session holds the lock, as a running worker would.
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_lock(hashtextextended(%s, 0))",
                [history_import_lock(record.pk)],
            )
        recovery.work_requeue_unpublished(now=now + timedelta(hours=1))
    finally:
        other.close()

    assert sent == []


@pytest.mark.parametrize(
    ("messages", "kept"),
    [
        (
            [("user", "지난번에 내가 어디 가자고 했었지?"), ("assistant", "알겠어요."),
             ("user", "(삭제됨) 근처로 이사했고 기억해줘."), ("assistant", "네, 기억할게요."),
             ("user", "요즘 저녁마다 뜨개질로 목도리를 떠.")],
            "뜨개질",
        ),
        (
            [("user", "what did I say about the trip?"), ("assistant", "Got it."),
             ("user", "My address is [removed] now."), ("assistant", "Sure, noted!"),
             ("user", "I knit a scarf every evening.")],
            "scarf",
        ),
    ],
    ids=["ko", "en"],
)  # fmt: skip
def test_an_imported_session_is_summarised_by_what_was_said_not_markers_or_filler(
    api, user, messages, kept
):
    started = timezone.now() - timedelta(days=2)
    response = api.post(
        "/api/v1/imports/", {"sessions": [_session(started, messages, "k")]}, format="json"
    )

    imports.history_import_run(
        import_id=int(response.json()["id"]),
        finalize=lambda sid: imports.session_import_finalize(session_id=sid),
    )

    session = ChatSession.objects.get(user=user)
    assert session.status == ChatSession.Status.ENDED
    assert session.summary == messages[-1][1]
    derived = " ".join([session.title, *session.tags]).lower()
    assert kept in session.title.lower() and kept in session.tags
    for left_out in ("삭제", "removed", "기억", "remember", "noted", "알겠", "지난번", "trip"):
        assert left_out not in derived + session.summary.lower(), left_out
