import pytest

from conversations import selectors
from conversations.models import ChatSession, Message
from conversations.services import chat, indexing
from memoryhub import llm
from memoryhub import text as text_analysis
from memoryhub.validation import InvalidText

pytestmark = pytest.mark.django_db


def test_user_message_is_stored_with_keywords_tokens_and_a_topic(user):
    session = chat.chat_session_create(user=user)

    message, topic = chat.message_add_user(session=session, content="Next.js App Router 설정했어.")

    assert message.role == Message.Role.USER
    assert {"next.js", "app", "router", "설정"} <= set(message.keywords)
    assert message.token_count > 0
    assert message.topic_id == int(topic.id)
    session.refresh_from_db()
    assert session.title == "Next.js App Router 설정"
    assert session.last_message_at == message.created_at


def test_user_message_is_embedded_at_once(user):
    session = chat.chat_session_create(user=user)

    message, _ = chat.message_add_user(session=session, content="hello there")

    assert message.embedding is not None


class _ModelProvider(llm.OfflineProvider):
    """Streams like the offline provider but counts as a real model's reply."""

    offline = False
    name = "model"


def test_a_model_reply_is_embedded_by_a_task_enqueued_after_commit(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    from conversations import tasks

    llm.set_provider(_ModelProvider())
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="hello there")
    sent: list[dict] = []
    monkeypatch.setattr(tasks.messages_embed, "delay", lambda **kw: sent.append(kw))

    with django_capture_on_commit_callbacks(execute=True):
        "".join(chat.reply_stream(message=message))

    assert sent == [{"user_id": user.pk}]
    assert selectors.message_reply(message=message).searchable is True


def test_an_offline_reply_is_kept_out_of_search_and_embedding(user):
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="I prefer short answers.")

    "".join(chat.reply_stream(message=message))

    reply = selectors.message_reply(message=message)
    assert reply.searchable is False and reply.keywords == []


def test_blank_message_is_refused_and_nothing_is_written(user):
    session = chat.chat_session_create(user=user)

    with pytest.raises(InvalidText):
        chat.message_add_user(session=session, content="  \n ")

    assert Message.objects.count() == 0


def test_ended_session_refuses_new_messages(user):
    session = chat.chat_session_create(user=user)
    ChatSession.objects.filter(pk=session.pk).update(status=ChatSession.Status.ENDED)

    with pytest.raises(chat.SessionClosed):
        chat.message_add_user(session=session, content="hello")


def test_reply_is_stored_once_even_when_streamed_twice(user):
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="I prefer short answers.")

    first = "".join(chat.reply_stream(message=message))
    second = "".join(chat.reply_stream(message=message))

    assert first.strip() == second.strip()
    assert Message.objects.filter(reply_to=message).count() == 1


def test_a_failing_model_still_leaves_a_reply_saying_so(user, offline_provider):
    class Broken(llm.OfflineProvider):
        def stream_reply(self, request):
            yield "partial"
            raise llm.LLMError("overloaded")

    llm.set_provider(Broken())
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="hello")

    text = "".join(chat.reply_stream(message=message))

    assert "could not be reached" in text
    assert selectors.message_reply(message=message).content.startswith("partial")


def test_history_sent_to_the_model_fits_the_token_budget(user, settings):
    settings.MEMORYHUB_HISTORY_TOKEN_BUDGET = 40
    session = chat.chat_session_create(user=user)
    for i in range(6):
        m, _ = chat.message_add_user(session=session, content=f"message number {i} " + "word " * 20)
        "".join(chat.reply_stream(message=m))
    last, _ = chat.message_add_user(session=session, content="and now?")

    turns = chat._history_turns(session=session, before=last)

    assert sum(len(t.content) for t in turns) < 40 * 6
    assert all(t.content != "and now?" for t in turns)
    assert not turns or turns[0].role == "user"


def _unembedded(user, session, content):
    return Message.objects.create(session=session, user=user, role="user", content=content)


def test_embedding_pending_messages_is_idempotent(user):
    session = chat.chat_session_create(user=user)
    for content in ["첫 메시지", "second message", "세 번째"]:
        _unembedded(user, session, content)

    assert indexing.messages_embed_pending(user_id=user.pk) == 3
    assert indexing.messages_embed_pending(user_id=user.pk) == 0
    assert not Message.objects.filter(embedding__isnull=True).exists()


def test_embedding_touches_only_the_given_users_messages(user, other_user):
    _unembedded(user, chat.chat_session_create(user=user), "mine")
    _unembedded(other_user, chat.chat_session_create(user=other_user), "theirs")

    indexing.messages_embed_pending(user_id=user.pk)

    assert Message.objects.get(user=other_user).embedding is None


def _reply(session, content):
    message, _topic = chat.message_add_user(session=session, content=content)
    return "".join(chat.reply_stream(message=message))


@pytest.mark.parametrize("said", ["🙏", "👍👍", "🎉!!"])
def test_a_message_with_no_letters_is_answered_in_the_language_of_the_conversation(user, said):
    session = chat.chat_session_create(user=user)
    _reply(session, "오늘 회의 자료 정리하는 중이야")

    reply = _reply(session, said)

    # Nothing to recall: a few words, in Korean (no "without a language model" notice).
    assert text_analysis.has_hangul(reply) and len(reply) <= 40, reply


def test_a_first_message_with_no_letters_follows_the_users_earlier_conversations(user):
    _reply(chat.chat_session_create(user=user), "주말에 등산 다녀왔어")

    reply = _reply(chat.chat_session_create(user=user), "🙏")

    assert text_analysis.has_hangul(reply), reply


def test_a_message_with_no_letters_stays_in_english_for_an_english_writer(user):
    session = chat.chat_session_create(user=user)
    _reply(session, "I finished the quarterly report today")

    reply = _reply(session, "👍")

    assert reply == "Okay!", reply


def test_korean_letters_alone_get_a_korean_reply(user):
    session = chat.chat_session_create(user=user)
    _reply(session, "I finished the quarterly report today")

    assert text_analysis.has_hangul(_reply(session, "ㅋㅋ👍"))


def test_a_reply_embeds_its_message_as_a_query_once(user, monkeypatch):
    from memoryhub import embeddings

    earlier = chat.chat_session_create(user=user)
    _reply(earlier, "The budget review moved to Thursday")
    indexing.messages_embed_pending(user_id=user.pk)
    embedded: list[str] = []
    real = embeddings.embed_query
    monkeypatch.setattr(embeddings, "embed_query", lambda t: embedded.append(t) or real(t))

    _reply(chat.chat_session_create(user=user), "When is the budget review?")

    assert embedded.count("When is the budget review?") == 1, embedded
