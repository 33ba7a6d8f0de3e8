"""The probe set behind context.ANSWER_SIMILARITY and ANSWER_MARGIN: a memory that answers a
question without sharing a word with it is close by meaning, an unrelated one never is, in
Korean and English (casual and polite, typos, no spaces, emoji)."""

import pytest

from conversations.services.context import answer_floor
from memoryhub import embeddings

# (question, memory that answers it, clears the floor). The related and unrelated bands
# overlap (see ANSWER_SIMILARITY); the pairs marked False are related but under the floor,
# left to the shared-word rule.
RELATED = [
    ("나 아침에 뭐 마시더라?", "매일 아침 핸드드립 커피를 마심", True),
    ("우리 강아지 이름 뭐였지?", "푸들 키우는데 이름은 코코", True),
    ("내가 어디서 일한다고 했지?", "세브란스 병원 간호사로 근무 중", False),
    ("제 직업이 뭐였죠?", "프론트엔드 개발자로 일하고 있음", True),
    ("나 뭐 못 먹는다고 했더라", "땅콩 알레르기 있음", True),
    ("내 생일 언제야?", "1994년 3월 12일생", True),
    ("나 어디 살지?", "서울 마포구 망원동 거주", True),
    ("주말에 주로 뭐 한다 했지?", "토요일마다 한강에서 러닝함", True),
    ("내가 좋아하는 음식 뭐였어?", "떡볶이를 제일 좋아함", True),
    ("우리 애 몇살이더라", "딸이 올해 초등학교 2학년", True),
    ("내 차 뭐였지?", "아반떼 2021년식 탐", False),
    ("저 무슨 운동 한다고 했죠?", "주 3회 필라테스 다님", False),
    ("나 무슨 악기 배우지?", "요즘 기타 레슨 받는 중", True),
    ("내 여친 이름 뭐더라ㅋㅋ", "여자친구 지은이랑 3년째 연애 중", True),
    ("나 어느 학교 나왔지?", "고려대 경영학과 졸업", True),
    ("출근 어떻게 한다 했지?", "지하철 2호선 타고 출근", True),
    ("내가 키우는 식물 뭐야?", "베란다에서 몬스테라 키움", True),
    ("나 담배 피워?", "작년에 금연 성공함", False),
    ("what's my dog called?", "Has a poodle named Coco", True),
    ("where do I work?", "Works as a nurse at Severance", True),
    ("What do I drink in the morning?", "Drinks pour-over coffee every morning", True),
    ("what am i allergic to", "Allergic to peanuts", True),
    ("When's my birthday?", "Born on March 12, 1994", True),
    ("where do i live again", "Lives in Mapo, Seoul", True),
    ("What do I do on weekends?", "Goes running by the Han River every Saturday", True),
    ("what's my favourite food?", "Loves tteokbokki more than anything", True),
    ("How old is my kid?", "Daughter is in second grade", False),
    ("What car do I drive?", "Drives a 2021 Hyundai Avante", True),
    ("which sport do I do", "Takes pilates three times a week", False),
    ("What instrument am I learning? 🎸", "Taking guitar lessons these days", True),
    ("whats my girlfriends name", "Has been dating Jieun for three years", False),
    ("Where did I go to college?", "Graduated from Korea University in business", True),
    ("How do I get to the office?", "Commutes on subway line 2", False),
    ("what plant do i have", "Keeps a monstera on the balcony", True),
    ("do I smoke?", "Quit smoking last year", True),
    ("What's my job?", "Frontend developer at a fintech startup", True),
]
# The same questions, each with a memory about something else.
UNRELATED = [
    ("나 아침에 뭐 마시더라?", "세브란스 병원 간호사로 근무 중"),
    ("우리 강아지 이름 뭐였지?", "지하철 2호선 타고 출근"),
    ("내가 어디서 일한다고 했지?", "떡볶이를 제일 좋아함"),
    ("제 직업이 뭐였죠?", "베란다에서 몬스테라 키움"),
    ("나 뭐 못 먹는다고 했더라", "고려대 경영학과 졸업"),
    ("내 생일 언제야?", "토요일마다 한강에서 러닝함"),
    ("나 어디 살지?", "요즘 기타 레슨 받는 중"),
    ("주말에 주로 뭐 한다 했지?", "땅콩 알레르기 있음"),
    ("내가 좋아하는 음식 뭐였어?", "아반떼 2021년식 탐"),
    ("우리 애 몇살이더라", "매일 아침 핸드드립 커피를 마심"),
    ("내 차 뭐였지?", "푸들 키우는데 이름은 코코"),
    ("저 무슨 운동 한다고 했죠?", "1994년 3월 12일생"),
    ("나 무슨 악기 배우지?", "서울 마포구 망원동 거주"),
    ("내 여친 이름 뭐더라ㅋㅋ", "작년에 금연 성공함"),
    ("나 어느 학교 나왔지?", "주 3회 필라테스 다님"),
    ("출근 어떻게 한다 했지?", "딸이 올해 초등학교 2학년"),
    ("내가 키우는 식물 뭐야?", "프론트엔드 개발자로 일하고 있음"),
    ("나 담배 피워?", "여자친구 지은이랑 3년째 연애 중"),
    ("what's my dog called?", "Works as a nurse at Severance"),
    ("where do I work?", "Has a poodle named Coco"),
    ("What do I drink in the morning?", "Graduated from Korea University in business"),
    ("what am i allergic to", "Commutes on subway line 2"),
    ("When's my birthday?", "Keeps a monstera on the balcony"),
    ("where do i live again", "Taking guitar lessons these days"),
    ("What do I do on weekends?", "Allergic to peanuts"),
    ("what's my favourite food?", "Drives a 2021 Hyundai Avante"),
    ("How old is my kid?", "Drinks pour-over coffee every morning"),
    ("What car do I drive?", "Has been dating Jieun for three years"),
    ("which sport do I do", "Born on March 12, 1994"),
    ("What instrument am I learning? 🎸", "Lives in Mapo, Seoul"),
    ("whats my girlfriends name", "Takes pilates three times a week"),
    ("Where did I go to college?", "Quit smoking last year"),
    ("How do I get to the office?", "Loves tteokbokki more than anything"),
    ("what plant do i have", "Frontend developer at a fintech startup"),
    ("do I smoke?", "Daughter is in second grade"),
    ("What's my job?", "Goes running by the Han River every Saturday"),
]


def _closeness(question: str, memory: str) -> tuple[float, float]:
    query = embeddings.embed_query(question)
    return embeddings.cosine(query, embeddings.embed_passages([memory])[0]), answer_floor(
        query, question
    )


@pytest.mark.parametrize(("question", "memory", "clears"), RELATED)
def test_a_memory_that_answers_the_question_clears_the_floor_by_meaning(question, memory, clears):
    similarity, floor = _closeness(question, memory)

    assert (similarity >= floor) is clears, (similarity, floor)


@pytest.mark.parametrize(("question", "memory"), UNRELATED)
def test_an_unrelated_memory_never_clears_the_floor(question, memory):
    similarity, floor = _closeness(question, memory)

    assert similarity < floor, (similarity, floor)


@pytest.mark.parametrize(
    ("related", "unrelated"), list(zip(RELATED, UNRELATED, strict=True)), ids=lambda p: p[0]
)
def test_the_memory_that_answers_is_closer_than_an_unrelated_one(related, unrelated):
    assert related[0] == unrelated[0]

    assert _closeness(*related[:2])[0] > _closeness(*unrelated)[0]


def test_without_a_vector_nothing_is_close_by_meaning():
    assert answer_floor(None, "where do I work?") > 1
