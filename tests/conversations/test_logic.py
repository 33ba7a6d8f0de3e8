"""Pure logic of Algorithms 1 and 2, tested without a database."""

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from conversations.logic import (
    compaction,
    decay,
    fusion,
    segmentation,
    summarize,
    yesno,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_effective_weight_decays_by_the_factor_per_day():
    assert decay.effective_weight(1.0, T0, T0 + timedelta(days=1), 0.95) == pytest.approx(0.95)
    assert decay.effective_weight(1.0, T0, T0 + timedelta(days=45), 0.95) < 0.1
    assert decay.effective_weight(1.0, T0, T0 + timedelta(days=44), 0.95) > 0.1


def test_effective_weight_never_grows_backwards_in_time():
    assert decay.effective_weight(1.0, T0, T0 - timedelta(days=3), 0.95) == 1.0


def test_adding_later_decays_the_old_weight_first():
    weight, at = decay.add_at(1.0, T0, 1.0, T0 + timedelta(days=2), 0.95)

    assert weight == pytest.approx(0.95**2 + 1.0)
    assert at == T0 + timedelta(days=2)


def test_adding_out_of_order_history_keeps_the_clock_and_decays_the_addition():
    weight, at = decay.add_at(1.0, T0, 1.0, T0 - timedelta(days=10), 0.95)

    assert at == T0
    assert weight == pytest.approx(1.0 + 0.95**10)


@pytest.mark.parametrize(
    "answer, same",
    [
        ("Y", True), ("y", True), ("Yes.", True), ("같음", True), ("같아요", True),
        ("N", False), ("n.", False), ("No", False), ("다름", False), ("다름입니다", False),
        ("다", False), ("They are different topics.", False), ("not the same topic", False),
        ("B is a different subject from A", False), ("Same topic.", True),
        ("", None), ("???", None), ("I cannot tell", None),
    ],
)  # fmt: skip
def test_yes_no_answers_are_parsed_robustly(answer, same):
    assert yesno.parse_same_topic(answer) is same


NO_CENTRE = segmentation.RAW


def _turn(role, text, terms, vector):
    v = np.asarray(vector, dtype=np.float32)
    return segmentation.SegTurn(role, text, frozenset(terms), v / np.linalg.norm(v))


def test_similar_message_continues_the_topic_and_a_distant_one_shifts():
    window = [
        _turn("user", "a", {"next.js"}, [1, 0, 0]),
        _turn("assistant", "b", set(), [1, 0.1, 0]),
    ]
    close = _turn("user", "c", {"next.js"}, [1, 0.05, 0])
    far = _turn("user", "d", {"주가"}, [0, 0, 1])

    assert not segmentation.is_shift(close, window, threshold=0.8, centre=NO_CENTRE)
    assert segmentation.is_shift(far, window, threshold=0.8, centre=NO_CENTRE)


def test_messages_are_compared_off_the_chat_centre():
    # Both messages lie mostly along what every chat message shares (the first axis); they
    # differ in subject (the other two). Raw, they look alike; off the centre, they do not.
    centre = segmentation.Centre(np.asarray([0.9, 0.0, 0.0], dtype=np.float32), "deployment")
    window = [_turn("user", "a", {"next.js"}, [1, 0.3, 0])]
    other_subject = _turn("user", "b", {"주가"}, [1, 0, 0.3])
    same_subject = _turn("user", "c", {"빌드"}, [1, 0.35, 0.02])

    assert not segmentation.is_shift(other_subject, window, threshold=0.8, centre=NO_CENTRE)
    assert segmentation.is_shift(other_subject, window, threshold=0.8, centre=centre)
    assert not segmentation.is_shift(same_subject, window, threshold=0.8, centre=centre)


def test_a_backchannel_never_starts_a_topic():
    window = [_turn("user", "a", {"next.js"}, [1, 0, 0])]
    short = _turn("user", "응 ㅋㅋ", set(), [0, 0, 1])

    assert not segmentation.is_shift(short, window, threshold=0.99, centre=NO_CENTRE)


def test_last_exchanges_keeps_the_last_two_user_turns_and_what_followed():
    roles = ["user", "assistant"] * 3
    turns = [_turn(role, str(i), set(), [1, 0, 0]) for i, role in enumerate(roles)]

    assert [t.text for t in segmentation.last_exchanges(turns)] == ["2", "3", "4", "5"]


def test_tags_prefer_words_rare_in_the_users_other_sessions_and_skip_generic_ones():
    terms = ["마이그레이션", "마이그레이션", "Next.js", "질문", "회사", "회사", "React"]

    tags = summarize.rank_tags(
        terms, document_frequency={"회사": 9}, documents=10, generic=["질문"]
    )

    assert tags[0] == "마이그레이션"
    assert "질문" not in tags
    assert tags.index("next.js") < tags.index("회사")


def test_compaction_keeps_goal_decisions_identifiers_blockers_and_next_step():
    state = compaction.fold(
        compaction.SessionState(),
        [
            ("user", "React 프로젝트를 Next.js로 마이그레이션하려고 해. 배포가 되면 끝이야."),
            ("assistant", "App Router를 쓰기로 하죠."),
            ("user", "app/page.tsx 만들었어. 빌드 에러가 나."),
            ("user", "빌드 에러는 해결했어. 다음엔 미들웨어를 옮길게."),
            ("user", "Decided to keep pages/ until v2.1 ships; see #142."),
        ],
    )

    assert "마이그레이션하려고" in state.goal
    assert "되면" in state.done_condition
    assert any("App Router" in d for d in state.decisions)
    assert {"app/page.tsx", "#142", "v2.1"} <= set(state.identifiers)
    assert any("해결" in c for c in state.completed)
    assert state.blockers == []
    assert "pages/" in state.next_step or "미들웨어" in state.next_step


def test_session_state_survives_a_round_trip_and_renders():
    state = compaction.SessionState(goal="ship", identifiers=["a.py"], next_step="test")

    again = compaction.SessionState.from_dict(state.as_dict())

    assert again == state
    assert "Goal: ship" in again.render() and "a.py" in again.render()


def test_rrf_sums_weighted_reciprocal_ranks():
    fused = fusion.reciprocal_rank_fusion({"a": [1, 2], "b": [2, 3]}, {"a": 1.0, "b": 0.5}, k=10)

    assert fused[2] == pytest.approx(1 / 12 + 0.5 / 11)
    assert max(fused, key=lambda i: fused[i]) == 2


def test_neighbours_share_the_best_neighbour_not_the_sum():
    scores = {1: 0.10, 2: 0.08, 3: 0.09}
    spread = fusion.spread_to_neighbours(scores, {1: [2], 2: [1, 3], 3: [2]}, 0.2)

    assert spread[2] == pytest.approx(0.08 + 0.2 * 0.10)
    assert max(spread, key=lambda i: spread[i]) == 1


def test_a_hit_in_a_session_full_of_hits_gains_the_most():
    boosted = fusion.boost_by_group({1: 0.1, 2: 0.1, 3: 0.1}, {1: "a", 2: "a", 3: "b"}, 0.5)

    assert boosted[1] == pytest.approx(0.15) and boosted[3] == pytest.approx(0.125)


def test_time_decay_follows_the_seeds_curve():
    assert fusion.time_decay(0, 0.01) == 1.0
    assert fusion.time_decay(100, 0.01) == pytest.approx(0.3679, abs=1e-3)
    assert fusion.time_decay(-5, 0.01) == 1.0
