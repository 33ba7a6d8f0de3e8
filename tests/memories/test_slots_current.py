"""Same-question replacement on the categories the held-out pairs missed (issue 14 line 3):
idioms of 살다/live, stray words in keys, words of change, current things and routine, and
one occupation question. Each sentence written for this file."""

from __future__ import annotations

import pytest

from memories.logic.slots import normalise_slot, question_of, valid


@pytest.mark.parametrize(
    "text",
    [
        "떡볶이 없으면 못 살아",
        "에어컨 틀어 놓으니까 이제 살 것 같아",
        "주말만 보고 살맛 나요",
        "음악 없이는 살 수 없어",
        "I can't live without my headphones",
        "I live for Friday nights",
        "Trying to live in the moment",
        "I practically live at the climbing gym",
        "시험 기간엔 거의 독서실에서 살아요",
        "사무실에서 살다시피 해요",
    ],
)
def test_an_idiom_of_living_answers_no_residence_question(text):
    assert question_of(text) != "residence"


def test_an_idiom_of_living_never_replaces_where_the_user_lives():
    assert question_of("대전에 살아요") == "residence"
    assert question_of("지금 완전 시골에서 살아") == "residence"
    assert question_of("I live in Leeds") == "residence"
    assert question_of("라떼 없으면 진짜 못 살아") != question_of("대전에 살아요")
    assert question_of("I couldn't live without coffee") != question_of("I live in Leeds")


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My favourite fruit these days is mango", "favourite:fruit"),
        ("My favorite fruit is peaches now", "favourite:fruit"),
        ("Nowadays my favourite colour is teal", "favourite:color"),
        ("요즘 최애 음식은 마라탕이야", "favourite:음식"),
        ("이제 제일 좋아하는 색은 초록색이야", "favourite:color"),
    ],
)
def test_a_word_of_when_never_enters_the_slot_key(text, slot):
    found = question_of(text)

    assert found.startswith("favourite:")
    assert not any(word in found for word in ("now", "these", "day", "요즘", "이제"))
    assert normalise_slot(found) == normalise_slot(slot) or found == slot


# The second statement says the change in words of change; it answers the first's question.
CHANGES = [
    ("I'm an accountant", "I left the firm and I'm doing freelance bookkeeping now"),
    ("I teach chemistry at a high school", "I quit teaching last spring"),
    ("저는 은행원이에요", "은행 그만두고 요즘 빵집 해요"),
    ("출판사에서 편집자로 일해요", "출판사 때려치고 번역 일 해요"),
    ("I drive a Kia Sorento", "Sold the Kia, got a Tesla Model 3"),
    ("아반떼 타고 다녀요", "차 바꿨어요, 이제 그랜저 타요"),
    ("I use a Galaxy S23", "Switched to an iPhone last month"),
    ("아이폰 써요", "갤럭시로 갈아탔어"),
    ("Call me Seo-yeon", "Actually go with Yeon instead"),
    ("그냥 민수라고 불러줘", "Call me Minsoo instead"),
    ("Answer in Korean", "Changed my mind, write in English"),
    ("Favourite genre is rock", "Rock dropped to second, jazz is my #1 now"),
    ("답변은 한국어로 해줘", "Switch to English for everything"),
    ("I live in Incheon", "Moved to Sejong so the commute is easier"),
]


@pytest.mark.parametrize(("before", "after"), CHANGES)
def test_a_change_said_in_words_of_change_answers_the_same_question(before, after):
    assert question_of(before) == question_of(after) != ""


# One current answer: the car, the phone, the time zone, when one wakes and sleeps, the
# exercise one does, how many of one kind of pet, how one commutes.
CURRENT_THINGS = [
    ("I drive a Honda Civic", "이제 볼보 타고 다녀", "car"),
    ("My phone is a Pixel 8", "요즘 아이폰 15 써요", "phone"),
    ("My timezone is UTC+9", "I'm on Central time now", "timezone"),
    ("I wake up at 6:30 on weekdays", "요즘은 8시에 일어나요", "wake_time"),
    ("I go to bed around 11pm", "보통 새벽 2시에 잠들어요", "bed_time"),
    ("I have one dog", "강아지가 두 마리 됐어요", "pets:dog"),
    ("고양이 한 마리 키워요", "We adopted a second cat", "pets:cat"),
    ("I commute by subway", "버스로 출근해요", "commute"),
]


