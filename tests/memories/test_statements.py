"""The offline statement analyser: clauses read by grammar, clean notes; no database.

Every sentence here was written for these tests.
"""

from datetime import date

import pytest

from memories.logic import rules, statements

# A Tuesday.
TODAY = date(2026, 12, 1)


def _notes(text: str) -> list[str]:
    return [item.content for item in rules.extract_statements(text, today=TODAY)]


def _clause(text: str) -> statements.Clause:
    found = statements.analyse(text, today=TODAY)
    assert len(found) == 1, found
    return found[0].clause


# --- what is memorable ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("나는 대구 수성구에 살아", "수성구"),
        ("요즘 주말마다 배드민턴 쳐", "배드민턴"),
        ("저희 아들이 우유 알레르기가 있어요", "우유"),
        ("우리 강아지 이름은 콩떡이야", "콩떡"),
        ("작년에 회사를 그만두고 카페를 차렸어", "카페"),
        ("저 다음 달부터 야간 근무해요", "야간"),
        ("운전은 못 해요", "운전"),
        ("I teach piano to kids on weekends.", "piano"),
        ("My daughter plays violin in the school orchestra.", "violin"),
        ("I've been learning Japanese for two years.", "Japanese"),
        ("We keep bees in the garden.", "bees"),
        ("im lactose intolerant btw", "lactose"),
    ],
)
def test_a_statement_about_oneself_or_ones_own_people_is_memorable(text, word):
    assert any(word in note for note in _notes(text))


@pytest.mark.parametrize(
    "text",
    [
        # questions, with and without a question mark
        "주말에 어디 갈까",
        "이 코드 왜 안 돌아가니",
        "점심 먹었나요",
        "How long does rice take to cook?",
        # hypotheticals
        "만약 내가 복권 당첨되면 바로 은퇴할 거야",
        "내가 새였으면 날아다녔겠지",
        "If I were taller I'd play basketball.",
        # quotations and other people's news
        "친구가 그러는데 그 영화 재밌대",
        "팀장님이 내일 휴가래",
        "옆집 아저씨가 차를 바꿨대",
        "My roommate says the landlord is selling.",
        "My friend's brother just moved to Chile.",
        # trivia
        "Venus spins the other way round.",
        "펭귄은 무릎이 있대",
        # passing states
        "아 너무 피곤하다",
        "지금 너무 추워",
        "I'm so bored right now.",
        # tasks for the assistant
        "이 글 세 줄로 요약해줘",
        "회의록 초안 좀 써 줄래?",
        "Can you check my grammar here?",
        "Translate this sentence into Japanese.",
        # asides and retractions
        "나 고양이 안 키워 그냥 궁금해서",
        "Just kidding, I never went skydiving.",
        # about the assistant
        "너 오늘 대답 진짜 빠르다",
    ],
)
def test_questions_hypotheticals_quotes_states_tasks_and_asides_are_not_memorable(text):
    assert _notes(text) == []


def test_a_negated_fact_given_as_the_reason_for_a_task_is_not_remembered():
    assert _notes("저 운동 안 해요, 친구 선물 고르는 데 필요해서요") == []
    assert _notes("I'm not a runner, I just need a gift idea for one.") == []


def test_a_negated_fact_on_its_own_is_remembered():
    assert _notes("나는 술을 안 마셔") == ["술을 안 마심"]
    assert _notes("I don't eat pork.") == ["Doesn't eat pork"]


# --- clause reading ---------------------------------------------------------------------


def test_an_omitted_korean_subject_is_the_speaker():
    assert _clause("매일 아침 스트레칭해").subject == "speaker"


def test_a_family_member_is_the_speakers_circle_and_a_friend_is_someone_else():
    assert _clause("남편이 요리를 잘해").subject == "circle"
    assert _clause("친구가 요리를 잘해").subject == "other"


@pytest.mark.parametrize(
    ("text", "tense"),
    [
        ("부산으로 이사했어", "past"),
        ("부산에 살아", "present"),
        ("부산으로 이사할 거야", "future"),
        ("부산으로 이사하기로 했어", "plan"),
        ("부산으로 이사하려고", "plan"),
        ("부산으로 이사 갈 예정이야", "plan"),
    ],
)
def test_the_korean_tense_comes_from_the_endings(text, tense):
    assert _clause(text).tense == tense


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        ("밥 먹었니", "question"),
        ("내일 와?", "question"),
        ("같이 갈까", "question"),
        ("부자라면 좋겠다", "hypothetical"),
        ("그 가게 문 닫았대", "quotation"),
        ("이 표 정리해 줘", "request"),
    ],
)
def test_the_korean_sentence_type_comes_from_the_endings(text, mood):
    assert _clause(text).mood == mood


def test_negation_is_read_but_does_not_by_itself_reject():
    clause = _clause("회를 못 먹어")

    assert clause.negated
    assert statements.analyse("회를 못 먹어", today=TODAY)[0].memorable


# --- clean notes ------------------------------------------------------------------------


def test_a_korean_statement_becomes_a_nominalised_note_without_the_pronoun():
    assert _notes("나는 광주에 살아") == ["광주에 삶"]
    assert _notes("나 대전으로 이사했어") == ["대전으로 이사함"]
    assert _notes("저는 아침마다 달리기를 해요") == ["아침마다 달리기를 함"]


def test_an_english_statement_becomes_a_subject_less_third_person_note():
    assert _notes("I live in Incheon.") == ["Lives in Incheon"]
    assert _notes("I'm a nurse.") == ["Is a nurse"]
    assert _notes("I have two cats.") == ["Has two cats"]
    assert _notes("I fix my own bike.") == ["Fixes their own bike"]


def test_a_compound_statement_becomes_one_note_per_fact():
    assert _notes("나는 울산에 살고 주말마다 낚시를 해") == ["울산에 삶", "주말마다 낚시를 함"]
    assert _notes("I live in Busan and work at a shipyard.") == [
        "Lives in Busan",
        "Works at a shipyard",
    ]


def test_a_short_clause_of_the_speaker_before_and_is_a_fact_of_its_own():
    assert _notes("I'm diabetic and I teach piano to kids.") == [
        "Is diabetic",
        "Teaches piano to kids",
    ]
    assert _notes("My brother and I share a flat in Leeds.") == [
        "Shares a flat in Leeds, with their brother"
    ]


