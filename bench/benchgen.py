"""Synthetic multilingual chat text for the latency benchmark (`manage.py bench_latency`).

Korean and English sentences about everyday topics, built from word lists and templates
written here (no downloaded data set). The vocabulary is bounded on purpose: the benchmark
tokenises each distinct text once with the real analyser and reuses the tokens for every
message that carries it. Plain Python, no Django.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

LANGUAGES = ("ko", "en")


@dataclass(frozen=True)
class Topic:
    key: str
    nouns_ko: tuple[str, ...]
    nouns_en: tuple[str, ...]

    def nouns(self, language: str) -> tuple[str, ...]:
        return self.nouns_ko if language == "ko" else self.nouns_en


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.replace("_", " ") for w in text.split())


TOPICS: tuple[Topic, ...] = (
    Topic(
        "travel",
        _words(
            "여행 항공권 숙소 호텔 일정 여권 렌터카 관광지 기차표 캐리어 환전 게스트하우스 "
            "공항 바다 맛집"
        ),
        _words(
            "trip flight hotel itinerary passport luggage rental_car train_ticket hostel "
            "sightseeing visa airport beach museum ferry"
        ),
    ),
    Topic(
        "cooking",
        _words(
            "요리 김치찌개 된장찌개 파스타 레시피 재료 양파 마늘 냉장고 오븐 에어프라이어 "
            "반찬 떡볶이 카레 도시락"
        ),
        _words(
            "recipe pasta soup garlic onion oven fridge curry salad sauce noodles dough "
            "breakfast leftovers spices"
        ),
    ),
    Topic(
        "work",
        _words(
            "회사 회의 프로젝트 마감 보고서 팀장님 출장 연봉 이직 면접 동료 야근 발표 계약 일정표"
        ),
        _words(
            "meeting project deadline report manager colleague interview salary promotion "
            "presentation client contract overtime standup budget"
        ),
    ),
    Topic(
        "programming",
        _words(
            "React Next.js TypeScript Docker PostgreSQL Django API 마이그레이션 배포 "
            "서버 버그 코드리뷰 테스트 데이터베이스 라이브러리"
        ),
        _words(
            "React Next.js TypeScript Docker PostgreSQL Django API migration deployment "
            "server bug code_review tests database library"
        ),
    ),
    Topic(
        "health",
        _words(
            "병원 감기 두통 무릎 허리 진료 약국 처방 건강검진 수면 스트레스 비타민 치과 "
            "알레르기 체중"
        ),
        _words(
            "doctor cold headache knee back appointment pharmacy prescription checkup "
            "sleep stress vitamins dentist allergy weight"
        ),
    ),
    Topic(
        "exercise",
        _words(
            "운동 헬스장 달리기 마라톤 요가 필라테스 수영 등산 자전거 스트레칭 근육 "
            "러닝화 코치 식단 스쿼트"
        ),
        _words(
            "gym running marathon yoga pilates swimming hiking cycling stretching muscles "
            "sneakers coach workout squats training"
        ),
    ),
    Topic(
        "finance",
        _words(
            "주식 주가 삼성전자 적금 예금 대출 금리 월급 가계부 보험 연금 세금 펀드 카드값 환율"
        ),
        _words(
            "stocks savings loan interest_rate salary budget insurance pension taxes "
            "index_fund mortgage credit_card rent crypto dividends"
        ),
    ),
    Topic(
        "family",
        _words(
            "가족 부모님 엄마 아빠 동생 언니 할머니 명절 생일 결혼식 조카 가족여행 용돈 선물 집안일"
        ),
        _words(
            "family parents mom dad sister brother grandma holidays birthday wedding "
            "nephew cousins gift chores anniversary"
        ),
    ),
    Topic(
        "pets",
        _words(
            "강아지 고양이 산책 사료 동물병원 예방접종 간식 장난감 미용 목줄 캣타워 "
            "배변패드 펫시터 입양 털"
        ),
        _words(
            "dog cat walk vet vaccines treats toys grooming leash litter kibble "
            "pet_sitter adoption puppy kitten"
        ),
    ),
    Topic(
        "media",
        _words(
            "영화 드라마 넷플릭스 소설 만화 웹툰 예능 다큐멘터리 극장 배우 감독 시즌 원작 독서 리뷰"
        ),
        _words(
            "movie series Netflix novel comics documentary theater actor director season "
            "podcast book review trailer anime"
        ),
    ),
    Topic(
        "music",
        _words(
            "음악 기타 피아노 콘서트 공연 앨범 노래 가수 밴드 레슨 플레이리스트 "
            "페스티벌 이어폰 악보 합창"
        ),
        _words(
            "music guitar piano concert album song singer band lessons playlist festival "
            "headphones vinyl choir drums"
        ),
    ),
    Topic(
        "shopping",
        _words(
            "쇼핑 코트 운동화 가방 할인 배송 환불 쿠폰 백화점 노트북 가전제품 청소기 "
            "세일 택배 영수증"
        ),
        _words(
            "shopping coat shoes bag discount delivery refund coupon mall laptop appliance "
            "vacuum sale package receipt"
        ),
    ),
    Topic(
        "home",
        _words(
            "이사 전세 월세 아파트 인테리어 가구 소파 침대 청소 관리비 집주인 이삿짐 "
            "리모델링 보일러 베란다"
        ),
        _words(
            "moving lease apartment furniture sofa bed cleaning landlord rent repairs "
            "kitchen heating balcony plumber neighbors"
        ),
    ),
    Topic(
        "study",
        _words(
            "공부 시험 토익 영어 일본어 학원 자격증 강의 과제 논문 도서관 단어 문법 장학금 수업"
        ),
        _words(
            "exam course homework thesis library vocabulary grammar scholarship lecture "
            "certificate Japanese Spanish tutor notes semester"
        ),
    ),
    Topic(
        "commute",
        _words(
            "출근 퇴근 지하철 버스 택시 자동차 주차 기름값 운전 고속도로 정비소 타이어 "
            "보험료 킥보드 교통체증"
        ),
        _words(
            "commute subway bus taxi car parking gas driving highway mechanic tires "
            "traffic bike scooter license"
        ),
    ),
    Topic(
        "garden",
        _words("화분 텃밭 상추 토마토 모종 비료 물주기 다육이 꽃 허브 씨앗 흙 정원 분갈이 햇빛"),
        _words(
            "garden plants tomatoes herbs seeds soil fertilizer flowers succulents "
            "watering compost pots roses lawn sunlight"
        ),
    ),
    Topic(
        "weather",
        _words(
            "날씨 장마 우산 폭염 미세먼지 태풍 눈 추위 에어컨 제습기 선풍기 일기예보 황사 난방 습도"
        ),
        _words(
            "weather rain umbrella heatwave snow storm cold air_conditioner humidity "
            "forecast fan heater pollen sunshine frost"
        ),
    ),
    Topic(
        "games",
        _words(
            "게임 닌텐도 스위치 플스 보드게임 퍼즐 레벨 캐릭터 업데이트 길드 퀘스트 "
            "랭크 e스포츠 컨트롤러 체스"
        ),
        _words(
            "games Nintendo Switch PlayStation board_games puzzle level character update "
            "guild quest ranked controller chess multiplayer"
        ),
    ),
)

PLACES = {
    "ko": _words(
        "제주도 부산 강릉 홍대 강남 성수동 판교 도쿄 오사카 파리 뉴욕 방콕 다낭 전주 경주 속초"
    ),
    "en": _words(
        "Tokyo Paris Seattle Lisbon Berlin Chicago Boston Denver Austin Toronto "
        "Vancouver Portland Dublin Madrid Prague Sydney"
    ),
}
PEOPLE = {
    "ko": _words("엄마 아빠 동생 언니 오빠 친구 팀장님 남편 아내 민지 지훈 수진 현우 룸메이트"),
    "en": _words(
        "my_mom my_dad my_sister my_brother Alex Sam my_manager Priya Jordan Emma "
        "Noah my_roommate my_partner Chris"
    ),
}
TIMES = {
    "ko": _words("어제 오늘 아침 지난주 주말에 저녁에 점심에 이번_달에 작년에 방금 새벽에"),
    "en": _words(
        "yesterday today this_morning last_week on_Saturday tonight at_lunch "
        "this_month last_year recently"
    ),
}
ADJECTIVES = {
    "ko": _words("비쌌어 괜찮았어 별로였어 좋았어 복잡했어 편했어 오래_걸렸어 재밌었어"),
    "en": _words("expensive great disappointing fine complicated easy slow fun"),
}

# {a} and {b} are nouns of the message's topic; "(을)" and the like become the particle that
# fits the word before it.
USER_TEMPLATES = {
    "ko": (
        "{t} {a} 때문에 좀 바빴어.",
        "{a} 관련해서 {p}(이랑) 얘기해 봤어.",
        "요즘 {a}에 관심이 생겨서 {b}도 찾아보는 중이야.",
        "{a}(은) 괜찮았는데 {b}(이) 좀 아쉬웠어.",
        "{a} 추천해 줄 만한 거 있어?",
        "{pl}에서 {a}(을) 알아봤는데 생각보다 {adj}.",
        "{a}(이랑) {b} 중에 뭐가 나을까?",
        "다음 달에는 {a}(을) 제대로 해 보고 싶어.",
        "{p}(이) 자꾸 {a} 얘기를 하더라.",
        "{a} 비용이 {n}만 원 정도 들었어.",
        "{t} {pl}에서 {a}(을) 하고 왔어.",
        "{a} 하다가 {b} 문제 때문에 한참 헤맸어.",
        "{a} 일정 좀 같이 정리해 줄래?",
        "{b}(은) 이제 그만하고 {a}(으로) 바꾸기로 했어.",
        "{a}(이) 생각보다 {adj} 그래도 {b}(은) 마음에 들어.",
        "저번에 말한 {a} 결국 {pl}에서 하기로 했어.",
        "{p} 생일 선물로 {a}(을) 준비하고 있어.",
        "{a}(이랑) {b}(을) 같이 하려니까 시간이 부족해.",
    ),
    "en": (
        "I was busy with the {a} {t}.",
        "I talked with {p} about the {a}.",
        "Lately I got into {a} and I am looking at {b} too.",
        "The {a} was fine but the {b} was {adj}.",
        "Do you have any tips for {a}?",
        "I checked the {a} in {pl} and it was {adj}.",
        "Should I go with the {a} or the {b}?",
        "Next month I really want to take the {a} seriously.",
        "{p} keeps bringing up the {a}.",
        "The {a} cost me about {n} dollars.",
        "I did the {a} in {pl} {t}.",
        "I got stuck on the {b} while working on the {a}.",
        "Can you help me plan the {a}?",
        "I decided to drop the {b} and switch to {a}.",
        "The {a} was {adj}, but I still like the {b}.",
        "We finally settled on doing the {a} in {pl}.",
        "I am getting {p} a {a} for their birthday.",
        "Juggling the {a} and the {b} leaves me no time.",
    ),
}
ASSISTANT_TEMPLATES = {
    "ko": (
        "{a}(은) {b}(과) 함께 준비하면 훨씬 수월해요.",
        "{a}(을) 고를 때는 {b}부터 확인해 보세요.",
        "말씀하신 {a} 기준이면 {b} 쪽이 더 맞을 것 같아요.",
        "{pl}(은) {a}(으로) 유명해서 미리 알아보시는 게 좋아요.",
        "{a} 예산은 {n}만 원 정도로 잡아 두면 안전해요.",
        "{b}(이) 부담되면 {a}부터 천천히 시작해 보세요.",
        "{p}(과) 일정을 맞춰서 {a}(을) 정해 보는 건 어때요?",
        "{a}(은) 꾸준히 기록해 두면 나중에 비교하기 좋아요.",
        "{a}(이) {adj}면 {b}(을) 대안으로 생각해 볼 수 있어요.",
        "정리하면 {a} 먼저, 그다음에 {b}(을) 챙기시면 돼요.",
        "{a} 관련 후기를 보면 {b} 만족도가 높은 편이에요.",
        "{t} 하신 {a} 얘기를 들어 보니 {b}도 같이 점검해 보면 좋겠어요.",
    ),
    "en": (
        "Preparing the {a} together with the {b} makes it much easier.",
        "When you choose the {a}, check the {b} first.",
        "Based on what you said about the {a}, the {b} seems like a better fit.",
        "{pl} is known for its {a}, so it is worth looking into early.",
        "Budgeting about {n} dollars for the {a} should be safe.",
        "If the {b} feels like too much, start slowly with the {a}.",
        "How about settling the {a} once you line up dates with {p}?",
        "Keeping notes on the {a} makes it easier to compare later.",
        "If the {a} turns out {adj}, the {b} is a reasonable alternative.",
        "In short: the {a} first, then take care of the {b}.",
        "Reviews of the {a} usually rate the {b} highly.",
        "From what you said {t} about the {a}, it is worth checking the {b} as well.",
    ),
}
QUERY_TEMPLATES = {
    "ko": (
        "{a} 관련해서 내가 뭐라고 했었지?",
        "지난번에 얘기한 {a} 어떻게 됐어?",
        "{a}(이랑) {b} 비교했던 거 다시 알려줘",
        "{pl} {a} 추천 받은 거 뭐였지?",
        "{a} 비용 얼마 들었다고 했지?",
        "{p}(이랑) {a} 얘기한 거 기억나?",
        "{a} 준비할 때 뭘 먼저 하라고 했더라?",
        "{b} 대신 뭘 하기로 했었지?",
        "내 {a} 일정 정리해 줘",
        "{a}에 대해 예전에 정한 거 있어?",
    ),
    "en": (
        "What did I say about the {a}?",
        "Remind me what happened with the {a}.",
        "What did we conclude comparing the {a} and the {b}?",
        "Which {a} did I look at in {pl}?",
        "How much did the {a} cost me?",
        "Did I talk with {p} about the {a}?",
        "What should I do first for the {a}?",
        "What did I switch to instead of the {b}?",
        "Summarise my plans for the {a}.",
        "Did I decide anything about the {a} last time?",
    ),
}
MEMORY_TEMPLATES = {
    "ko": (
        ("preference", "나는 {a}보다 {b}(을) 더 좋아한다."),
        ("preference", "{a}(은) {pl}에서 하는 걸 선호한다."),
        ("decision", "{a}(은) {b}(으로) 하기로 결정했다."),
        ("decision", "{t} {a} 예산을 {n}만 원으로 정했다."),
        ("fact", "{p}(은) {a}(을) 좋아한다."),
        ("fact", "{a} 관련 일정은 {pl}에서 진행된다."),
        ("procedure", "{a}(을) 할 때는 {b}부터 확인한다."),
        ("episode", "{t} {pl}에서 {a}(을) 했고 {b}(이) 인상적이었다."),
    ),
    "en": (
        ("preference", "I prefer the {b} over the {a}."),
        ("preference", "I like doing the {a} in {pl}."),
        ("decision", "We decided to go with the {b} for the {a}."),
        ("decision", "The budget for the {a} is {n} dollars."),
        ("fact", "{p} really likes the {a}."),
        ("fact", "The {a} takes place in {pl}."),
        ("procedure", "Before the {a}, always check the {b}."),
        ("episode", "I did the {a} in {pl} and the {b} stood out."),
    ),
}

_PARTICLE = re.compile(r"(\S)\((을|이|은|과|으로|이랑)\)")
# (with a final consonant, without one); "으로" after ㄹ is "로".
_PARTICLES = {
    "을": ("을", "를"),
    "이": ("이", "가"),
    "은": ("은", "는"),
    "과": ("과", "와"),
    "으로": ("으로", "로"),
    "이랑": ("이랑", "랑"),
}


def _final_consonant(char: str) -> int:
    """The final consonant index of a Hangul syllable (0: none); a guess for other text."""
    if "\uac00" <= char <= "\ud7a3":
        return (ord(char) - 0xAC00) % 28
    if char.isdigit():
        return 0 if char in "2459" else 1
    return 8 if char.lower() in "lmn" else 0  # 8 is ㄹ; Latin words mostly end in a vowel


def attach_particles(text: str) -> str:
    """Replace "(을)"-style markers by the particle that fits the preceding word."""

    def choose(match: re.Match[str]) -> str:
        char, particle = match.group(1), match.group(2)
        final = _final_consonant(char)
        with_final, without = _PARTICLES[particle]
        if particle == "으로" and final == 8:
            return char + "로"
        return char + (with_final if final else without)

    return _PARTICLE.sub(choose, text)


def fill(template: str, topic: Topic, language: str, rng: random.Random) -> str:
    a, b = rng.sample(topic.nouns(language), 2)
    text = template.format(
        a=a, b=b, t=rng.choice(TIMES[language]), p=rng.choice(PEOPLE[language]),
        pl=rng.choice(PLACES[language]), adj=rng.choice(ADJECTIVES[language]),
        n=rng.choice((3, 5, 10, 12, 15, 20, 30, 50, 80, 120)),
    )  # fmt: skip
    if language == "ko":
        return attach_particles(text)
    return text[0].upper() + text[1:]


@dataclass(frozen=True)
class PoolText:
    """One distinct message text; messages reuse it (and its tokens) many times."""

    topic: int
    language: str
    role: str
    text: str


def text_pool(*, per_kind: int, seed: int) -> list[PoolText]:
    """`per_kind` distinct user texts and as many assistant texts per topic and language.

    An assistant text is two or three sentences, as replies are longer than questions.
    """
    rng = random.Random(seed)
    pool: list[PoolText] = []
    for index, topic in enumerate(TOPICS):
        for language in LANGUAGES:
            for role, templates in (("user", USER_TEMPLATES), ("assistant", ASSISTANT_TEMPLATES)):
                seen: set[str] = set()
                for _attempt in range(per_kind * 20):
                    if len(seen) >= per_kind:
                        break
                    sentences = 1 if role == "user" else rng.choice((2, 2, 3))
                    text = " ".join(
                        fill(rng.choice(templates[language]), topic, language, rng)
                        for _ in range(sentences)
                    )
                    if text not in seen:
                        seen.add(text)
                        pool.append(PoolText(index, language, role, text))
    return pool


def queries(count: int, *, seed: int) -> list[tuple[int, str]]:
    """`count` distinct search questions, Korean and English alternating, with their topic."""
    rng = random.Random(seed)
    found: list[tuple[int, str]] = []
    seen: set[str] = set()
    while len(found) < count:
        language = LANGUAGES[len(found) % 2]
        index = rng.randrange(len(TOPICS))
        text = fill(rng.choice(QUERY_TEMPLATES[language]), TOPICS[index], language, rng)
        if text not in seen:
            seen.add(text)
            found.append((index, text))
    return found


def memory_statements(count: int, *, seed: int) -> list[tuple[int, str, str, str]]:
    """`count` distinct memories as (topic, language, type, content)."""
    rng = random.Random(seed)
    found: list[tuple[int, str, str, str]] = []
    seen: set[str] = set()
    attempts = 0
    while len(found) < count and attempts < count * 50:
        attempts += 1
        language = rng.choice(("ko", "ko", "en"))
        index = rng.randrange(len(TOPICS))
        kind, template = rng.choice(MEMORY_TEMPLATES[language])
        text = fill(template, TOPICS[index], language, rng)
        if text not in seen:
            seen.add(text)
            found.append((index, language, kind, text))
    return found