@pytest.mark.parametrize(("before", "after", "slot"), CURRENT_THINGS)
def test_a_thing_the_user_has_one_of_at_a_time_has_its_slot(before, after, slot):
    assert question_of(before) == slot
    assert question_of(after) == slot
    assert valid(slot)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("I like cats", "I like dogs"),
        ("I have a dog", "I have a cat"),
        ("강아지 키워요", "고양이 키워요"),
        ("I love swimming", "I love running"),
        ("I drive a Hyundai", "I use a Galaxy phone"),
        ("I wake up at 6", "I go to bed at 11"),
        ("I swim every morning", "I commute by bike"),
        ("I live in Daegu", "I drive a Kia"),
        ("I like swimming", "I swim every morning"),
    ],
)
def test_two_things_that_can_both_be_true_stay_apart(a, b):
    slot_a, slot_b = question_of(a), question_of(b)

    # exercise has no slot (two routines are both true), so a routine may answer none
    assert not (slot_a and slot_a == slot_b)
    assert slot_a or slot_b


@pytest.mark.parametrize(
    ("title", "place"),
    [
        ("I'm a nurse", "I work at Severance Hospital"),
        ("대학원생이에요", "서강대 다녀요"),
        ("고등학교 국어 교사예요", "I work at a school in Mapo"),
    ],
)
def test_a_job_title_and_a_workplace_or_school_both_true_stay_apart(title, place):
    # Both can be true at once, so neither replaces the other. The price: a move between a
    # job title and a workplace ("대학원생이에요" then "졸업하고 연구소 다녀요") leaves both.
    assert question_of(title) != question_of(place)


def test_a_models_slot_names_are_normalised_but_a_workplace_stays_its_own_question():
    assert normalise_slot("workplace") == "workplace"
    assert normalise_slot("school") == "school"
    assert normalise_slot("pets:dogs") == "pets:dog"


def test_a_major_and_a_way_of_working_stay_their_own_questions():
    assert question_of("전공은 경영학이야") == "major"
    assert question_of("I work from home") == "work_mode"
    assert question_of("I'm a nurse") != question_of("I work from home")


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I work as a data analyst", "I left analytics, I'm doing sales now"),
        ("세무사로 일하고 있어요", "세무사무소 그만두고 요즘 글쓰기 강의 해요"),
    ],
)
def test_leaving_one_line_of_work_or_study_for_another_replaces_it(before, after):
    assert question_of(before) == question_of(after) == "job"


@pytest.mark.parametrize(
    "text",
    ["I quit smoking, doing much better now", "술 그만두고 차 마셔요", "My cat has a cold"],
)
def test_giving_up_a_habit_or_a_pets_news_is_no_job_or_pet_count(text):
    assert question_of(text) not in ("job", "pets:cat")


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("My time zone is KST", "Moved to Lisbon, so I'm on GMT now"),
        ("지하철로 출근해요", "수원으로 이사해서 이제 버스로 출근해요"),
        ("I live in Jeonju", "Moved to Gimhae so my rent is lower"),
    ],
)
def test_a_move_told_with_its_consequence_answers_the_consequences_question(before, after):
    assert question_of(before) == question_of(after) != ""


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("답변은 표로 정리해줘", "줄글이 읽기 편해요"),
        ("Answer in Korean", "앞으로 영어로만 얘기하자"),
        ("영어로 답해줘", "Let's keep chatting in Korean"),
    ],
)
def test_a_way_of_answering_said_as_reading_or_talking_is_about_the_answers(before, after):
    assert question_of(before) == question_of(after) != ""


def test_reading_is_one_subject_in_korean_and_english():
    assert question_of("책 읽기 좋아해") == question_of("I like reading books")


@pytest.mark.parametrize(
    "text",
    [
        "I'm thinking of getting an electric car",
        "I had to get up at 3 today for the airport",
        "오늘 새벽 4시에 일어났어",
        "My sister drives a Volvo",
        "엄마가 갤럭시 써요",
        "The standup is at 9am",
    ],
)
def test_a_plan_a_moment_or_someone_elses_thing_is_no_current_answer(text):
    assert question_of(text) not in ("car", "phone", "wake_time", "bed_time", "timezone")


@pytest.mark.parametrize(
    "text",
    ["여행 다니는 맛에 살아요", "I live and breathe basketball", "Starting today I cycle to work"],
)
def test_a_routine_that_begins_today_is_kept_and_a_way_of_living_is_no_home(text):
    assert question_of(text) != "residence"
    if "today" in text:
        assert question_of(text) == "commute"


