"""Which question about the user a statement answers (issue 14 line 3): pure, no database."""

from __future__ import annotations

import pytest

from memories.logic.slots import normalise_slot, question_of, valid

# Pairs that answer the same question: the later one replaces the earlier one, whichever came
# first. Raw chat, clean fact phrasing, third-person notes, Korean, English and mixed.
SAME_QUESTION = [
    # where I live
    ("나 부산으로 이사했어", "나는 서울 마포구에 살고 있어"),
    ("서울 강남에 삶", "Lives in Gangnam, Seoul"),
    ("부산으로 이사함", "I live in Incheon"),
    ("I just moved to Daejeon", "The user lives in Gwangju."),
    ("사용자는 수원에 산다", "We relocated to Jeju last spring"),
    ("I rent a studio in Mapo", "인천에 거주 중이야"),
    # my name, what to call me
    ("내 이름은 지훈이야", "Call me Jay"),
    ("Name is Hana Park", "서윤이라고 불러줘"),
    ("Prefers to be called Dan", "이름은 박도윤"),
    # job
    ("나는 간호사야", "Works as a nurse"),
    ("I'm a high school teacher", "이제 프리랜서 디자이너로 일해"),
    ("간호사로 일함", "I work as a pharmacist now"),
    ("I quit my job and I'm a full-time writer now", "백엔드 개발자임"),
    # workplace
    ("I work at a bank in Yeouido", "카카오에서 일해"),
    ("Works at Naver", "토스로 이직했어"),
    ("삼성전자 재직 중", "I started working at Coupang"),
    # school
    ("연세대 다니고 있어", "I study at Korea University"),
    ("고려대 학생이야", "Studies at Seoul National University"),
    # how formally to speak
    ("앞으로는 존댓말로 대답해줘", "앞으로 반말로 해줘"),
    ("존댓말로 답변 선호", "Be more casual with me"),
    ("반말 사용 요청", "Please talk to me formally"),
    # which format
    ("I like answers with bullet points", "Write in prose, not lists"),
    ("답변은 표로 정리해줘", "Prefers bullet-point answers"),
    ("마크다운 쓰지 마", "Use numbered lists in your answers"),
    # how long
    ("답변은 짧게 해줘", "Give me detailed answers"),
    ("Prefers concise answers", "자세하게 설명해줘"),
    ("짧은 답변 선호", "Keep your answers under 50 words"),
    # which language
    ("Answer in English from now on", "앞으로 한국어로 대답해줘"),
    ("영어 답변 선호", "Prefers answers in Korean"),
    # units, emoji
    ("Use metric units", "온도는 화씨로 알려줘"),
    ("이모지 쓰지 마", "Use emojis in answers"),
    # the same choice along one kind of modifier
    ("I prefer morning meetings", "I prefer evening meetings"),
    ("Prefers morning meetings", "저녁 회의를 선호해"),
    ("짧은 회의 선호", "I prefer long meetings"),
    ("I prefer window seats on flights", "통로 자리를 선호해"),
    ("따뜻한 아메리카노 선호", "I prefer iced americano"),
    ("회의는 오전에 하는 게 좋아", "I'd rather have meetings in the afternoon"),
    # liking and disliking one subject
    ("나는 커피를 좋아해", "I hate coffee"),
    ("고양이를 싫어함", "I love cats"),
    ("Dislikes cilantro", "고수 좋아해"),
    ("I enjoy swimming", "수영하는 거 별로 안 좋아해"),
    ("매운 음식 좋아해", "I can't stand spicy food"),
    ("고양이보다 개를 더 좋아해", "I prefer cats to dogs"),
    # favourites, allergies, diet, age, birthday, hometown, pets' names
    ("My favourite colour is green", "내가 제일 좋아하는 색은 보라색이야"),
    ("가장 좋아하는 음식은 떡볶이야", "Favorite food: ramen"),
    ("I'm allergic to peanuts", "땅콩 알레르기 있음"),
    ("나는 채식주의자야", "I'm vegan now"),
    ("나 스물아홉 살이야, 29살", "I'm 30 years old"),
    ("내 생일은 7월 2일이야", "My birthday is on March 14"),
    ("I'm from Daegu originally", "고향은 광주야"),
    ("우리 강아지 이름은 보리야", "My dog's name is Max"),
]

