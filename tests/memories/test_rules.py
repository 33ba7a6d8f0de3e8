"""Offline extraction rules, slots and paraphrase checks (issue 5 lines 4-5): pure."""

from __future__ import annotations

import pytest

from memories.logic import rules, statements
from memories.logic.extraction_schema import ExtractedItem
from memories.logic.rules import adds_nothing, extract_statements, fingerprint, slot_of


def _one(text: str) -> ExtractedItem:
    items = extract_statements(text)
    assert len(items) == 1, items
    return items[0]


@pytest.mark.parametrize(
    ("text", "type", "slot"),
    [
        ("내 생일은 5월 3일이야, 기억해줘", "fact", "birthday"),
        ("기억해 둬: 나는 채식주의자야", "preference", "diet"),  # diets shape suggestions
        ("나는 커피를 좋아해", "preference", "likes:coffee"),
        ("나는 고양이를 싫어해", "preference", "likes:cat"),
        ("나는 오이를 안 좋아해", "preference", "likes:cucumber"),
        ("앞으로 답변은 짧게 해줘", "procedure", "answer_length"),
        ("앞으로는 영어로 대답해 줘", "procedure", "answer_language"),
        ("내 이름은 민지야", "fact", "name"),
        ("나 서울 강남에 살아", "fact", "residence"),
        ("나 부산으로 이사했어", "fact", "residence"),
        ("나는 백엔드 개발자야", "fact", "job"),
        ("Next.js로 마이그레이션하기로 결정했어", "decision", ""),
        ("I prefer short answers", "preference", "answer_length"),
        ("I like spicy food", "preference", "likes:food spicy"),  # words sorted: order-free
        ("I hate cilantro", "preference", "likes:cilantro"),
        ("Remember that my server runs on port 8080", "fact", ""),
        ("From now on, answer in English", "procedure", "answer_language"),
        ("My name is Minji.", "fact", "name"),
        ("I live in Boston", "fact", "residence"),
        ("I moved to Denver last month.", "fact", "residence"),
        ("I work as a data engineer", "fact", "job"),
        ("We decided to use PostgreSQL for analytics.", "decision", ""),
    ],
)
def test_explicit_statements_become_memories_with_their_slot(text, type, slot):
    item = _one(text)

    assert item.type == type
    assert item.slot == slot
    assert item.stated_by_user


def test_the_remember_request_itself_is_not_part_of_the_memory():
    # The note is the clean statement (issue 14 line 2), without the request or the pronoun.
    assert _one("내 생일은 5월 3일이야, 기억해줘").content == "생일은 5월 3일임"
    assert _one("Remember that my server runs on port 8080").content == "Server runs on port 8080"


@pytest.mark.parametrize(
    "text",
    [
        "내 이름이 뭐야?",
        "Do I like coffee?",
        "오늘 점심 뭐 먹지",
        "지금부터 회의 시작할게",
        "I'd like a coffee",
        "날씨 좋다",
        "where do I live",
        "안녕하세요",
    ],
)
def test_questions_and_small_talk_are_not_statements(text):
    assert extract_statements(text) == []


def test_several_statements_in_one_message_are_each_found():
    items = extract_statements("내 이름은 민지야. 나 서울 강남에 살아. 나는 커피를 좋아해.")

    assert [i.slot for i in items] == ["name", "residence", "likes:coffee"]


def test_a_like_and_a_dislike_of_the_same_thing_fill_the_same_slot():
    assert _one("나는 고양이를 좋아해").slot == _one("나는 고양이를 싫어해").slot


def test_slot_of_recognises_a_typed_in_memory():
    assert slot_of("나 부산에 살아") == "residence"
    assert slot_of("프로젝트 마감은 금요일") == ""


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("나는 커피를 좋아해", "나 커피 진짜 좋아함"),
        ("나는 커피를 좋아해", "커피 좋아해"),
        ("I prefer short answers", "I like my answers short"),
        ("I live in Boston", "I'm living in Boston"),
        ("앞으로 답변은 짧게 해줘", "답변은 짧게 해 줘"),
    ],
)
def test_a_paraphrase_adds_nothing(a, b):
    assert adds_nothing(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("나는 커피를 좋아해", "나는 차를 좋아해"),
        ("나는 고양이를 좋아해", "나는 고양이를 싫어해"),
        ("I like coffee", "I like tea"),
        ("앞으로 답변은 짧게 해줘", "앞으로 답변은 길게 해줘"),
        ("my server runs on port 8080", "my server runs on port 9090"),
    ],
)
def test_a_different_value_is_not_a_paraphrase(a, b):
    assert not adds_nothing(a, b)