def test_two_exercise_routines_both_true_never_replace_each_other():
    # each exercise has its own answer of when (s13-nat): a new day for cycling replaces the
    # old day for cycling, never the day of running
    assert question_of("주말마다 자전거 타요") == "prefers:cycling:time"
    assert question_of("I run on weekends") != question_of("I swim on Wednesdays") or (
        question_of("I run on weekends") == ""
    )


@pytest.mark.parametrize(
    "text",
    ["I also run on wednesday mornings", "수요일 저녁에도 러닝은 해", "I run on fridays too"],
)
def test_one_more_day_of_the_same_exercise_replaces_no_day(text):
    assert question_of(text) == ""


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I drive an old Ford Focus", "Traded the Ford for a Mazda"),
        ("I'm an iPhone person", "Got a Galaxy Fold last week"),
        ("I'm up by 7 most days", "요즘은 6시 반에 일어나요"),
        ("I'm a doctoral student", "Defended my dissertation, now a postdoc in Daejeon"),
        ("I'm on a Galaxy", "Ditched Android for an iPhone"),
        ("I go to bed at 11:30", "I'm in bed by 10 lately"),
    ],
)
def test_more_ways_of_saying_the_current_answer_share_its_slot(before, after):
    assert question_of(before) == question_of(after) != ""


def test_a_tablet_or_a_watch_is_not_the_phone_one_uses():
    assert question_of("폰은 아이폰 써요") == "phone"
    assert question_of("태블릿은 갤럭시탭 써요") != "phone"
    assert question_of("I use an iPad for drawing") != "phone"


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("픽셀로 갈아탐 배터리 좋네", "phone"),
        ("아이폰으로 넘어왔어", "phone"),
        ("시간은 뉴욕 기준으로 알려줘", "timezone"),
    ],
)
def test_a_switch_of_phone_and_a_city_named_as_the_clock_answer_their_questions(text, slot):
    assert question_of(text) == slot


# --- categories of blind set 10 (session 11), in sentences written for these tests --------


@pytest.mark.parametrize(
    ("a", "b", "slot"),
    [
        ("My phone's an old iPhone 11", "got a Galaxy S24 last week", "phone"),
        ("출근 8시까지예요", "유연근무 돼서 이제 10시 출근해요", "work_start"),
        ("I start work at 7", "shift starts at 9 now", "work_start"),
        ("출근할 때 2호선 타", "요즘은 출근할 때 버스 타요", "commute"),
    ],
)
def test_the_phone_work_start_and_commute_said_in_chat_share_their_slot(a, b, slot):
    assert question_of(a) == question_of(b) == slot


def test_when_one_starts_work_and_how_one_gets_there_stay_apart():
    assert question_of("출근 9시까지") != question_of("출근은 버스로 해")


# Set 14 categories (issue 14 line 3), each sentence written for this file.
SHIFT_CHANGES = [
    ("I work the day shift", "Moved to the night shift this month"),
    ("Moved to the night shift this month", "I work the day shift"),
    ("I'm on the evening shift at the warehouse", "Back on early shifts since March"),
    ("나이트 고정 근무해요", "이번달부터 데이 고정으로 바뀌었어요"),
    ("데이 고정으로 바뀌었어요", "저 나이트 근무해요"),
    ("3교대 근무함", "요즘은 야간 전담이에요"),
]


@pytest.mark.parametrize(("before", "after"), SHIFT_CHANGES)
def test_a_changed_work_shift_answers_the_shift_question(before, after):
    assert question_of(before) == question_of(after) == "work_shift"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("I work the day shift", "I'm a nurse"),
        ("야간 근무해요", "간호사예요"),
        ("I work the night shift", "I love night shifts"),
        ("데이 근무해요", "아침 7시에 일어나요"),
    ],
)
def test_a_shift_and_a_job_or_a_liking_stay_apart(a, b):
    assert question_of(a) != question_of(b)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I use a Pixel 7", "Switched to a Galaxy S23 yesterday"),
        ("Switched to a Galaxy S23 yesterday", "I use a Pixel 7"),
        ("Phone is an old Galaxy", "Upgraded to a Pixel 9 this morning"),
        ("휴대폰은 갤럭시 써요", "오늘 아이폰 15로 넘어옴"),
        ("아이폰 15로 넘어옴", "휴대폰은 갤럭시 써요"),
    ],
)
def test_a_new_phone_told_with_the_day_it_came_replaces_the_old_one(before, after):
    assert question_of(before) == question_of(after) == "phone"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("My time zone is Central", "I'm on Pacific time now since I moved to Seattle"),
        ("I'm on Pacific time now since I moved to Seattle", "My time zone is Central"),
        ("My time zone is Eastern", "In Lisbon for the next two years, so I'm on WET now"),
        ("시간대는 한국 시간이에요", "Living in Madrid this year, so I'm on CEST now"),
    ],
)
def test_a_time_zone_said_beside_its_reason_answers_the_time_zone_question(before, after):
    assert question_of(before) == question_of(after) == "timezone"


