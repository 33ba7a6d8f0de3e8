"""Ending a session, the session outline (topics, tags, summary) and the tags page."""

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from conversations.models import ChatSession, Message, TagWeight, TagWeightHistory, Topic
from conversations.services import chat
from memoryhub import charts


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def session(user):
    return chat.chat_session_create(user=user)


def _topic_with_messages(session, keywords, times):
    topic = Topic.objects.create(
        session=session,
        user=session.user,
        keywords=keywords,
        started_at=times[0],
        ended_at=times[-1],
        message_count=len(times),
    )
    for at in times:
        Message.objects.create(
            session=session, user=session.user, role=Message.Role.USER,
            content=f"about {keywords[0]}", created_at=at, topic=topic,
        )  # fmt: skip
    return topic


# --- ending a session ----------------------------------------------------------------------


@pytest.mark.django_db
def test_active_chat_page_has_an_end_session_button(logged_in, session):
    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert f'action="{reverse("chat:session-end", args=[session.pk])}"' in content
    assert "End conversation" in content


@pytest.mark.django_db
def test_end_button_marks_the_session_ending_and_redirects_to_the_chat(
    logged_in, session, django_capture_on_commit_callbacks, monkeypatch
):
    enqueued = []
    monkeypatch.setattr(
        "conversations.tasks.session_finalize.delay", lambda **kwargs: enqueued.append(kwargs)
    )

    with django_capture_on_commit_callbacks(execute=True):
        response = logged_in.post(reverse("chat:session-end", args=[session.pk]))

    session.refresh_from_db()
    assert response.status_code == 302
    assert response.url == reverse("chat:session-detail", args=[session.pk])
    assert session.status == ChatSession.Status.ENDING
    assert enqueued == [{"session_id": session.pk, "user_id": session.user_id}]


@pytest.mark.django_db
def test_ending_chat_page_hides_the_message_form_and_offers_a_new_session(logged_in, session):
    logged_in.post(reverse("chat:session-end", args=[session.pk]))

    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert "Ending" in content
    assert "This conversation is ending" in content
    assert reverse("chat:session-create") in content
    assert reverse("chat:message-create", args=[session.pk]) not in content
    assert reverse("chat:session-end", args=[session.pk]) not in content
    assert "?wait=ended" in content


@pytest.mark.django_db
def test_ending_the_session_twice_keeps_it_ending(logged_in, session):
    url = reverse("chat:session-end", args=[session.pk])

    logged_in.post(url)
    response = logged_in.post(url)

    session.refresh_from_db()
    assert response.status_code == 302
    assert session.status == ChatSession.Status.ENDING


@pytest.mark.django_db
def test_end_url_only_takes_post(logged_in, session):
    response = logged_in.get(reverse("chat:session-end", args=[session.pk]))

    session.refresh_from_db()
    assert response.status_code == 405
    assert session.status == ChatSession.Status.ACTIVE


@pytest.mark.django_db
def test_other_users_end_url_is_404(logged_in, other_user):
    theirs = chat.chat_session_create(user=other_user)

    response = logged_in.post(reverse("chat:session-end", args=[theirs.pk]))

    theirs.refresh_from_db()
    assert response.status_code == 404
    assert theirs.status == ChatSession.Status.ACTIVE


@pytest.mark.django_db
def test_end_url_needs_login(client, session):
    response = client.post(reverse("chat:session-end", args=[session.pk]))

    session.refresh_from_db()
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert session.status == ChatSession.Status.ACTIVE


@pytest.mark.django_db
def test_polling_an_ending_session_changes_nothing_until_it_has_ended(logged_in, session):
    url = reverse("chat:session-detail", args=[session.pk]) + "?wait=ended"
    ChatSession.objects.filter(pk=session.pk).update(status=ChatSession.Status.ENDING)

    still_ending = logged_in.get(url, HTTP_HX_REQUEST="true")
    ChatSession.objects.filter(pk=session.pk).update(status=ChatSession.Status.ENDED)
    ended = logged_in.get(url, HTTP_HX_REQUEST="true")

    assert still_ending.status_code == 204
    assert ended["HX-Refresh"] == "true"


# --- the session outline -------------------------------------------------------------------


@pytest.mark.django_db
def test_session_page_lists_topics_with_keywords_times_and_message_counts(logged_in, session):
    start = timezone.now().replace(hour=9, minute=0, second=0, microsecond=0)
    _topic_with_messages(session, ["북한산", "hiking"], [start, start + timedelta(minutes=5)])
    _topic_with_messages(
        session, ["kimchi"], [start + timedelta(minutes=20), start + timedelta(minutes=42),
                              start + timedelta(minutes=47)]
    )  # fmt: skip

    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert "2 topics" in content
    assert "북한산" in content and "hiking" in content and "kimchi" in content
    assert f'datetime="{timezone.localtime(start).isoformat()}"' in content
    assert "2 messages" in content and "3 messages" in content
    assert content.index("북한산") < content.index("kimchi")


@pytest.mark.django_db
def test_session_page_lists_the_topics_the_chat_made(logged_in, session):
    chat.chat_exchange(session=session, content="I want to climb Bukhansan this weekend")

    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    topic = Topic.objects.get(session=session)
    assert "1 topic" in content
    assert "current topic" in content
    for keyword in topic.keywords:
        assert keyword in content


@pytest.mark.django_db
def test_session_page_without_topics_says_they_will_appear(logged_in, session):
    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert "0 topics" in content
    assert "Topics appear here" in content