def test_fingerprints_ignore_case_punctuation_and_spacing():
    assert fingerprint("I like Tea!") == fingerprint("i like  tea")
    assert fingerprint("I like tea") != fingerprint("I like coffee")


@pytest.mark.parametrize(
    ("note", "statement"),
    [
        ("사용자는 커피를 좋아한다.", "나는 커피 안 좋아해."),
        ("The user likes jazz.", "I don't like jazz."),
        ("사용자는 개보다 고양이를 좋아한다.", "나는 고양이보다 개를 좋아해."),
        ("The user prefers evening meetings.", "I prefer morning meetings."),
        ("The user lives in Busan.", "I live in Seoul."),
    ],
)
def test_the_assistants_third_person_note_fills_the_users_own_slot(note, statement):
    assert slot_of(note) == slot_of(statement) != ""


def test_a_comparison_turned_around_is_not_a_paraphrase():
    assert not adds_nothing("나는 고양이보다 개를 좋아해.", "사용자는 개보다 고양이를 좋아한다.")
    assert not adds_nothing("I prefer tea to coffee", "The user prefers coffee to tea")
    assert adds_nothing("I like dogs more than cats", "I really like dogs more than cats")


def test_different_things_liked_keep_their_own_slots():
    assert slot_of("I like jazz.") != slot_of("I like blues.")
    assert slot_of("I prefer short answers") != slot_of("I prefer morning meetings")


# --- standing requests about answers (issue 13 line 4) ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "나한테는 반말로 해도 돼",
        "요약할 땐 세 줄을 넘기지 마",
        "예시는 가능하면 자바스크립트로 들어줘",
        "금액 말할 때는 원화로 환산해서 같이 알려주세요",
        "부모님 얘기는 먼저 꺼내지 말아줘",
        "제 건강 정보는 저장하지 마세요",
        "Use the 24-hour clock.",
        "When you suggest books, keep it to three.",
        "Please don't use exclamation marks.",
        "I'd like answers without filler phrases.",
        "Never save anything about my kids.",
    ],
)
def test_a_standing_request_about_answers_becomes_a_procedure(text):
    item = _one(text)

    assert item.type == "procedure"
    assert item.stated_by_user


@pytest.mark.parametrize(
    "text",
    [
        "이거 세 줄로 요약해줘",
        "이 문장 영어로 번역해줘",
        "세계 2차 대전 짧게 요약해줘",
        "Write a haiku about the sea.",
        "Convert 30 miles to kilometres.",
        "Translate this into Korean.",
        "Give me a short summary of the French revolution.",
    ],
)
def test_a_one_off_request_is_not_a_memory(text):
    assert extract_statements(text) == []


@pytest.mark.parametrize(
    ("text", "type"),
    [
        ("Remind me to book the dentist next month.", "episode"),
        ("Remind me every Monday to send the timesheet.", "procedure"),
        ("금요일에 택배 찾으라고 알려줘", "episode"),
        ("매일 아침 스트레칭하라고 알려줘", "procedure"),
    ],
)
def test_a_reminder_is_an_episode_or_a_recurring_procedure(text, type):
    assert _one(text).type == type


@pytest.mark.parametrize(
    ("text", "name"),
    [("나 서연이라고 불러줘 ㅎㅎ", "서연"), ("Call me Jo, not Joanna.", "Jo")],
)
def test_a_name_to_be_called_by_fills_the_name_slot(text, name):
    item = _one(text)

    assert item.slot == "name"
    assert name in item.content


@pytest.mark.parametrize(
    "text",
    [
        "to do: call the plumber, renew passport, buy 우유",
        "오늘 할 일: 세탁소, 은행, 택배 보내기",
        "shopping list: oat milk, eggs, 두부",
    ],
)
def test_a_list_of_tasks_is_no_statement_about_the_user(text):
    assert extract_statements(text) == []


@pytest.mark.parametrize(
    "text", ["다음 앱은 Flutter로 만들기로 했어", "decided to stop the gym and run outside instead"]
)
def test_a_decision_said_as_one_passes_the_capture_gate(text):
    assert extract_statements(text, statements_allowed=False)