@pytest.mark.parametrize(
    "text",
    [
        "I'm moving to Tokyo next year, so I'll be on JST",
        "Next year I'll be on JST",
        "Thinking of switching to a Pixel next month",
    ],
)
def test_a_time_zone_or_phone_still_to_come_is_no_current_answer(text):
    assert question_of(text) not in ("timezone", "phone")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Recently I like cold brew a lot", "I like cold brew"),
        ("Nowadays I hate cilantro", "I hate cilantro"),
    ],
)
def test_lately_recently_and_nowadays_never_enter_the_key(a, b):
    assert question_of(a) == question_of(b)


# A district named right before 살다 with no particle, in plain speech or 경상도/전라도 dialect,
# answers where the user lives; buying something ("우동 산다") does not.
@pytest.mark.parametrize(
    "text",
    [
        "내 해운대 우동 산다",
        "나 대구 수성구 산데이",
        "저 창원 상남동 살아예",
        "분당 정자동 삼ㅋㅋ",
        "요즘 광안리 민락동 사는 중",
    ],
)
def test_a_district_before_living_in_dialect_is_where_the_user_lives(text):
    assert question_of(text) == "residence"


@pytest.mark.parametrize(
    "text", ["우동 산다", "마트에서 우유 산다", "편의점 가서 우동 삼", "이마트에서 우동 산다"]
)
def test_buying_food_is_no_residence(text):
    assert question_of(text) != "residence"


def test_a_dialect_move_and_a_district_answer_the_same_question():
    assert question_of("아이고 이사했데이 이제 기장 일광에 산다") == question_of("해운대 우동 삼")


# Moving flats or house is a move; "I'm in Jung-gu now" after it says where.
@pytest.mark.parametrize(
    "text",
    [
        "Moved flats this weekend, I'm in Jung-gu now, right by Dongseongno.",
        "moved house last month, in Mapo now",
        "Just moved apartments, living near Seomyeon",
    ],
)
def test_moving_flats_or_house_answers_where_the_user_lives(text):
    assert question_of(text) == "residence"


# What a relative bought or got is theirs: it never answers the user's car or phone.
@pytest.mark.parametrize(
    "text",
    [
        "grandma just bought a Hyundai Avante",
        "Dad recently got a Tesla Model 3",
        "my sister just bought a Sonata",
        "할머니가 아반떼 사셨어",
        "아빠가 이번에 그랜저 샀어",
    ],
)
def test_a_relatives_purchase_is_not_the_users_car(text):
    assert question_of(text) != "car"


@pytest.mark.parametrize(
    "text", ["I just bought a Hyundai Avante", "Just bought a Kia Ray", "we drive a Kia Carnival"]
)
def test_the_users_own_purchase_is_still_their_car(text):
    assert question_of(text) == "car"


def test_a_phone_swapped_by_work_is_the_users_phone():
    assert question_of("work swapped my phone, it's a Galaxy S24 now") == "phone"
    assert question_of("we swapped seats") == ""


def test_from_now_on_names_no_hometown():
    assert question_of("From now on give examples in Go, not Python") != "hometown"
    assert question_of("from Busan") == "hometown"


# A note of "call me X" written in the third person names the user's name, as "call me" does.
@pytest.mark.parametrize(
    "text",
    ["Call them Dee, they hate Deborah", "call them Jay from now on", "Actually call them Min."],
)
def test_a_third_person_note_of_what_to_call_the_user_is_their_name(text):
    assert question_of(text) == question_of("Call me Deborah") == "name"


@pytest.mark.parametrize(
    "text", ["Call them tomorrow", "call them back", "Call them Monday", "call them when you can"]
)
def test_calling_people_back_is_no_name(text):
    assert question_of(text) != "name"