def test_a_plan_covering_two_verbs_stays_one_note():
    assert _notes("차 팔고 자전거 타기로 했어") == ["차 팔고 자전거 타기로 함"]


def test_words_keep_their_spelling_in_the_note():
    assert _notes("집에 건조기 새로 들였어") == ["집에 건조기 새로 들임"]


def test_a_plan_carries_its_absolute_date_and_becomes_an_episode():
    (item,) = rules.extract_statements("다음 주 수요일에 제주 출장 가기로 했어", today=TODAY)

    assert item.type == "episode"
    assert item.happens_on == date(2026, 12, 9)
    assert item.content.startswith("2026-12-09(수)에 제주 출장")


def test_an_english_plan_carries_its_absolute_date():
    (item,) = rules.extract_statements("Next Tuesday I fly to Osaka.", today=TODAY)

    assert item.type == "episode"
    assert item.happens_on == date(2026, 12, 8)
    assert item.content == "Flies to Osaka on 2026-12-08 (Tue)"


def test_a_birthday_or_a_habit_keeps_its_date_as_said():
    assert _notes("아내 생일은 4월 2일이야") == ["아내 생일은 4월 2일임"]
    (item,) = rules.extract_statements("매주 금요일에 수영 가", today=TODAY)
    assert item.happens_on is None and item.type == "procedure"


def test_a_habit_is_a_procedure_and_a_like_a_preference():
    (habit,) = rules.extract_statements("I walk the dog every evening.", today=TODAY)
    (like,) = rules.extract_statements("I love spicy ramen.", today=TODAY)

    assert habit.type == "procedure"
    assert like.type == "preference"


# --- requests to remember ---------------------------------------------------------------


def test_a_request_to_remember_after_a_statement_makes_it_memorable_and_is_left_out():
    assert _notes("토요일마다 도서관 봉사해. 기억해줘.") == ["토요일마다 도서관 봉사함"]
    assert _notes("My locker is number 42 — remember that") == ["Locker is number 42"]
    assert _notes("잊지 마: 분리수거는 수요일") == ["분리수거는 수요일"]


def test_a_request_to_remember_alone_is_no_memory():
    assert _notes("기억해줘") == []
    assert _notes("remember that") == []


# --- standing requests stay as they were -------------------------------------------------


def test_answer_style_requests_are_still_procedures_kept_as_said():
    (korean,) = rules.extract_statements("앞으로 존댓말로 대답해줘", today=TODAY)
    (english,) = rules.extract_statements("Use bullet points in your answers.", today=TODAY)

    assert (korean.type, korean.content) == ("procedure", "앞으로 존댓말로 대답해줘")
    assert (english.type, english.content) == ("procedure", "Use bullet points in your answers.")


def test_slots_are_kept_so_a_move_still_corrects_the_residence():
    (lives,) = rules.extract_statements("나는 수원에 살아", today=TODAY)
    (moved,) = rules.extract_statements("I moved to Ulsan.", today=TODAY)

    assert lives.slot == "residence" and moved.slot == "residence"


def test_a_redaction_marker_is_never_rebuilt_into_a_note():
    (item,) = rules.extract_statements("내 PIN은 [redacted: pin]이야", today=TODAY)

    # passed on whole, for the write policy to refuse; never a note without the marker
    assert "[redacted: pin]" in item.content


# --- chat that leaves the subject out, and what is somebody else's ------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("moving to Porto in february for a new role", "Porto"),
        ("training for a half marathon in the spring", "half marathon"),
        ("sold my motorbike last weekend", "motorbike"),
        ("decided to drop the evening classes and focus on work", "evening classes"),
        ("been a vegetarian for nine years", "vegetarian"),
        ("can't stand olives, never could", "olives"),
        ("hate crowded trains", "crowded trains"),
        ("physio next tuesday at 4", "physio"),
    ],
)
def test_a_clause_without_its_subject_is_the_speakers_statement(text, word):
    assert any(word.lower() in note.lower() for note in _notes(text)), _notes(text)


def test_a_bare_present_becomes_a_third_person_note():
    assert _notes("hate crowded trains") == ["Hates crowded trains"]


def test_a_households_we_is_cleaned_into_a_note_without_we():
    assert _notes("we adopted a three-legged cat called Biscuit") == [
        "Adopted a three-legged cat called Biscuit"
    ]
    assert _notes("we're renovating the kitchen in march") == ["Renovating the kitchen in march"]


@pytest.mark.parametrize(
    "text",
    [
        "summarize this thread for me",
        "translate my cover letter into german",
        "loved your last suggestion",
        "got it",
        "working on it",
        "just knocked my water glass over",
        "my buddy tom claims he never sleeps",
        "my manager thinks standups are pointless",
        "I wonder if the shop is open on sundays",
        "we were so tired",
    ],
)
def test_requests_turns_of_phrase_mishaps_and_other_peoples_news_give_nothing(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "사촌이 내년에 미국으로 유학 간대",
        "우리 부서 막내가 다음 달에 이사한대",
        "건너편 부장님 요즘 골프에 푹 빠지심",
        "그 배우 진짜 착한 사람 같음",
        "이번 시즌은 우승 못 할 듯",
        "영어 공부 좀 해야 되는데",
        "제주도 가서 살고 싶다",
        "오늘 유난히 춥네",
        "지금 너무 배고파서 집중이 안 돼",
        "요즘 기름값 진짜 미쳤다",
    ],
)
def test_hearsay_other_people_impressions_wishes_and_passing_states_give_nothing(text):
    assert _notes(text) == []


def test_a_short_remark_after_a_passing_state_is_not_a_fact():
    assert _notes("나 지금 카페 안이야. 콘센트 없음") == []