@pytest.mark.django_db
def test_ended_session_page_shows_its_tags_and_summary(logged_in, session):
    ChatSession.objects.filter(pk=session.pk).update(
        status=ChatSession.Status.ENDED, summary="Planned a hike up Bukhansan.",
        tags=["등산", "weekend"],
    )  # fmt: skip

    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert "Planned a hike up Bukhansan." in content
    assert '<li class="tag">등산</li>' in content
    assert '<li class="tag">weekend</li>' in content
    assert "This conversation has ended" in content
    assert reverse("chat:message-create", args=[session.pk]) not in content


@pytest.mark.django_db
def test_session_list_shows_tags_as_chips_and_the_summary(logged_in, session):
    ChatSession.objects.filter(pk=session.pk).update(
        status=ChatSession.Status.ENDED, summary="Planned a hike.", tags=["hiking"]
    )

    content = logged_in.get(reverse("chat:session-list")).content.decode()

    assert '<li class="tag">hiking</li>' in content
    assert "Planned a hike." in content


# --- the tags page -------------------------------------------------------------------------


@pytest.mark.django_db
def test_tags_page_shows_tags_with_weights_and_a_chart(logged_in, user):
    now = timezone.now()
    today = timezone.localdate()
    TagWeight.objects.create(user=user, tag="hiking", weight=2.5, updated_at=now)
    TagWeight.objects.create(user=user, tag="kimchi", weight=1.25, updated_at=now)
    for days_ago, weight in [(10, 1.0), (3, 2.0), (1, 2.5)]:
        TagWeightHistory.objects.create(
            user=user, tag="hiking", day=today - timedelta(days=days_ago), weight=weight
        )

    content = logged_in.get(reverse("chat:tags")).content.decode()

    assert "hiking" in content and "kimchi" in content
    assert "2.50" in content and "1.25" in content
    assert content.count("<svg") == 2
    assert "<polyline" in content
    assert content.index("hiking") < content.index("kimchi")


@pytest.mark.django_db
def test_tags_page_explains_decay_with_the_configured_values(logged_in, settings):
    settings.MEMORYHUB_TAG_DECAY_FACTOR = 0.9
    settings.MEMORYHUB_TAG_FLOOR = 0.2

    content = logged_in.get(reverse("chat:tags")).content.decode()

    assert "multiplied by 0.9, so it loses 10% a day" in content
    assert "Below 0.2 the tag is forgotten" in content


@pytest.mark.django_db
def test_tags_page_only_shows_the_logged_in_users_tags(logged_in, user, other_user):
    now = timezone.now()
    TagWeight.objects.create(user=user, tag="hiking", weight=1.0, updated_at=now)
    TagWeight.objects.create(user=other_user, tag="secretproject", weight=5.0, updated_at=now)
    TagWeightHistory.objects.create(
        user=other_user, tag="hiking", day=timezone.localdate() - timedelta(days=2), weight=9.75
    )

    content = logged_in.get(reverse("chat:tags")).content.decode()

    assert "hiking" in content
    assert "secretproject" not in content
    assert "9.75" not in content


@pytest.mark.django_db
def test_tags_page_leaves_out_forgotten_tags(logged_in, user):
    TagWeight.objects.create(
        user=user, tag="oldhobby", weight=0.2, updated_at=timezone.now() - timedelta(days=60)
    )

    content = logged_in.get(reverse("chat:tags")).content.decode()

    assert "oldhobby" not in content
    assert "No tags yet" in content


@pytest.mark.django_db
def test_tags_page_needs_login(client):
    response = client.get(reverse("chat:tags"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.django_db
def test_nav_links_to_the_tags_page(logged_in):
    content = logged_in.get(reverse("chat:session-list")).content.decode()

    assert f'href="{reverse("chat:tags")}"' in content


# --- the chart helper (no database) --------------------------------------------------------

BOX = charts.Box(width=100, height=50, padding=5)


def test_scale_maps_the_corners_of_the_ranges_onto_the_box():
    points = charts.scale([(0, 0), (10, 2), (5, 1)], x_range=(0, 10), y_range=(0, 2), box=BOX)

    assert points == [(5.0, 45.0), (95.0, 5.0), (50.0, 25.0)]


def test_scale_clamps_values_outside_the_ranges_to_the_edges():
    points = charts.scale([(-3, -1), (12, 9)], x_range=(0, 10), y_range=(0, 2), box=BOX)

    assert points == [(5.0, 45.0), (95.0, 5.0)]


def test_scale_puts_an_empty_range_on_the_left_and_bottom_edges():
    points = charts.scale([(4, 0.0)], x_range=(4, 4), y_range=(0, 0), box=BOX)

    assert points == [(5.0, 45.0)]


def test_polyline_points_are_pairs_with_one_decimal():
    assert charts.polyline_points([charts.Point(5, 45), charts.Point(1 / 3, 2.26)]) == (
        "5.0,45.0 0.3,2.3"
    )


def test_daily_chart_spans_start_to_end_and_drops_days_outside():
    start = date(2025, 3, 1)
    end = date(2025, 3, 11)
    series = [
        (date(2025, 3, 11), 1.0),
        (date(2025, 3, 1), 2.0),
        (date(2025, 2, 28), 5.0),
        (date(2025, 3, 6), 0.0),
    ]

    chart = charts.daily_line_chart(series, start=start, end=end, y_max=2.0, box=BOX)

    assert chart.points == [(5.0, 5.0), (50.0, 45.0), (95.0, 25.0)]
    assert chart.polyline == "5.0,5.0 50.0,45.0 95.0,25.0"
    assert chart.last == (95.0, 25.0)
    assert chart.view_box == "0 0 100 50"


def test_daily_chart_of_no_points_has_no_last_point():
    chart = charts.daily_line_chart(
        [], start=date(2025, 3, 1), end=date(2025, 3, 2), y_max=1.0, box=BOX
    )

    assert chart.points == []
    assert chart.polyline == ""
    assert chart.last is None