# Pairs that can both be true: neither replaces the other.
DIFFERENT_QUESTIONS = [
    ("앞으로는 존댓말로 대답해줘", "I like answers with bullet points"),
    ("I prefer short meetings", "I prefer morning meetings"),
    ("짧은 회의 선호", "아침 회의 선호"),
    ("I like coffee", "I like tea"),
    ("커피 좋아함", "Likes tea"),
    ("존댓말로 답변 선호", "짧은 답변 선호"),
    ("Answer in English", "Prefers concise answers"),
    ("Use bullet points", "Use emojis in answers"),
    ("Use metric units", "Answer in Korean"),
    ("I live in Busan", "I'm from Busan"),
    ("서울에 살아", "혼자 살아"),
    ("I'm a nurse", "I work at Severance Hospital"),
    ("I'm a nurse", "I commute by subway"),
    ("연세대 다니고 있어", "전공은 경영학이야"),
    ("I work from home", "I work at Naver"),
    ("I'm allergic to peanuts", "I'm allergic to shellfish"),
    ("I prefer window seats", "I prefer morning flights"),
    ("고양이를 좋아해", "강아지를 좋아해"),
    ("My favourite colour is blue", "My favourite food is pizza"),
    ("My dog's name is Max", "My name is Minji"),
    ("I prefer iced coffee", "I prefer morning coffee"),
]


@pytest.mark.parametrize(("a", "b"), SAME_QUESTION)
def test_two_answers_to_the_same_question_share_a_slot(a, b):
    assert question_of(a) == question_of(b) != ""


@pytest.mark.parametrize(("a", "b"), DIFFERENT_QUESTIONS)
def test_two_statements_that_can_both_be_true_never_share_a_slot(a, b):
    slot_a, slot_b = question_of(a), question_of(b)

    assert slot_a and slot_b
    assert slot_a != slot_b


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("나 부산으로 이사했어", "residence"),
        ("Lives in Gangnam, Seoul", "residence"),
        ("Works as a nurse", "job"),
        ("앞으로는 존댓말로 대답해줘", "answer_formality"),
        ("Prefers bullet-point answers", "answer_format"),
        ("I prefer short answers", "answer_length"),
        ("영어로 답변해줘", "answer_language"),
        ("I prefer short meetings", "prefers:meeting:size"),
        ("Prefers morning meetings", "prefers:meeting:time"),
        ("나는 커피를 좋아해", "likes:coffee"),
        ("Favourite colour: blue", "favourite:color"),
        ("나 혼자 살아", "household"),
    ],
)
def test_the_slot_names_the_question(text, slot):
    assert question_of(text) == slot


@pytest.mark.parametrize(
    "text",
    [
        "지금 어디 살지?",
        "Where do I live?",
        "다음 주 금요일에 대전 출장 가기로 했어",
        "프로젝트 마감은 목요일",
        "Next.js로 옮기기로 결정했어",
        "오늘 날씨 좋다",
        "If I moved to Busan, would I like it?",
        "예전에 대구에 살았어",
        "I used to live in Paris",
        "다음 달에 제주로 이사할 예정이야",
        "",
        "   ",
    ],
)
def test_questions_plans_and_passing_remarks_answer_no_question(text):
    assert question_of(text) == ""


@pytest.mark.parametrize(
    "text",
    [
        "My sister is a nurse",
        "동생이 서울에 살아",
        "우리 엄마는 간호사야",
        "My husband works at Hyundai",
        "She loves coffee",
        "Husband drives a pickup truck",
        "Daughter started kindergarten",
        "Wife's birthday is june 2",
        "Brother's job is in sales",
    ],
)
def test_a_fact_about_someone_else_is_no_answer_about_the_user(text):
    assert question_of(text) == ""


def test_the_user_and_someone_else_together_still_answer_for_the_user():
    assert question_of("My wife and I moved to Busan") == "residence"


def test_the_language_of_code_comments_is_not_the_language_of_answers():
    assert question_of("코드 주석은 영어로 달아줘") != "answer_language"


def test_one_clause_of_a_longer_statement_names_the_subject():
    assert question_of("I can't stand cilantro, it tastes like soap") == "likes:cilantro"
    assert question_of("나 땅콩 알레르기 있어. 먹으면 두드러기 나") == "allergy:peanut"


@pytest.mark.parametrize(
    "text",
    [
        "Call me at (503) 555-0142 if it's urgent",
        "call me on 010-2233-4455 after six",
        "Please call me back tomorrow morning",
        "Call me anytime, texts are slower",
        "call me +44 20 7946 0958",
    ],
)
def test_how_or_when_to_phone_the_user_is_no_name_to_call_them_by(text):
    assert question_of(text) != "name"
    assert question_of("call me Min") == "name"
    assert question_of("call me In-ho from now on") == "name"


@pytest.mark.parametrize(
    "slot",
    [
        "residence",
        "answer_formality",
        "likes:coffee",
        "prefers:meeting:time",
        "favourite:color",
        "allergy:peanut",
        "name:dog",
        "work_shift",
    ],
)
def test_every_slot_question_of_gives_is_valid(slot):
    assert valid(slot)