def test_a_one_word_reaction_is_not_a_fact():
    assert _notes("동생이 유럽 여행 간대. 부러움") == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("아빠 다음 주 목요일에 검진 받으셔서 그날 병원 같이 가야 돼", "검진"),
        ("기르는 앵무새 초롱이가 벌써 7살이야", "초롱이"),
        ("다음 주가 발표라 주말엔 못 놀 듯", "발표"),
        ("회사가 멀어서 약속 잡으면 늘 늦게 도착함", "회사"),
        ("담배 끊은 지 오늘로 30일째", "30일째"),
    ],
)
def test_the_speakers_family_things_and_reasons_are_still_kept(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


def test_a_preface_is_dropped_from_the_korean_note():
    notes = _notes("참고로 나 복숭아 알레르기 있어")

    assert notes == ["복숭아 알레르기 있음"]
    assert _notes("혹시 몰라서 말해두는데 나 견과류 못 먹어") == ["견과류 못 먹음"]


def test_a_remember_cue_with_jom_still_keeps_the_statement():
    assert any("창가석" in note for note in _notes("기차는 창가석만 타. 이거 기억 좀 해줘"))


@pytest.mark.parametrize(
    "text",
    [
        "queueing for coffee",
        "heading home early",
        "ate way too much pizza",
        "요즘 다들 코인 하더라",
    ],
)
def test_what_one_is_doing_as_one_types_and_what_everybody_does_give_nothing(text):
    assert _notes(text) == []


def test_an_activity_with_a_season_or_a_course_is_kept():
    assert _notes("swimming the lake crossing in august") == [
        "Swimming the lake crossing in august"
    ]


def test_a_verb_of_going_after_go_is_one_clause_not_two():
    notes = _notes("금요일마다 할머니 모시고 가야 해서 그날은 일찍 퇴근해")

    assert len(notes) == 1 and "할머니" in notes[0] and "퇴근" in notes[0], notes


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("다음 주 금요일에 광주로 출장 가기로 했어", date(2026, 12, 11)),
        ("모레 제주로 여행 가기로 했어", date(2026, 12, 3)),
        ("다음 주 월요일에 전주로 워크숍 가", date(2026, 12, 7)),
    ],
)
def test_a_place_ending_in_ju_before_ro_is_not_the_habit_word_juro(text, day):
    (statement,) = [s for s in statements.analyse(text, today=date(2026, 12, 1)) if s.memorable]
    assert statement.happens_on == day
    assert statement.type == "episode"


# --- clauses with their own mood (background "-는데", reason "-어서") ----------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        # a lasting background before a passing complaint
        ("역삼역 근처 오피스텔 사는데 옆집 공사 소리때문에 돌겠음", "역삼역"),
        ("허리 디스크 수술을 받은 적 있어서 오래 앉아 있으면 좀 아파요", "디스크"),
        # reported words open the sentence; what the speaker does about it is theirs
        ("고지혈증이래서 요즘 튀김 대신 샐러드 먹어요", "샐러드"),
        # a hedge ("웬만하면", "가능하면") and an "otherwise" are no supposition
        ("토요일 아침 수영은 웬만하면 거르지 않고 가요", "수영"),
        ("가능하면 점심은 도시락 싸서 다녀요", "도시락"),
        ("집에 오자마자 샤워부터 함 안그러면 소파에서 잠들어버림", "샤워"),
        # "-겠-" of inability or feeling is how one is, not a guess
        ("달리기는 무릎 때문에 못하겠고 자전거가 제일 재밌음", "자전거"),
        # an interjection before news the speaker announces
        ("아 나 다음 주에 대전으로 발령남", "대전"),
        ("오 저 드디어 운전면허 땄어요!!!", "운전면허"),
    ],
)
def test_a_lasting_clause_is_kept_beside_a_passing_or_reported_one(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    "text",
    [
        # what follows a passing background or reason happens in the same moment
        "지금 버스 안인데 자리가 하나도 없음",
        "오늘 너무 배고파서 아무것도 못 하겠어",
        # someone else's news, named by a title with "-님"
        "옆팀 부장님 마라톤에 빠지셔서 요즘 맨날 그 얘기만 하심",
        # a cry at a mishap, opened by an interjection, names neither the speaker nor a day
        "아 노트북에 물 쏟았다",
    ],
)
def test_a_passing_or_someone_elses_clause_gives_nothing(text):
    assert _notes(text) == []


def test_a_superlative_taste_is_a_preference_not_a_passing_mood():
    items = rules.extract_statements("운동 중엔 요가가 가장 재밌어", today=TODAY)

    assert [item.type for item in items] == ["preference"]


@pytest.mark.parametrize(
    "text",
    [
        # venting: the day's troubles, told to be heard
        "오늘 지하철 두 번 갈아타고 점심도 굶고 야근까지 함 그냥 하소연이야",
        "missed the train, spilled my tea, lost my badge. just venting",
        # someone else's opinion of the speaker
        "my brother thinks i should sell my car",
        "My mom believes I work too much.",
        # a feeling whose subject is left out, or tied to the room one is in
        "so sleepy during this lecture",
        "hungry and stuck in this queue",
        # the manner of a task, said after it
        "아빠 생신 카드 문구 좀 써줘 너무 길지 않게",
        # the speaker's own wish, not a request
        "바닷가에 작은 작업실 하나 있으면 좋겠다",
        # a task on a thing at hand, with a remark about it
        "fix my essay pls, the intro never lands",
        # a passing state and what one means to do about it right now
        "너무 춥다 보일러 켜야지",
    ],
)
def test_venting_opinions_wishes_tasks_and_passing_intentions_give_nothing(text):
    assert _notes(text) == []


def test_a_resolution_with_a_habit_word_is_still_kept():
    assert any("스트레칭" in note for note in _notes("앞으로 매일 아침 스트레칭 해야지"))


# --- chat shapes: laughter as a full stop, afterthoughts, dropped subjects ---------------


def test_laughter_or_crying_in_jamo_ends_a_sentence():
    notes = _notes("나 다음 주에 광주로 출장감ㅋㅋ 회사에서 갑자기 보냄")

    assert any("광주" in note for note in notes), notes


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("언니랑 같이 살아요 부산 해운대", "해운대"),
        ("저녁은 6시 전에만 먹어요 저탄고지 중", "저탄고지"),
    ],
)
def test_a_bare_phrase_after_a_statement_completes_it(text, word):
    notes = _notes(text)

    assert len(notes) == 1 and word in notes[0], notes


def test_a_bare_phrase_alone_is_still_nothing():
    assert _notes("부산 해운대") == []


