"""A change that names the old answer replaces the memory holding it (issue 14 line 3), even
when the two statements are worded so differently that their slots differ."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from memories.logic.rules import extract_statements
from memories.logic.slots.change import adds_to, given_up, names_old_answer
from memories.models import Memory
from tests.memories.conftest import version_of

EARLIER = timezone.now() - timedelta(weeks=2)
LATER = timezone.now() - timedelta(days=1)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("필라테스 그만두고 요즘은 요가 다녀", "필라테스"),
        ("술은 끊었어 건강 때문에", "술"),
        ("gave up the violin, piano now", "violin"),
        ("left the hospital, i teach nursing now", "hospital"),
        ("switched to oat milk, dairy gives me cramps", "dairy"),
        ("mango is dead to me, peaches all the way", "mango"),
    ],
)
def test_the_old_answer_a_change_names_is_found(text, word):
    assert word in given_up(text).words


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("단골 빵집 바뀜 이제 역 앞 베이커리 감", "빵집"),
        ("점심 산책 1시로 옮겼어", "산책"),
        ("요가 수업을 토요일 아침으로 바꿨어요", "요가 수업"),
        ("shifted my gym sessions to the evening", "gym sessions"),
        ("my commute is now 40 minutes by bus", "commute"),
        ("new record on the rowing machine: 7:32", "record"),
        ("sold the camper van last week", "camper"),
        ("보고서는 표 말고 문단으로 써줘", "표"),
    ],
)
def test_a_change_said_of_the_question_itself_names_what_changed(text, word):
    assert word in given_up(text).named


@pytest.mark.parametrize(
    "text",
    [
        "got a new kitten, 3 months old",
        "이번 주 일정이 좀 바빠",
        "커피 마시면서 공부하는 중",
        "회사 그만두고 싶다",
        "I drink tea instead of coffee in the evening",
        "also doing pottery on sundays",
    ],
)
def test_a_shared_word_without_a_change_or_a_generic_word_names_nothing(text):
    assert given_up(text).words == ()


def test_leaving_school_or_a_job_without_naming_it_leaves_the_question():
    assert given_up("졸업하고 이번 달부터 출근해").slots == ("school",)
    assert set(given_up("retired last spring, gardening full time").slots) == {"job", "workplace"}


def test_an_english_word_is_named_by_its_stem_and_a_korean_one_as_written():
    assert names_old_answer("Works as a nurse at a clinic", "nursing")
    assert names_old_answer("Swims laps before work", "swimming")
    assert not names_old_answer("Runs every morning", "rugby")
    assert names_old_answer("주 3회 필라테스 다님", "필라테스")


def test_a_korean_compound_is_named_by_its_head_and_one_syllable_only_as_a_word():
    assert names_old_answer("가게 정기점검은 매달 첫째 주", "점검일")
    assert names_old_answer("요약은 표로 정리", "표")
    assert not names_old_answer("발표 준비 중", "표")


def _live(user: Any) -> list[str]:
    memories = Memory.objects.filter(user=user, status__in=["active", "pending"])
    return sorted(version_of(m).content for m in memories.select_related("current_version"))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second", "old_word"),
    [
        ("주 3회 필라테스 다녀요", "필라테스 그만두고 요즘은 클라이밍만 해요", "필라테스"),
        (
            "I work at a bakery downtown",
            "left the bakery, doing barista shifts at a cafe now",
            "bakery",
        ),
        ("매일 아침 라떼 두 잔 마셔", "라떼 끊고 요즘 보리차만 마셔", "라떼"),
    ],
)
def test_a_change_that_names_the_old_answer_replaces_its_memory(user, say, first, second, old_word):
    say(first, at=EARLIER)
    assert any(old_word in content for content in _live(user))

    result = say(second, at=LATER)

    assert result.outcome.get("corrected") == 1, result.outcome
    memories = Memory.objects.filter(user=user, status__in=["active", "pending"])
    versions = [version_of(m) for m in memories.select_related("current_version")]
    # no first-hand statement of the old answer is left live: its lineage moved on
    assert not [v.content for v in versions if v.version == 1 and old_word in v.content]
    assert [v.version for v in versions if v.version == 2] == [2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second", "gone"),
    [
        ("화요일 저녁마다 수영 강습 다녀", "수영 강습 목요일 아침으로 바꿨어", "화요일"),
        ("I do my long run on Saturdays", "moved my long run to Sunday mornings", "Saturday"),
        ("my commute is 25 minutes by bike", "my commute is now 50 minutes, new office", "25"),
    ],
)
def test_a_change_said_of_the_question_replaces_the_memory_that_answered_it(
    user, say, first, second, gone
):
    say(first, at=EARLIER)
    assert any(gone in content for content in _live(user))

    say(second, at=LATER)

    assert not any(gone in content for content in _live(user)), _live(user)


@pytest.mark.django_db
def test_a_statement_sharing_a_word_without_a_change_stays_beside_the_old_one(user, say):
    say("나 커피 좋아해", at=EARLIER)

    result = say("요즘 커피 마시면서 코딩 공부해", at=LATER)

    assert result.outcome.get("corrected") is None
    assert len(_live(user)) == 2


@pytest.mark.parametrize(
    "text",
    ["also teach yoga on saturdays", "고양이도 한 마리 입양했어", "새우 알레르기도 있어"],
)
def test_a_statement_that_adds_an_answer_says_so(text):
    assert adds_to(text)


@pytest.mark.django_db
def test_an_added_job_stays_beside_the_first_one(user, say):
    say("I work as a pharmacist", at=EARLIER)

    result = say("also tutor chemistry online on weekends", at=LATER)

    assert result.outcome.get("corrected") is None
    assert len(_live(user)) == 2


@pytest.mark.django_db
def test_where_a_relative_lives_never_replaces_where_the_user_lives(user, say):
    say("I live in Leeds", at=EARLIER)

    result = say("my brother still lives in Cardiff", at=LATER)

    assert result.outcome.get("corrected") is None
    assert any("Leeds" in content for content in _live(user))


@pytest.mark.django_db
def test_a_change_in_one_message_leaves_one_memory_holding_the_new_state(user, say):
    say("주 2회 테니스 쳐요", at=EARLIER)

    say("테니스 접고 요즘은 골프만 배워요", at=LATER)

    contents = _live(user)
    assert len(contents) == 1, contents
    assert "골프" in contents[0]


def test_an_old_answer_is_named_in_either_language():
    assert names_old_answer("화요일마다 필라테스 다님", "pilates")
    assert names_old_answer("Goes climbing on weekends", "클라이밍")
    assert not names_old_answer("Likes coffee", "tea")


@pytest.mark.django_db
def test_a_change_named_in_english_replaces_the_korean_memory_it_names(user, say):
    say("목요일마다 필라테스 다녀", at=EARLIER)

    say("quit pilates, thursdays are for bouldering now", at=LATER)

    assert not any("필라테스" in content for content in _live(user)), _live(user)


@pytest.mark.django_db
def test_the_new_state_said_with_the_changed_subject_is_kept_and_replaces_the_old(user, say):
    say("주말엔 아침 7시에 일어나", at=EARLIER)

    say("요즘 주말 기상 10시로 바꿨어 야근 때문에", at=LATER)

    contents = _live(user)
    assert any("10시" in content for content in contents), contents
    assert not any("7시" in content for content in contents), contents


@pytest.mark.parametrize(
    "text", ["keep replies brief, too much text lately", "answers were too long, shorter please"]
)
def test_too_much_or_too_long_adds_no_answer_beside_the_old_one(text):
    assert not adds_to(text)


@pytest.mark.django_db
def test_a_reversed_length_preference_with_a_reason_replaces_the_old_one(user, say):
    say("설명은 길고 자세하게 해줘", at=EARLIER)

    say("actually keep answers short from now on, too much to scroll", at=LATER)

    contents = _live(user)
    assert len(contents) == 1 and "short" in contents[0], contents


@pytest.mark.django_db
@pytest.mark.parametrize(
    "second",
    [
        "운동 좀 했더니 살 빠져서 79 나옴",
        "finally down to 79kg after the cut!",
        "다이어트 해서 이제 79키로",
    ],
)
def test_a_new_weight_said_in_passing_replaces_the_old_one(user, say, second):
    say("몸무게 84kg 나가요", at=EARLIER)

    say(second, at=LATER)

    contents = _live(user)
    assert any("79" in content for content in contents), contents
    assert not any("84" in content for content in contents), contents


def test_a_thing_s_weight_is_no_measure_of_the_user():
    assert not extract_statements("the carry-on bag is 9kg max")


def test_a_torn_ligament_is_nothing_given_up():
    assert given_up("작년에 무릎 인대 끊어져서 재활 중").words == ()


# --- categories of blind set 10 (session 11), in sentences written for these tests --------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("요가 수업 목요일 저녁 7시로 옮겨졌어", "요가 수업"),
        ("요즘 야근 때문에 점심 2시로 미뤘어", "점심"),
        ("노트북 새 걸로 바꿨어", "노트북"),
        ("통신사 알뜰폰으로 갈아탐", "통신사"),
        ("최애 갈아탐 이제 뉴진스", "최애"),
        ("I hardly drink soda anymore", "soda"),
        ("넷플릭스 해지했어 볼 게 없어서", "넷플릭스"),
    ],
)
def test_what_a_change_moved_or_cancelled_is_named(text, word):
    assert word in given_up(text).named


@pytest.mark.parametrize(
    "text",
    ["갤럭시로 또 갈아탐", "부장님 그만두셔서 요즘 일이 많아", "새 노트북 샀어"],
)
def test_a_new_answer_alone_or_someone_elses_leaving_names_no_old_answer(text):
    assert given_up(text).named == ()


def test_a_workout_names_the_gym_it_is_done_at():
    assert names_old_answer("Gym at 7am on weekdays", "workouts")
    assert names_old_answer("헬스 주 3회 다님", "workout")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second", "gone"),
    [
        ("팀 회의 매주 수요일 11시", "팀 회의 목요일 오후 3시로 옮겨졌어", "수요일"),
        ("점심은 보통 11시 반에 먹어", "요즘 일이 많아서 점심 1시로 미뤘어", "11시"),
        ("요즘 최애 배우 박보검", "최애 갈아탔어 요즘은 변우석", "박보검"),
        ("집 인터넷 SK 써", "인터넷 KT로 갈아탐", "SK"),
        (
            "Texting is the easiest way to reach me",
            "I rarely check texts anymore, email me",
            "Texting",
        ),
    ],
)
def test_a_change_said_of_the_thing_moved_or_given_up_replaces_its_memory(
    user, say, first, second, gone
):
    say(first, at=EARLIER)
    assert any(gone in content for content in _live(user)), _live(user)

    say(second, at=LATER)

    assert not any(gone in content for content in _live(user)), _live(user)


@pytest.mark.django_db
def test_a_choice_of_one_thing_over_another_is_kept_beside_another_clause(user, say):
    say("답례품은 떡 말고 수건으로 하기로 했어 양가 부모님도 동의함", at=LATER)

    assert any("수건" in content for content in _live(user)), _live(user)


# A rate or price set anew names the rate, in either language; the time it holds from and
# its unit ("이번 달부터", "단어당") are no name of it.
@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I've raised my rate to 150 won per word as of this month.", "rate"),
        ("lowered my prices to 9000 won", "prices"),
        ("번역 단가를 이번 달부터 단어당 150원으로 인상했습니다", "단가"),
        ("이번주부터 과외비 시간당 4만원으로 올렸음", "과외비"),
        ("레슨비 5만원으로 내림ㅎㅎ", "레슨비"),
    ],
)
def test_a_rate_raised_or_lowered_names_the_rate(text, word):
    assert word in given_up(text).named


@pytest.mark.parametrize("text", ["사진 올렸어", "인스타에 글 올림", "raised a good point"])
def test_posting_or_raising_a_point_names_no_rate(text):
    assert given_up(text).named == ()


# "X 말고" and ", not X" name X as the answer no longer wanted, last in the sentence too.
@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("이제 코드 예시는 TypeScript로 줘 Python 말고", "python"),
        ("예시코드 자바스크립트로 해줘 파이썬말고!", "파이썬"),
        ("From now on give examples in Go, not Python", "python"),
        ("답변은 이제 영어로 해주세요 한국어 말고요", "한국어"),
    ],
)
def test_the_answer_set_aside_last_in_a_request_is_named(text, word):
    assert word in given_up(text).named


@pytest.mark.parametrize("text", ["파이썬 말고도 자바 배워", "I'm a nurse, not a doctor"])
def test_besides_x_or_a_contrast_without_a_change_names_nothing(text):
    assert given_up(text).named == ()


# A thing moved or switched, told without "...로": what was moved is named, with the child it
# belongs to; a supplier changed names the supply and the supplier question.
@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("둘째 어린이집 옮겼어요 이제 숲속어린이집", "둘째 어린이집"),
        ("첫째 학원 영어학원으로 옮겼어", "첫째 학원"),
        ("야채 거래처 바꿨어요 이제 초록농산에서 받아요", "야채"),
        ("쌀 거래처를 바꿨습니다. 이젠 새한미곡", "거래처"),
        ("번호 바꿨어요 이제 010-5580-1362", "번호"),
    ],
)
def test_a_thing_moved_without_its_new_value_before_the_verb_is_named(text, word):
    assert word in given_up(text).named


def test_a_childs_thing_moved_does_not_name_the_child_alone():
    named = given_up("둘째 어린이집 옮겼어요 이제 숲속어린이집").named
    assert "둘째" not in named
    assert "어린이집" not in named


# In a change, the old answer no longer held or got rid of is named.
@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("저 이번에 infra 팀으로 옮겼어요 payments 팀은 이제 아님", "payments 팀"),
        ("Trados는 정리하였고 이제 memoQ로 전환하였습니다", "trados"),
        ("카드단말기는 처분했고 이제 토스 단말기 씀", "카드단말기"),
        ("간호사 이제 아님 요즘 보험 심사 일해", "간호사"),
    ],
)
def test_the_old_answer_no_longer_held_in_a_change_is_named(text, word):
    assert word in given_up(text).named


@pytest.mark.parametrize("text", ["방은 정리했어", "서랍을 정리하고 잤어", "그건 아님"])
def test_tidying_up_or_a_plain_no_outside_a_change_names_nothing(text):
    assert given_up(text).named == ()