@pytest.mark.parametrize(
    "slot",
    [
        "answer_style",
        "language",
        "likes:",
        "prefers:meeting",
        "prefers:meeting:mood",
        "favourite:a:b",
        "likes:" + "x" * 61,
        "hobby",
    ],
)
def test_old_coarse_and_malformed_slots_are_not_valid(slot):
    assert not valid(slot)


def test_a_models_slot_is_put_in_the_same_words_as_question_of():
    assert normalise_slot("likes:커피") == question_of("I like coffee")
    assert normalise_slot("prefers:meetings:time") == question_of("I prefer morning meetings")
    assert normalise_slot("favourite:colour") == question_of("My favorite color is red")
    assert normalise_slot("answer_style") == ""


# --- relationship, body weight, what suits one best, a favourite changed -----------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("남자친구 있어요 2년째 만나는 중", "지난달에 헤어졌어요 이제 싱글"),
        ("I'm married", "we got divorced last spring"),
        ("몸무게 58키로 나가요", "운동해서 54키로 됐어요"),
        ("I weigh 80kg", "down to 74 kilos after the diet"),
        ("Prefer calls in the morning", "late evening works best for calls now"),
        ("회의는 오전이 제일 좋아요", "요즘은 회의 저녁 6시 이후로 잡는 게 편해요"),
        ("젤 좋아하는 과일 망고임", "최애 과일 바뀜 요즘은 복숭아"),
    ],
)
def test_a_changed_answer_to_the_same_question_shares_its_slot(a, b):
    assert question_of(a) == question_of(b) != ""


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("남자친구 있어요", "남자친구가 부산에 살아요"),
        ("I weigh 70kg", "use metric units please"),
        ("I'm single", "I live alone"),
    ],
)
def test_relationship_and_weight_stay_apart_from_neighbouring_questions(a, b):
    assert question_of(a) != question_of(b)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # a language named beside another way of answering is that instruction's medium
        ("answer me in formal English", "answer_formality"),
        ("격식 있는 영어로 답해줘", "answer_formality"),
        ("한국어로 짧게 답해줘", "answer_length"),
        ("reply in English with bullet points", "answer_format"),
        # a language alone is the language question
        ("answer in English from now on", "answer_language"),
        ("앞으로 일본어로 대답해줘", "answer_language"),
    ],
)
def test_a_sentence_naming_a_language_and_another_manner_answers_the_other(text, slot):
    assert question_of(text) == slot


def test_a_later_casual_request_replaces_formal_english():
    assert question_of("answer me in formal English") == question_of("keep answers casual")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("I'm a junior at Ohio State", "graduated in May, not a student anymore"),
    ],
)
def test_a_new_employer_or_leaving_school_answers_the_same_question(a, b):
    assert question_of(a) == question_of(b) != ""


def test_a_job_ending_in_sa_is_still_a_job_not_a_company():
    assert question_of("저 간호사예요") == "job"


# --- categories of blind set 10 (session 11), in sentences written for these tests --------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("저 지금 대리예요", "드디어 과장 달았어요"),
        ("마포구 살아요", "이사 끝 이제 일산 주민임"),
        ("제일 좋아하는 과자는 꼬북칩", "과자는 포카칩이 최고"),
        ("좋아하는 가수는 아이유", "최애 가수 아이유"),
        ("Works at Deloitte as an auditor", "first day at KPMG tomorrow"),
    ],
)
def test_a_rank_a_new_home_a_best_of_a_kind_and_a_first_day_share_the_slot(a, b):
    assert question_of(a) == question_of(b) != ""


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("좋아하는 배우는 송강호", "좋아하는 가수는 성시경"),
        ("과자는 포카칩이 최고", "라면은 진라면이 최고"),
        ("오이 극혐", "당근 극혐"),
    ],
)
def test_favourites_and_dislikes_of_different_kinds_stay_apart(a, b):
    assert question_of(a) != question_of(b)


def test_an_aim_is_not_the_job_and_a_new_crush_is_no_favourite():
    assert question_of("올해 목표 정보보안기사") != "job"
    assert not question_of("좋아하는 사람 생겼어").startswith("favourite:")


def test_a_parrots_name_is_its_own_question():
    assert question_of("우리 앵무새 이름은 초코") == "name:parrot"


def test_only_the_conclusion_in_a_few_lines_is_about_the_length_of_answers():
    assert (
        question_of("그냥 결론만 두 줄로 줘") == question_of("답변은 길게 해줘") == "answer_length"
    )