def test_a_remember_cue_with_only_its_reason_keeps_the_rest_of_the_message():
    notes = _notes("부모님 결혼기념일 4월 9일! 잊으면 안 되니까 꼭 기억해줘")

    assert any("4월 9일" in note for note in notes), notes


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("quit smoking today. going cold turkey starting tomorrow", "smoking"),
        ("doing a half marathon next sunday, not ready at all", "marathon"),
        ("vegetarian 5 years as of this spring", "vegetarian"),
        ("in bed by 10 every night so I can swim at 6", "swim"),
        ("heading to my grandma's farm this weekend for her birthday", "farm"),
        # an apostrophe is no quote mark
        ("fyi my cat's name is Mochi, she's a 3yo ragdoll", "Mochi"),
    ],
)
def test_english_chat_with_the_subject_left_out_is_the_speakers(text, word):
    assert any(word.lower() in note.lower() for note in _notes(text)), _notes(text)


def test_an_ambiguous_stem_before_a_background_ending_is_kept_as_written():
    # "사는데" is 살다 or 사다: never rewritten as "삼" (bought)
    assert "혼자 삼" not in _notes("혼자 사는데 고양이 두 마리 키워요")


def test_a_contraction_of_i_becomes_the_matching_third_person():
    notes = _notes("moved to Lisbon so I'm on WET now")

    assert notes and "they'm" not in notes[0] and "they're" in notes[0], notes


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # leave given to the assistant about the manner of answers
        ("you can speak casually with me from now on", "answer_formality"),
        ("you can drop the polite stuff, just talk to me normally", "answer_formality"),
        # the language of every answer
        ("answer in Korean please", "answer_language"),
        # "앞으론" is "앞으로는"
        ("앞으론 두 줄 이내로 짧게 대답해줘", "answer_length"),
    ],
)
def test_standing_requests_in_more_shapes_are_kept_with_their_slot(text, slot):
    items = rules.extract_statements(text, today=TODAY)

    assert [item.slot for item in items] == [slot], items


def test_one_translation_into_a_language_is_a_task_not_a_standing_request():
    assert _notes("translate 'we have a dog' into German") == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("fav band is Radiohead, always has been", "Radiohead"),
        ("new favourite snack: dried mango", "mango"),
    ],
)
def test_a_property_named_without_my_is_the_speakers(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    "text",
    ["allergic to shellfish fyi", "lactose intolerant btw", "type 2 diabetic here", "vegan lol"],
)
def test_a_lasting_condition_named_without_im_is_the_speakers(text):
    (item,) = rules.extract_statements(text)

    assert item.content.lower().startswith(text.split()[0].lower())


def test_a_routine_in_two_korean_words_is_not_a_fragment():
    assert _notes("목요일마다 수영") == ["목요일마다 수영"]


def test_have_opens_a_question_only_before_its_subject():
    assert _notes("Have you ever been to Jeju?") == []


def test_a_message_marked_as_sarcasm_gives_no_memory_even_where_a_rule_reads_one():
    assert rules.extract_statements("i just adore 7am meetings /s") == []
    assert rules.extract_statements("I love doing taxes (not)") == []
    assert rules.extract_statements("got engaged today, best day ever")


def test_an_adverb_after_a_finished_korean_statement_adds_to_it_and_asks_nothing():
    (item,) = rules.extract_statements("나 갑각류 알레르기 있어 엄청 심하게")
    assert "갑각류" in item.content


def test_an_abbreviation_does_not_end_a_sentence():
    assert rules.split_sentences("I work at St. Luke's as a porter.") == [
        "I work at St. Luke's as a porter."
    ]


def test_a_measure_of_the_speaker_and_its_value_is_a_statement():
    assert [i.slot for i in rules.extract_statements("몸무게 58키로")] == ["weight"]


@pytest.mark.parametrize(
    "text",
    [
        "답변 좀 간단하게 해줘",
        "그냥 짧게 대답해줘",
        "switch to korean for answers",
        "ok, keep replies brief",
    ],
)
def test_the_manner_of_answers_is_a_lasting_request(text):
    assert rules.standing_request(text), text


def test_explaining_a_topic_simply_is_a_task_not_a_lasting_request():
    assert not rules.standing_request("양자역학 쉽게 설명해줘")


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("화분에 물은 사흘에 한 번 아침에 줍니다", "화분"),
        ("지난달 세종으로 발령받아 이사했습니다 공기가 좋네요", "세종"),
    ],
)
def test_formal_statements_are_read_as_said_not_as_requests_or_run_on(text, word):
    items = rules.extract_statements(text)

    assert any(word in item.content for item in items), items


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("have three kids and a very loud parrot", "parrot"),
        ("going with the standing desk, not the chair upgrade", "standing desk"),
        ("not renewing the netflix plan, switching to the library", "netflix"),
        ("using the red notebook only for recipes now", "notebook"),
    ],
)
def test_english_choices_and_possessions_said_without_i_are_kept(text, word):
    items = rules.extract_statements(text)

    assert any(word in item.content for item in items), items


@pytest.mark.parametrize(
    "text",
    ["have a great weekend!", "have you tried the new ramen place", "waiting for the train"],
)
def test_a_well_wish_a_question_or_what_one_is_doing_now_is_not_kept(text):
    assert rules.extract_statements(text) == []


@pytest.mark.parametrize("text", ["손님이 줄어든 게 날씨 탓인가", "요즘 내가 좀 예민한가"])
def test_a_korean_wondering_ending_asks_and_states_nothing(text):
    assert rules.extract_statements(text) == []


@pytest.mark.parametrize("text", ["the cache is stale i think", "the meeting got moved i guess"])
def test_a_guess_about_a_thing_with_a_trailing_i_think_is_not_the_users_fact(text):
    assert rules.extract_statements(text) == []


def test_a_cry_for_help_after_news_leaves_the_news_a_statement():
    items = rules.extract_statements("다음 달 3일 워크숍 발표 내가 맡음 ㅠㅠ 살려줘")

    assert any("워크숍" in item.content for item in items), items


@pytest.mark.parametrize(
    ("text", "word"),
    [("오늘 운전면허 필기 합격했어!!", "운전면허"), ("오늘 드디어 전역했다 ㅋㅋ", "전역")],
)
def test_a_life_event_that_happened_today_is_kept(text, word):
    items = rules.extract_statements(text)

    assert any(word in item.content for item in items), items