@pytest.mark.parametrize(
    "text",
    [
        # the words and marks answers are written with, often with the reason run on after
        "외래어 너무 많이 섞지 말아줘 어머니가 읽으셔",
        "전문 용어 쓰지 말아주세요 제가 초보라서요",
        "느낌표 같은 기호는 쓰지 마 부담스러워",
        "줄임말 많이 쓰지 말아줘 무슨 뜻인지 몰라서",
        "♥ ♪ 같은 기호는 화면에서 깨지니까 빼주세요",
        # units named by their symbols or as a kind of measure
        "Give grill temps in both ℃ and ℉, my thermometer shows both.",
        "Baking temps in °F please, my oven only shows Fahrenheit.",
        "Use kg, not lbs, when you talk about weight.",
        # commands shown for the user to run, one to a line
        "Show each terminal command I should run on a separate line.",
    ],
)
def test_a_preference_about_words_marks_units_or_lines_is_a_procedure(text):
    # the reason beside it may be kept as a fact of its own ("초보라서요")
    assert any(item.type == "procedure" for item in extract_statements(text)), text


@pytest.mark.parametrize(
    "text", ["그 기호 빼줘", "이 기호는 빼줘", "Convert 350 °F to Celsius.", "What is 20 ℃ in °F?"]
)
def test_the_same_words_about_something_at_hand_are_no_memory(text):
    assert extract_statements(text) == []


# --- categories of blind set 10 (session 11), in sentences written for these tests --------


@pytest.mark.parametrize(
    "text",
    [
        "이거 왜 에러 나? for i in range(n) total += i",
        "why is this slow? for i in items: print(i)",
        "이거 왜 무한루프야? while i < 10: i += 1",
    ],
)
def test_pasted_code_is_material_not_a_statement(text):
    assert extract_statements(text) == []


def test_a_short_cry_after_an_exclamation_is_part_of_it():
    assert extract_statements("헐 방금 만루홈런 나옴ㅋㅋ 박수쳐") == []


def test_news_of_ones_own_after_an_exclamation_is_still_kept():
    items = extract_statements("헐 대박. 나 합격함")

    assert any("합격" in item.content for item in items), items


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("남편 생일 3월 9일 잊으면 큰일 나 기억해줘", "3월 9일"),
        ("our anniversary is June 2, if you forget I'm toast, remember that", "June 2"),
    ],
)
def test_a_request_to_remember_with_what_forgetting_costs_keeps_the_fact(text, word):
    items = extract_statements(text)

    assert [word in item.content for item in items] == [True], items
    assert not any("잊으면" in item.content or "toast" in item.content for item in items)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("anything with raisins is a hard no. just saying, for future recipes", "raisins"),
        ("for future reference, my sister is allergic to shellfish", "shellfish"),
    ],
)
def test_a_note_for_later_tasks_is_kept_as_a_request_to_remember(text, word):
    items = extract_statements(text)

    assert any(word in item.content for item in items), items


def test_for_future_without_a_pause_is_no_request_to_remember():
    assert statements.remember_cue("I'm saving money for future trips")[1] is False


@pytest.mark.parametrize(
    ("text", "word", "slot"),
    [
        ("Favorite band? Radiohead, always.", "Radiohead", "favourite:band"),
        ("최애 간식? 붕어빵", "붕어빵", ""),
    ],
)
def test_a_question_the_speaker_answers_at_once_is_one_statement(text, word, slot):
    items = extract_statements(text)

    assert [(word in item.content) for item in items] == [True], items
    if slot:
        assert items[0].slot == slot


def test_a_question_answered_with_nothing_about_oneself_gives_nothing():
    assert extract_statements("Weekend plans? Nothing much.") == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [("그냥 핵심만 두 줄로 줘", "answer_length"), ("예시 코드엔 타입 힌트 꼭 넣어줘", "")],
)
def test_a_correction_of_the_length_or_a_part_of_answers_is_a_standing_request(text, slot):
    items = extract_statements(text)

    assert [(item.type, item.slot) for item in items] == [("procedure", slot)], items


def test_a_constraint_of_ones_own_that_mentions_replies_is_no_request():
    items = extract_statements("아이 하원이 4시라 그 시간엔 답장 못 해요")

    assert [item.type for item in items] == ["fact"], items


@pytest.mark.parametrize("text", ["남편 차는 아반떼야", "my son's school is Hillcrest"])
def test_a_thing_of_the_speakers_people_passes_the_capture_gate(text):
    items = extract_statements(text, statements_allowed=False)

    assert len(items) == 1, items


@pytest.mark.parametrize("text", ["통신사 알뜰폰으로 갈아탐", "I hardly drink soda anymore"])
def test_a_change_that_names_what_changed_passes_the_capture_gate(text):
    assert extract_statements(text, statements_allowed=False) != []


