"""The tags page explains itself: what a weight means in words, the arithmetic folded away,
and each tag's weight over time on labelled axes with dates in the reader's language."""

import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from conversations.models import TagWeight, TagWeightHistory
from memoryhub import charts

BOX = charts.PlotBox(width=200, height=100, padding=5, label_left=20, label_bottom=15)


def test_a_plot_box_keeps_room_for_labels_left_and_below():
    assert (BOX.left, BOX.right, BOX.top, BOX.bottom) == (25, 195, 5, 80)


def test_day_ticks_run_from_the_first_day_at_the_left_edge_to_the_last_at_the_right():
    axes = charts.daily_axes(start=date(2026, 10, 1), end=date(2026, 11, 30), y_max=2.0, box=BOX)

    assert [tick.day for tick in axes.days] == [
        date(2026, 10, 1),
        date(2026, 10, 31),
        date(2026, 11, 30),
    ]
    assert [tick.x for tick in axes.days] == [25, 110, 195]
    assert [tick.anchor for tick in axes.days] == ["start", "middle", "end"]


def test_value_ticks_run_from_zero_at_the_bottom_to_the_top_of_the_scale():
    axes = charts.daily_axes(start=date(2026, 11, 1), end=date(2026, 11, 30), y_max=3.0, box=BOX)

    assert [(tick.value, tick.y) for tick in axes.values] == [(0, 80), (1.5, 42.5), (3.0, 5)]
    assert axes.value_label_x < BOX.left
    assert axes.day_label_y > BOX.bottom
    assert axes.day_title.y > axes.day_label_y


def test_a_short_range_has_no_repeated_day_ticks():
    one_day = charts.daily_axes(start=date(2026, 11, 1), end=date(2026, 11, 2), y_max=1, box=BOX)
    same_day = charts.daily_axes(start=date(2026, 11, 1), end=date(2026, 11, 1), y_max=1, box=BOX)

    assert [tick.day.day for tick in one_day.days] == [1, 2]
    assert [tick.day.day for tick in same_day.days] == [1]


@pytest.mark.parametrize(
    ("highest", "top"),
    [(2.4, 3.0), (1.04, 2.0), (1.0, 1.0), (0.07, 0.08), (0.3, 0.3), (12.5, 20.0), (7.2, 8.0)],
)
def test_the_top_of_a_scale_is_a_round_number_at_or_above_the_highest_value(highest, top):
    assert charts.nice_top(highest) == top


@pytest.mark.parametrize("nothing", [0.0, -1.0, float("nan")])
def test_a_scale_with_nothing_to_show_runs_to_one(nothing):
    assert charts.nice_top(nothing) == 1.0


def test_a_range_that_ends_before_it_starts_is_refused():
    with pytest.raises(ValueError, match="start <= end"):
        charts.daily_axes(start=date(2026, 11, 2), end=date(2026, 11, 1), y_max=1, box=BOX)


# --- the page ------------------------------------------------------------------------------


@pytest.fixture
def tags_page(client, user):
    client.force_login(user)
    today = timezone.localdate()
    TagWeight.objects.create(user=user, tag="등산", weight=1.6, updated_at=timezone.now())
    for days_ago, weight in [(20, 1.0), (8, 2.0), (2, 1.7)]:
        TagWeightHistory.objects.create(
            user=user, tag="등산", day=today - timedelta(days=days_ago), weight=weight
        )

    def get(language):
        response = client.get(reverse("chat:tags"), HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        return response.content.decode()

    return get


def _svg(page):
    return re.search(r"<svg class=\"spark\".*?</svg>", page, re.S).group(0)


@pytest.mark.django_db
def test_the_chart_labels_its_axes_in_english(tags_page):
    svg = _svg(tags_page("en"))
    start = timezone.localdate() - timedelta(days=59)

    assert ">Weight</text>" in svg
    assert ">Date</text>" in svg
    assert f">{start:%B} {start.day}</text>" in svg
    # The history peaks at 2.0: the scale runs to that round number, halved in the middle.
    assert ">0</text>" in svg and ">1</text>" in svg and ">2</text>" in svg


@pytest.mark.django_db
def test_the_chart_labels_its_axes_in_korean_with_korean_dates(tags_page):
    svg = _svg(tags_page("ko"))
    today = timezone.localdate()

    assert ">가중치</text>" in svg
    assert ">날짜</text>" in svg
    assert f">{today.month}월 {today.day}일</text>" in svg


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_arithmetic_is_only_in_the_folded_help(tags_page, settings, language):
    page = tags_page(language)
    help_text = re.search(r'<details class="tag-help">.*?</details>', page, re.S).group(0)
    outside = page.replace(help_text, "")

    factor = str(settings.MEMORYHUB_TAG_DECAY_FACTOR)
    assert factor in help_text
    assert factor not in outside
    assert "×" not in outside and "/day" not in outside


@pytest.mark.django_db
def test_the_page_says_in_words_what_the_weight_means_and_how_it_fades(tags_page):
    english, korean = tags_page("en"), tags_page("ko")

    assert "how much a subject has come up in your conversations lately" in english
    assert "fades a little every day it does not come up" in english
    assert "이야기하지 않는 날마다 조금씩 줄어들어요" in korean