def test_a_passing_thing_that_happened_today_is_not_kept():
    assert rules.extract_statements("오늘 지하철 놓쳤어 ㅠ") == []


# --- categories of blind set 10 (session 11), in sentences written for these tests --------


@pytest.mark.parametrize(
    "text",
    [
        "발 저려서 못 일어나겠음",
        "눈 따가워서 화면을 못 보겠어",
        "목 뻐근해서 고개를 못 돌림",
        "귀가 너무 간지러워",
    ],
)
def test_a_passing_sensation_of_the_body_and_what_it_causes_is_not_kept(text):
    assert _notes(text) == []


def test_a_sensation_the_body_always_answers_with_is_kept():
    assert any("땅콩" in note for note in _notes("땅콩 알러지라 조금만 먹어도 가려움"))


@pytest.mark.parametrize(
    "text",
    [
        "오늘은 진짜 아무것도 하기 싫다",
        "출근하기 싫음",
        "don't feel like doing anything tonight",
        "can't be bothered to cook",
    ],
)
def test_not_wanting_to_do_something_now_is_a_mood_not_a_fact(text):
    assert _notes(text) == []


def test_not_liking_to_do_something_given_as_a_reason_is_kept():
    assert any("부탁" in note for note in _notes("남한테 부탁하기 싫어서 웬만한 건 혼자 해요"))


@pytest.mark.parametrize(
    "text",
    ["노트북 배터리 10% 남음", "와이파이 또 끊김", "phone's at 2% brb", "wifi keeps dropping ugh"],
)
def test_what_a_device_is_doing_is_a_passing_state(text):
    assert _notes(text) == []


@pytest.mark.parametrize("text", ["수업 또 길어짐", "비행기 또 늦어짐", "갑자기 추워짐"])
def test_something_turning_as_one_speaks_is_passing(text):
    assert _notes(text) == []


@pytest.mark.parametrize("text", ["우리 부장 또 골프 치러 감", "회사 대표 어제 또 TV 나옴"])
def test_someone_at_work_named_without_a_particle_does_their_own_thing(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("치과 갔는데 의사가 사랑니 빼야 한대", "치과"),
        ("감기약 먹는 중이라 술은 당분간 안 된대", "감기약"),
        ("피검사 했는데 빈혈이래요", "빈혈"),
    ],
)
def test_what_the_speaker_did_before_a_report_is_kept_and_a_finding_about_them_too(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


def test_what_someone_else_told_the_speaker_to_do_stays_theirs():
    notes = _notes("치과 갔는데 의사가 사랑니 빼야 한대")

    assert not any("사랑니" in note for note in notes), notes


def test_a_report_with_nothing_the_speaker_did_before_it_stays_hearsay():
    assert _notes("친구가 이사했는데 집이 엄청 넓대") == []


@pytest.mark.parametrize(("text", "word"), [("오이 극혐", "오이"), ("평양냉면 극호", "평양냉면")])
def test_a_taste_in_one_slang_word_is_a_preference(text, word):
    items = rules.extract_statements(text, today=TODAY)

    assert [(item.type, word in item.content) for item in items] == [("preference", True)]


def test_a_cry_of_the_best_in_two_words_is_still_no_statement():
    assert _notes("퇴근 최고") == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("올해 목표 정보보안기사", "정보보안기사"),
        ("기타 독학 중", "기타"),
        ("요즘 육아휴직 중", "육아휴직"),
    ],
)
def test_an_aim_or_something_under_way_for_weeks_is_a_statement_without_a_verb(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


def test_an_activity_of_the_moment_said_with_jung_is_not_kept():
    assert _notes("지금 회의 중") == []


def test_a_name_ending_in_i_keeps_its_last_syllable():
    assert _notes("우리 고양이 이름 몽실이") == ["고양이 이름 몽실이"]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("장모님이 꽃집 하셔서 명절엔 가게 일 도와드려", "꽃집"),
        ("외삼촌이 제주에서 귤 농사 지으셔", "귤"),
    ],
)
def test_in_laws_and_relatives_are_the_speakers_own_people(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "word"), [("저 지금 과장이에요", "과장"), ("지금 3년차 간호사", "간호사")]
)
def test_a_standing_at_work_said_with_now_lasts(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize("text", ["읽어보니 좀 어렵네", "보니까 너무 길다"])
def test_a_judgement_of_the_text_at_hand_is_not_about_the_speaker(text):
    assert _notes(text) == []


def test_the_best_of_a_kind_hedged_is_a_taste_and_what_follows_it_its_own_clause():
    notes = _notes("떡볶이는 엽떡이 최고인듯 일주일에 한 번은 먹음")

    assert len(notes) == 2, notes
    assert "엽떡" in notes[0]


@pytest.mark.parametrize(
    ("text", "word"),
    [("요즘 피아노 선생님한테 재즈 배워요", "재즈"), ("좋아하는 가수는 성시경", "성시경")],
)
def test_a_person_the_speaker_learns_from_or_likes_is_not_the_subject(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Root canal appointment is next Friday at 3", "Root canal"),
        ("orientation starts on the 14th", "orientation"),
    ],
)
def test_an_appointment_named_before_its_day_is_the_speakers_plan(text, word):
    items = rules.extract_statements(text, today=TODAY)

    assert [item.type for item in items if word.lower() in item.content.lower()] == ["episode"], (
        items
    )