@pytest.mark.parametrize(
    "text",
    [
        # the kind of thing the answers hold, as the topic ("엔" is "에는" run together)
        "러스트 코드엔 에러 처리 꼭 넣어줘",
        "SQL 쿼리엔 별칭 꼭 붙여줘",
        "요리 레시피엔 칼로리도 같이 적어줘",
        "Go code: always include error checks, please.",
        "In Python snippets, always add docstrings.",
        "For SQL queries, always alias the tables.",
    ],
)
def test_a_request_about_a_kind_of_answer_named_as_its_topic_is_a_standing_request(text):
    items = extract_statements(text)

    assert [item.type for item in items] == ["procedure"], items


@pytest.mark.parametrize("text", ["이 코드엔 타입 힌트 넣어줘", "저녁엔 운동해요"])
def test_a_thing_at_hand_or_ones_own_habit_marked_with_en_is_no_standing_request(text):
    assert all(item.type != "procedure" for item in extract_statements(text))


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Concise replies in numbered lists, please", ["answer_length", "answer_format"]),
        ("앞으로 간단하게, 표로 답해줘", ["answer_length", "answer_format"]),
        ("반말로 간단하게 말해줘", ["answer_formality", "answer_length"]),
    ],
)
def test_a_compound_request_about_answers_becomes_one_memory_per_question(text, slots):
    items = rules.extract_statements(text)

    assert [item.slot for item in items] == slots


def test_a_request_asking_one_question_stays_whole():
    (item,) = rules.extract_statements("Numbered lists please")

    assert item.content == "Numbered lists please"


@pytest.mark.parametrize(
    "text",
    [
        "귀가 잘 안 들리니 대답은 크게 쓴 글씨처럼 짧게 해주시오",
        "허리가 아파서 운동 설명은 앉아서 하는 것만 알려줘",
        "노안이 와서 답변은 세 줄 이내로 해줘",
    ],
)
def test_a_standing_request_after_a_reason_said_first_becomes_a_procedure(text):
    items = extract_statements(text)

    assert [item.type for item in items] == ["procedure"], items


def test_a_one_off_request_after_a_reason_stays_a_one_off():
    items = extract_statements("오늘 피곤하니까 짧게 답해줘")

    assert all(item.type != "procedure" for item in items)


# --- set 13 categories (s13-nat): sentences new, written for these tests ---------------------


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("목록으로 정리해서 보여줘", "answer_format"),
        ("번호 매겨서 목록으로 써줘", "answer_format"),
        ("불릿으로 답해줘", "answer_format"),
    ],
)
def test_a_request_naming_only_the_layout_of_answers_is_kept(text, slot):
    assert [(i.type, i.slot) for i in extract_statements(text)] == [("procedure", slot)]


@pytest.mark.parametrize(
    "text", ["이 데이터 표로 정리해줘", "다시 목록으로 보여줘", "회의록을 표로 정리해줘"]
)
def test_laying_out_one_thing_now_is_no_standing_request(text):
    assert extract_statements(text) == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("switch to celsius please, I live in Berlin now", "units"),
        ("Please keep it short, I'm reading on my phone", "answer_length"),
        ("I'm in Lisbon for a few months, so use Lisbon time", "timezone"),
    ],
)
def test_a_request_beside_its_reason_answers_what_it_asks(text, slot):
    assert [(i.type, i.slot) for i in extract_statements(text)] == [("procedure", slot)]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("집은 일산이야", "residence"),
        ("Meetings shouldn't go over 30 minutes", "prefers:meeting:size"),
        ("calls should end by 5pm", "prefers:call:time"),
    ],
)
def test_a_home_named_by_its_place_and_a_limit_on_ones_things_are_kept(text, slot):
    assert [i.slot for i in extract_statements(text)] == [slot]


def test_a_korean_request_for_the_clock_of_answers_after_its_reason_is_kept():
    items = extract_statements("도쿄 출장 중이라 일본 시간으로 알려줘")
    assert [(i.type, i.slot) for i in items] == [("procedure", "timezone")]


def test_the_time_of_one_thing_at_hand_is_no_standing_request():
    assert extract_statements("이 회의 시간 한국 시간 기준으로 알려줘") == []


# A standing adjustment for one kind of answer, its topic named by a few words and the manner
# said with "-아서/-어서" ("적게 잡아서", "반으로 줄여서"): a request kept, not a reason.
@pytest.mark.parametrize(
    "text",
    [
        "짠 국물 요리 레시피는 간장 양 절반으로 줄여서 알려줘",
        "아이 먹을 반찬 레시피는 맵지 않게 만들어서 알려줘",
        "다이어트 도시락 메뉴는 칼로리 낮게 잡아서 추천해줘",
        "나 혈압 높아서 찌개 레시피는 소금 적게 넣는 걸로 알려줘",
    ],
)
def test_a_request_about_a_kind_of_answer_named_in_a_few_words_is_a_procedure(text):
    assert [item.type for item in extract_statements(text)] == ["procedure"], text