# --- set 13 categories (s13-nat): sentences new, written for these tests ---------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a routine's day changed
        ("요가는 화요일 저녁에 가", "이제 목요일 저녁에 요가 가"),
        ("I swim on tuesday evenings", "수영은 이제 토요일 아침에 해"),
        ("I run on weekends", "러닝은 수요일 저녁에 해"),
        ("필라테스 화목 가", "필라테스 요일 옮겼어 이제 월수금"),
        # a time zone given as the reason of a request
        ("I'm on Pacific time", "I'm in Berlin this winter, so use Berlin time"),
        ("한국 시간 기준으로 알려줘", "I'm in Tokyo for a month, so use Japan time"),
        ("시간은 한국시간 기준으로 알려줘", "나 런던 왔으니까 이제 영국시간 기준으로 알려줘"),
        # a limit on one's meetings and a preference for their length
        ("I prefer short meetings", "Meetings shouldn't run longer than 45 minutes"),
        # home named as a place
        ("집은 일산이야", "나 부천에 살아"),
        ("우리 집은 분당 쪽이에요", "I live in Incheon"),
    ],
)
def test_set_13_answers_to_the_same_question_share_a_slot(a, b):
    assert question_of(a) and question_of(a) == question_of(b), (question_of(a), question_of(b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("요가는 화요일 저녁에 가", "수영은 목요일 저녁에 해"),  # two exercises
        ("I prefer morning meetings", "Meetings shouldn't go over an hour"),  # when vs how long
        ("calls should end by 5pm", "Meetings shouldn't go over 20 minutes"),
        ("집은 일산이야", "회사는 여의도에 있어"),  # home vs workplace
    ],
)
def test_set_13_different_questions_stay_apart(a, b):
    assert question_of(a) != question_of(b), (question_of(a), question_of(b))


@pytest.mark.parametrize(
    "text",
    [
        "토요일에 테니스 치러 가",  # one outing, no routine
        "I'm playing tennis on saturday",
        "집은 원룸이야",  # no place named
        "친구 집은 수원이야",  # someone else's home
        "Trains never run after midnight here",  # a fact of the world
    ],
)
def test_set_13_one_outing_a_homes_kind_or_the_world_answer_no_question(text):
    assert question_of(text) == ""


# --- set 16 categories (s16-nat) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("my work number is 02-555-1234", "my work number changed, it's 02-555-9999 now"),
        ("My cell is 555-0101", "my cell number is now 555-0199"),
        ("내 번호 010-1234-5678이야", "번호 010-8765-4321로 바꿨어"),
        ("석사 과정 밟고 있어", "이번에 박사 과정 들어갔어"),
        ("I'm doing a master's in statistics", "I'm now pursuing a PhD in statistics"),
        ("my boyfriend is Minho", "I broke up with Minho"),
        ("I'm dating Sarah", "Sarah and I split up last week"),
        ("폰 아이폰 써", "갤럭시로 바꿨어"),
        ("I usually go to bed around 11", "these days I go to bed at 1am"),
        ("보통 11시에 자", "요즘은 새벽 1시에 자요"),
        # a contraction and the words it stands for give one key
        ("I'd rather take the train", "I would rather take the train"),
        ("I've been loving jazz", "I have been loving jazz"),
        ("I'll always love jazz", "I will always love jazz"),
        ("I can't stand horror movies", "I can not stand horror movies"),
        ("I'm super into jazz", "I am really into jazz"),
    ],
)
def test_set_16_answers_to_the_same_question_share_a_slot(a, b):
    assert question_of(a) != ""
    assert question_of(a) == question_of(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("My work phone is 010-2345-6789", "My personal number is 010-9876-5432"),
        ("회사 번호는 02-123-4567이야", "내 개인 번호는 010-1111-2222야"),
        ("업무용 폰 번호 010-3333-4444", "개인폰 번호는 010-5555-6666"),
        ("My work phone is 010-2345-6789", "I use an iPhone 15"),
        ("I have a bachelor's in physics", "I'm pursuing a master's in data science"),
        ("I go to bed at 11", "I wake up at 7"),
        ("my boyfriend is Minho", "my boyfriend is a nurse"),
    ],
)
def test_set_16_different_questions_stay_apart(a, b):
    assert question_of(a) != question_of(b) or question_of(a) == ""


@pytest.mark.parametrize(
    "text",
    [
        "my boyfriend is a nurse",
        "my boyfriend is so sweet",
        "the office number is on the website",
        "order number 2024-1234-5678 arrived",
        "I have a bachelor's degree",
        "주문번호 2024-1234-5678",
    ],
)
def test_set_16_a_partners_trait_a_number_of_no_line_or_a_degree_held_answer_no_slot(text):
    assert question_of(text) not in (
        "relationship",
        "phone_number",
        "work_phone_number",
        "school",
    )


def test_set_16_taken_with_a_hobby_is_no_place_to_live():
    assert question_of("요즘 뜨개질에 빠져 살아요") != "residence"
    assert question_of("요즘 뜨개질에 빠져 삶") != "residence"