def test_a_public_event_with_its_day_is_not_the_speakers():
    assert _notes("The election is on Tuesday") == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Sundays are for family now", "Sundays"),
        ("Bedtime is 10:30 on weeknights", "Bedtime"),
        ("Budget for the trip is 2k max", "Budget"),
    ],
)
def test_the_speakers_week_and_own_things_named_without_my_are_kept(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Currently reading a Murakami novel", "Murakami"),
        ("First week at the new clinic, exhausted but happy", "clinic"),
        ("first day at Stripe today!", "Stripe"),
    ],
)
def test_something_under_way_or_a_first_day_at_a_new_place_is_kept(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("Huge news: we bought a house in Leeds", "Bought a house in Leeds"),
        ("Quick update - I started a new job at Monzo", "Started a new job at Monzo"),
        ("Funny story, I adopted a parrot named Kiwi", "Adopted a parrot named Kiwi"),
        ("ngl I play the bassoon", "Plays the bassoon"),
        ("Last year, we moved to Leeds", "Moved to Leeds last year"),
        ("Coldplay is my favorite band", "Coldplay is their favorite band"),
        ("Random but I knit my own socks", "Knits their own socks"),
        ("TL;DR I moved to Cardiff", "Moved to Cardiff"),
        ("Our choir sings at the cathedral", "Their choir sings at the cathedral"),
        ("My brother and I run a bakery", "Runs a bakery, with their brother"),
        (
            "My fiance and I are getting married in June",
            "Is getting married in June, with their fiance",
        ),
    ],
)
def test_an_english_note_drops_the_words_that_announce_it_and_speaks_in_the_third_person(
    text, note
):
    notes = [s.content for s in statements.analyse(text) if s.memorable]

    assert notes == [note]


def test_a_name_before_the_speakers_words_is_the_subject_not_an_opener():
    (statement,) = statements.analyse("Marta, my landlady, fixes the boiler every winter.")

    assert statement.content.startswith("Marta, their landlady")


@pytest.mark.parametrize(
    "text",
    [
        "나 화남",  # a feeling said as a noun and its verb
        "퇴근함",  # an act named by its verbal noun alone, as one types
        "나 샤워함",
        "차도 바꿈",  # a change without what it became
        "나 통신사 옮김",
        "나 광주야",  # a place without what it is to the speaker
        "대전임",
        "대박이야",  # a reaction in a word
    ],
)
def test_momentary_states_bare_places_and_changes_without_their_value_are_not_memorable(text):
    assert not any(s.memorable for s in statements.analyse(text))


@pytest.mark.parametrize(
    "text",
    ["토스로 회사 옮김", "다음 달에 회사 옮김", "나 이직함", "매일 아침 퇴근하고 수영함"],
)
def test_a_change_with_its_value_a_day_or_a_life_event_stays_memorable(text):
    assert any(s.memorable for s in statements.analyse(text))


# --- set 13 categories (s13-nat): every sentence new, written for these tests -------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        # a body that answers the same way each time, told with "-면"
        ("새우 먹으면 입술이 부어요", "새우"),
        ("고양이 만지면 재채기 나 알레르기 있어", "고양이"),
        ("배 타면 멀미 나서 섬 여행은 안 가", "멀미"),
        # a routine after "-하면", said with "무조건" or "맨날"
        ("출근하면 무조건 커피 한잔부터 마셔", "커피"),
        ("집에 오면 맨날 고양이 밥부터 챙기고 씻어", "고양이"),
        # a choice of one thing only, after a reason that is a feeling
        ("무릎이 안 좋아서 계단 대신 엘리베이터만 타요", "엘리베이터"),
        ("허리가 아파서 의자는 메쉬 의자만 써요", "메쉬"),
        # an interjection before the news, and the days of a weekly class run together
        ("아 참 나 요즘 복싱 다님 화목 저녁반", "복싱"),
        ("아 그리고 저 요즘 수영 다녀요 월수금 아침", "수영"),
    ],
)
def test_korean_conditions_routines_and_choices_with_their_reason_are_kept(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    "text",
    [
        "로또 1등 되면 회사 그만둠",  # a condition never said to hold
        "그 케이크 먹으면 살찔거야",  # a consequence foretold
        "이거 마시면 배 아프겠지",
        "지금 졸려서 커피만 마셔",  # "only" in a moment named
        "피곤해서 오늘은 택시만 타",
        "와 오늘 날씨 미쳤다",
        "심심한데 웃긴 얘기 좀 해줘",  # a story asked for now
        "맛있는 저녁 메뉴 추천해줘",
        "좋은 책 하나 골라줘",
    ],
)
def test_guesses_moments_and_requests_for_something_now_give_no_memory(text):
    assert _notes(text) == []


def test_a_topic_request_about_answers_is_still_a_standing_request():
    assert _notes("설명은 쉽게 해줘") == ["설명은 쉽게 해줘"]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I'm more of a night owl person honestly", "night owl"),
        ("I'm a dog person tbh, cats scare me", "dog person"),
        ("we're more of a board game family", "board game"),
    ],
)
def test_being_more_of_a_kind_of_person_is_a_lasting_preference(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("vet on the 3rd at 9am, poor dog", date(2026, 12, 3)),
        ("dentist on the 14th at 10:30, finally getting it sorted", date(2026, 12, 14)),
        ("haircut on march 8", date(2027, 3, 8)),
    ],
)
def test_a_bare_appointment_with_a_day_of_the_month_is_an_episode(text, day):
    items = rules.extract_statements(text, today=TODAY)
    assert [(i.type, i.happens_on) for i in items] == [("episode", day)], items


def test_a_bare_noun_with_a_day_is_not_someone_elses_sentence():
    assert _notes("he is on the 14th") == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("we got a rescue dog! a greyhound named Biscuit", "Biscuit"),
        ("Got a puppy last week. Her name is Bella", "Bella"),
        ("My sister had a baby. A girl named Iris.", "Iris"),
    ],
)
def test_a_phrase_naming_what_was_just_told_stays_with_it(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


def test_a_sentence_with_its_own_verb_after_a_statement_is_not_a_naming():
    assert _notes("I love this. The band called Muse is great.") == ["Loves this"]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (
            "work was chaos, my laptop died twice, but what I really wanted to tell you is my "
            "brother's graduation is on June 6",
            "June 6",
        ),
        ("traffic was awful, anyway the point is we're moving to Denver in May", "Denver"),
        (
            "the meeting ran long, but what I wanted to say is I start the new job on the 5th",
            "new job",
        ),
    ],
)
def test_a_run_on_keeps_what_the_speaker_meant_to_say(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("Every Sunday I meal prep for the week", "Meal preps for the week every Sunday"),
        ("I bike commute most days", "Bike commutes most days"),
        ("I batch cook on weekends", "Batch cooks on weekends"),
        ("I help cook dinner every night", "Helps cook dinner every night"),
    ],
)
def test_a_noun_verb_compound_takes_the_ending_on_its_verb(text, note):
    assert _notes(text) == [note]