@pytest.mark.parametrize("text", ["재밌는 얘기 해줘", "좋은 책 골라줘", "맛있는 거 추천해줘"])
def test_a_modifier_is_no_topic_of_a_standing_request(text):
    assert extract_statements(text) == [], text


# Set 14 categories (issue 14 line 3): each sentence written for this file.
def _slots_of(text: str) -> list[str]:
    return [item.slot for item in extract_statements(text)]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("다시 생각해보니 반말이 편하겠어요. 반말로 해주세요", "answer_formality"),
        ("곰곰이 보니 표가 더 보기 편하네요. 표로 정리해주세요", "answer_format"),
        ("생각해보니 존댓말이 낫겠네요. 존댓말로 말해주세요", "answer_formality"),
    ],
)
def test_a_request_after_a_change_of_mind_is_kept(text, slot):
    assert slot in _slots_of(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("아 너무 짧다 좀 길게 써줘", "answer_length"),
        ("너무 길어. 그냥 간단하게 해줘", "answer_length"),
        ("너무 딱딱해요. 편하게 말해주세요", "answer_formality"),
    ],
)
def test_a_complaint_about_the_answers_then_a_manner_asked_is_a_standing_request(text, slot):
    assert slot in _slots_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "이 글 너무 길다 짧게 줄여줘",
        "오늘 너무 피곤하다. 좀 쉬게 해줘",
        "너무 어려운 문제야 풀어줘",
    ],
)
def test_a_complaint_about_one_thing_at_hand_is_no_standing_request(text):
    assert not any(item.type == "procedure" for item in extract_statements(text))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Actually switch to Celsius, I've gotten used to it over here.", "units"),
        ("Switch to kilometers please, I've lived in Europe long enough.", "units"),
        ("Actually switch to Fahrenheit, I moved back to Texas.", "units"),
    ],
)
def test_a_request_then_its_reason_is_the_request(text, slot):
    assert _slots_of(text) == [slot]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Upgraded to a Pixel 9 this morning.", "phone"),
        ("오늘 아이폰으로 바꿨어", "phone"),
        ("I'm doing paleo right now.", "diet"),
        ("I'm on a low-carb diet right now.", "diet"),
        ("Quit vegan, I'm doing paleo these days.", "diet"),
    ],
)
def test_a_current_thing_told_with_when_it_began_is_kept_with_its_slot(text, slot):
    assert _slots_of(text) == [slot]


@pytest.mark.parametrize(
    "text", ["I'm so tired right now.", "My phone is dead right now.", "I'm on my phone right now."]
)
def test_a_passing_moment_with_a_thing_is_still_no_memory(text):
    assert extract_statements(text) == []


@pytest.mark.parametrize(
    "text", ["점심엔 산책해", "저녁엔 요가 다녀", "주말에는 등산 가요", "퇴근 후엔 기타 연습해"]
)
def test_a_routine_told_by_its_part_of_the_day_passes_the_gate(text):
    assert extract_statements(text, statements_allowed=False)


@pytest.mark.parametrize("text", ["오늘 아침엔 늦잠 잤어", "아침엔 좀 추웠어", "밤엔 뭐 하지?"])
def test_one_morning_or_a_question_about_the_evening_is_no_routine(text):
    assert extract_statements(text, statements_allowed=False) == []


def test_two_routines_of_different_parts_of_the_day_never_replace_each_other():
    morning = extract_statements("아침엔 수영 다녀", statements_allowed=False)
    evening = extract_statements("저녁엔 영어 학원 가", statements_allowed=False)
    assert morning and evening
    assert not (morning[0].slot and morning[0].slot == evening[0].slot)


@pytest.mark.parametrize(
    "text",
    [
        "나 이번에 컴공 새내기 됨 ㅋㅋ",
        "와이프가 이번에 디자이너로 카카오 들어갔어요",
        "남편 이번에 토스 입사함",
        "My husband just joined Toss as a PM",
        "딸이 올해 한빛초 입학했어요",
    ],
)
def test_joining_a_school_or_a_workplace_is_kept_past_the_gate(text):
    assert extract_statements(text, statements_allowed=False)


@pytest.mark.parametrize(
    "text", ["친구가 카카오 들어갔대", "방금 집에 들어감", "just got home lol"]
)
def test_someone_elses_news_or_coming_home_is_still_vetoed(text):
    assert extract_statements(text, statements_allowed=False) == []