def test_a_change_and_its_new_value_are_one_note():
    items = rules.extract_statements("수영 요일 바꿨어 이제 목요일 저녁에 가", today=TODAY)
    assert [(i.content, i.slot) for i in items] == [
        ("수영 요일 바꿈, 목요일 저녁에 감", "prefers:swimming:time")
    ]


def test_a_weekday_of_a_routine_is_no_one_date():
    items = rules.extract_statements("요가는 화요일 저녁에 가", today=TODAY)
    assert [(i.happens_on, i.type) for i in items] == [(None, "procedure")], items


# --- set 16 categories (s16-nat): every sentence new, written for these tests -------------


@pytest.mark.parametrize(
    "text",
    [
        # hearsay: news heard of a thing or of others
        "팀장님이 담주에 워크샵 간대요",
        "다음달부터 구내식당 바뀐다더라",
        "heard the pool is closing for repairs next week",
        "i heard they're hiring at kakao",
        "heard from Jake that the launch got pushed",
        "rumor has it we're getting bonuses in january",
        "supposedly the office moves in march",
        # a try suggested to someone
        "요가 해봐 진짜 좋아",
        "이 책 꼭 읽어봐요",
        "그 집 파스타 한번 먹어보세요",
        # someone of someone's
        "친구 동생이 다음달에 결혼해",
        "와이프 친구가 판교로 이사했어",
        "언니 남친이 요리사야",
        "팀 동료 와이프가 출산했어",
        "my cousin's boyfriend plays in a band",
        "my sister's friend just moved to Seattle",
        "my best friend's girlfriend is pregnant",
        "친구동생이 결혼한대",
        # a passing state said as a note
        "note: tired today",
        "note - so sleepy today",
        "메모: 오늘 좀 피곤함",
        # not corrections: a hope proved wrong
        "I thought the exam would be hard but actually it was easy",
        # taken with something, but not the speaker
        "요즘 애들 틱톡에 빠졌더라",
        "Everyone's really into pickleball these days",
        "what are you into?",
    ],
)
def test_hearsay_suggestions_someone_elses_people_and_noted_moods_give_no_memory(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        # one's own people stay the speaker's circle
        ("우리 엄마 동생이 다음달에 결혼해", "결혼"),
        ("동생이 다음달에 결혼해", "결혼"),
        ("my sister is getting married next month", "married"),
        # a try done is no suggestion
        ("요가 해봤는데 나랑 잘 맞더라", "요가"),
        # a correction of what one said earlier
        ("I said I was 33 earlier but actually I'm 34", "34"),
        ("Actually, I was wrong before, my birthday is May 2nd", "May 2nd"),
        ("아 근데 사실 저 채식주의자예요", "채식"),
        ("아까 서울 산다고 했는데 사실 부산 살아요", "부산"),
        ("아근데 사실 나 고양이 알러지 있어", "고양이"),
        ("Actually, scratch that, I'm 34 not 33", "34"),
        ("아 근데 사실 나 부산 살아 전에 서울이라고 했는데", "부산"),
        # taken with something lately
        ("really into k-dramas these days", "k-dramas"),
        ("i'm super into jazz lately", "jazz"),
        ("요즘 클라이밍에 빠졌어", "클라이밍"),
        ("요즘 재즈에 꽂혔어", "재즈"),
        ("요즘 골프에 완전 빠져있어요", "골프"),
        ("obsessed with pickleball lately", "pickleball"),
    ],
)
def test_corrections_and_what_one_is_into_lately_are_kept(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("my favorite movie is My Neighbor Totoro", "My Neighbor Totoro"),
        ('I\'m rereading "Me Before You" these days', "Me Before You"),
        ('My favourite book is "All of Me"', "All of Me"),
        ("my fav band is My Chemical Romance", "My Chemical Romance"),
        ("my sister's wedding is on march 3", "sister's wedding"),
    ],
)
def test_a_title_keeps_its_pronoun(text, title):
    assert any(title.lower() in note.lower() for note in _notes(text)), _notes(text)


def test_a_pronoun_outside_a_title_is_still_the_third_person():
    assert _notes("I'm going to my sister's wedding in May") == [
        "Is going to their sister's wedding in May"
    ]
    assert _notes('My mom always says "eat your veggies"') == []


@pytest.mark.parametrize(
    ("text", "usual"),
    [
        ("바꿨어 갤럭시로", "갤럭시로 바꿨어"),
        ("번호 바꿨어 010-8765-4321로", "번호 010-8765-4321로 바꿨어"),
        ("폰 바꿨어요, 갤럭시로!", "폰 갤럭시로 바꿨어요!"),
        ("갈아탔어 KT로", "KT로 갈아탔어"),
        ("바꿨어", "바꿨어"),
        ("갤럭시로 바꿨어", "갤럭시로 바꿨어"),
    ],
)
def test_a_change_told_verb_first_is_read_in_the_usual_order(text, usual):
    assert statements.in_usual_order(text) == usual


def test_a_retraction_leaves_what_the_correction_says():
    assert _notes("I live in Seoul. Scratch that, I live in Busan") == ["Lives in Busan"]
    assert _notes("scratch that, can you make it shorter?") == []
    assert _notes("oh scratch that lol") == []


@pytest.mark.parametrize(
    ("text", "slot"), [("나 12시쯤 잠", "bed_time"), ("평일엔 7시 기상", "wake_time")]
)
def test_a_bed_or_rising_time_said_with_a_nominal_verb_is_kept(text, slot):
    items = rules.extract_statements(text, today=TODAY)
    assert [item.slot for item in items] == [slot]


def test_a_nights_sleep_today_is_no_bed_time():
    assert _notes("오늘은 10시에 잠") == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        # a friend's child's party the speaker goes to, the speaker's own team
        ("이번주 일요일 오후에 지인 딸 결혼식 가야 돼", "결혼식"),
        ("이번 달부터 마케팅팀 팀장 맡았어", "팀장"),
    ],
)
def test_someone_of_someones_event_the_speaker_goes_to_is_still_the_speakers(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


def test_a_fact_of_today_asked_to_be_remembered_is_kept_and_a_feeling_is_not():
    assert any("파란색" in note for note in _notes("오늘 산 우산은 파란색이야. 기억해줘"))
    assert _notes("기억해줘 나 지금 배고파") == []


# --- set 16: colleagues, manners of a task, shrugs, pointing back, mishaps of the moment ----


@pytest.mark.parametrize(
    "text",
    [
        "울 팀리드가 담달에 퇴사한대",
        "우리 팀 매니저가 이번주 출장 간대요",
        "저희 수간호사 쌤이 내일 회식 잡았다고 함",
        "My team lead is off to Jeju next week.",
        "Our CTO quit yesterday lol",
        "the head nurse says we're short-staffed again",
        "과장님이 그러던데 내년에 구조조정 한대요",
        "우리 영감이 그카대 요즘 애들은 버릇이 없다꼬",
    ],
)
def test_a_colleague_named_by_role_or_someone_quoted_is_not_the_speaker(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("우리 팀 회식은 매달 첫째주 금요일이야", "회식"),
        ("우리 엄마가 다음주에 수술 받으셔", "수술"),
        ("My wife is a nurse at Samsung hospital", "nurse"),
    ],
)
def test_ones_team_and_family_are_still_the_speakers(text, word):
    assert any(word in note for note in _notes(text))


@pytest.mark.parametrize(
    "text",
    [
        "메뉴 설명 좀 써줘요 포근한 집밥 느낌으로",
        "인스타 캡션 써줘 힙한 느낌으로",
        "자기소개서 다듬어줘요 좀 더 겸손한 톤으로",
        "포스터 문구 뽑아줘 레트로 감성으로",
    ],
)
def test_the_manner_said_after_a_task_is_part_of_the_task(text):
    assert _notes(text) == []


def test_a_manner_the_speaker_likes_is_still_a_taste():
    assert _notes("나 빈티지 느낌으로 방 꾸미는 거 좋아함")


@pytest.mark.parametrize(
    "text",
    [
        "Write me a regex that matches US zip codes.",
        "Write me a cover letter for a barista job",
        "make me a 5-day workout plan pls",
        "Could you give me three names for a bakery?",
    ],
)
def test_something_made_once_for_the_speaker_is_no_standing_request(text):
    assert _notes(text) == []


def test_a_standing_request_about_code_is_still_kept():
    assert _notes("Write code comments in English always")


@pytest.mark.parametrize(
    "text",
    [
        "ugh the printer jammed again, such is life",
        "missed the last train at 1am. cool cool",
        "I just got a parking ticket outside my own flat, story of my life",
        "The coffee machine ate my card again, just my luck.",
    ],
)
def test_a_mishap_shrugged_off_is_no_fact(text):
    assert _notes(text) == []


def test_news_told_with_just_is_still_kept():
    assert _notes("I just got promoted to senior engineer")


@pytest.mark.parametrize(
    "text",
    [
        "오늘 회의 좀 길어졌음 그냥 그랬다고",
        "뭐 그냥 그렇다고요",
        "걍 그랬음 ㅋㅋ",
        "그냥그럼",
    ],
)
def test_a_clause_that_only_points_back_says_nothing(text):
    assert not any("그" in note and len(note) <= 8 for note in _notes(text))


def test_a_taste_opened_by_geunyang_is_still_kept():
    assert _notes("그냥 라면이 제일 좋음")


@pytest.mark.parametrize(
    "text",
    [
        "지금 버스 놓침 ㅠ 다음거 15분 뒤",
        "지금 지갑 잃어버림 ㅠㅠ",
        "지금 막차 놓쳤어",
        "지금 폰 액정 깨뜨림",
    ],
)
def test_what_just_happened_now_is_a_moment(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("지금 밴쿠버 살아", "밴쿠버"),
        ("지금 원룸 사는데 월세가 60만원이야", "월세"),
        ("지금 영어학원 다님", "학원"),
    ],
)
def test_what_lasts_said_with_now_is_still_kept(text, word):
    assert any(word in note for note in _notes(text))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("나이트 끝나면 멜라토닌 먹고 자요", "멜라토닌"),
        ("수능 끝나면 친구들이랑 부산 가기로 함", "부산"),
        ("퇴근하면 바로 헬스장 감", "헬스장"),
        ("기말 끝나면 운전면허 따기로 했어요", "운전면허"),
    ],
)
def test_what_one_does_when_something_is_over_is_no_supposition(text, word):
    assert any(word in note for note in _notes(text))


@pytest.mark.parametrize(
    "text", ["1등 되면 회사 때려침", "로또 되면 집 살거임", "일 끝나면 연락할게"]
)
def test_a_supposition_or_a_promise_for_now_is_still_not_kept(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [("MICU에서 일함", "MICU"), ("ICU에서 일해요", "ICU"), ("KT에서 근무함", "KT")],
)
def test_a_workplace_in_latin_letters_makes_work_a_fact(text, word):
    assert any(word in note for note in _notes(text))


def test_a_bare_act_of_the_moment_is_still_a_moment():
    assert _notes("나 지금 퇴근함") == []


@pytest.mark.parametrize(
    "text",
    [
        "시험 기간이라 도서관에 사람 개많음 자리 없음",
        "주말이라 스벅에 사람 너무 많아 자리가 하나도 없네",
        "퇴근길 지하철 미어터짐",
        "점심시간이라 식당 자리 없음 ㅠ",
    ],
)
def test_how_full_a_place_is_right_now_is_a_moment(text):
    assert _notes(text) == []


def test_a_dislike_of_crowded_places_is_still_a_taste():
    assert any("사람 많은 곳" in note for note in _notes("나 사람 많은 곳 싫어함"))


@pytest.mark.parametrize(
    "text",
    [
        "A colleague of mine swears by Trados; I remain unconvinced.",
        "My brother keeps pushing crypto, I'm still not convinced.",
        "Everyone at work loves standups. I'm not sold.",
        "my roommate says oat milk is better, i remain totally unconvinced",
    ],
)
def test_doubt_at_what_someone_else_said_is_no_fact(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("어린이집 등원 8시40분 하원 4시 매일 그렇게", "등원"),
        ("헬스 아침 6시 저녁 7시 매일 이렇게", "헬스"),
        ("출근 9시 퇴근 6시 항상 그렇게", "출근"),
    ],
)
def test_a_routine_said_again_with_geureoke_is_no_request(text, word):
    assert any(word in note for note in _notes(text))
