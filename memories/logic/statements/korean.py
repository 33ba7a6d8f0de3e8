"""Korean clauses read from Kiwi's morphemes: subject, tense, mood, negation, a clean note."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from memories.logic.slots.vocab import KO_JOBS
from memories.logic.statements.clause import _NOISE, _QUOTED, Clause
from memories.logic.statements.names import personal_name
from memoryhub.text import _analyser

_KO_SPEAKER = frozenset(
    """나 내 우리 울 저 저희 제""".split()  # noqa: SIM905
)
_KO_YOU = frozenset(
    """너 네 니 당신 자기""".split()  # noqa: SIM905
)
_KO_QUESTION_WORDS = frozenset(
    """누구 몇 무슨 무엇 뭐 뭣 어느 어디 어떤 어떻게 언제 얼마 얼마나 왜 웬""".split()  # noqa: SIM905
)
_KO_QUESTION_ENDINGS = tuple(
    """니 냐 나 나요 까 까요 ᆯ까 을까 ᆯ까요 을까요 가 가요 는가 던가 지요 냐고 려나 ᆫ가 은가
    ᆫ가요 은가요 ᆫ지 은지 는지""".split()  # noqa: SIM905
)
_KO_QUOTE_ENDINGS = tuple(
    """대 래 대요 래요 다더라 라더라 다네 단다 란다 다며 라며 대더라 다던데 라던데
    다더라고 라더라고""".split()  # noqa: SIM905
)
# People outside the speaker's circle: what they do is their news, not the speaker's.
_KO_OTHERS = frozenset(
    """가수 걔 그녀 남주 누가 다들 동료 배우 사람 사람들 선배 선수 애들 얘 여주 쟤
    주인공 지인 친구 후배""".split()  # noqa: SIM905
)
# The speaker's circle: family, partner, pets, team, home: their facts are the speaker's too.
_KO_CIRCLE = frozenset(
    """남편 아내 와이프 마누라 신랑 엄마 아빠 어머니 아버지 부모님 할머니 할아버지 누나
    형 오빠 언니 동생 딸 아들 애 아이 아기 남친 여친 남자친구 여자친구 애인 고양이
    강아지 댕댕이 개 팀 회사 집 가족 시어머니 장모님 베프 조카 반려견 반려묘
    아이들 애들 부모 장인 장인어른 장모 시아버지 시아버님 시어머님 시부모 시부모님 시댁
    처가 처남 처제 형부 매형 제부 올케 시누이 형수 새언니 아주버님 사위 며느리 손자 손녀 삼촌
    외삼촌 이모 이모부 고모 고모부 숙모 사촌 외할머니 외할아버지 친할머니 친할아버지 앵무새
    반려동물""".split()  # noqa: SIM905
)
# Passing states of body and mood.
_KO_MOMENTARY = frozenset(
    """감사하 개웃기 고맙 귀찮 답답하 대박 덥 떨리 멋지 목마르 미안하 미치 배고프
    배부르 설레 센치하 소름돋 슬프 신기하 심심하 아프 외롭 우울하 웃기 재미있 재밌
    졸리 좋 죄송하 죽 지루하 짜증나 짱 쩔 최고 춥 피곤하 화나 힘들 무섭 부럽 설치
    체하 모르 어지럽 속상하 서운하 억울하 부끄럽 시리 저리 가렵 간지럽 따갑 뻐근하 쑤시
    얼얼하 메스껍 나른하 노곤하""".split()  # noqa: SIM905
)
# People named by their place at work or school: their news is theirs ("팀 막내가 ...").
# Of these, a role at work or in the street: "우리 사장님" is the speaker's boss, no family.
_KO_ROLES = frozenset(
    """과장 부장 차장 대리 사원 이사 사장 대표 교수 선생 팀장 상사 실장 본부장 점장 원장
    집주인 건물주 아저씨 아줌마 아주머니 경비 경비원 기사 손님 리드 팀리드 매니저 파트장 주임
    선임 수간호사 간호부장 쌤 담임 교장 교감 코치 감독 셰프""".split()  # noqa: SIM905
)
# Where the speaker works: "우리 팀 리드" is a colleague, "우리 팀" is not the speaker's kin.
_KO_WORKPLACE = frozenset(
    """팀 회사""".split()  # noqa: SIM905
)
_KO_PERSON_WORDS = _KO_ROLES | frozenset(
    """막내 선배 후배 동기 동료 친구 지인 옆자리 룸메""".split()  # noqa: SIM905
)
# Where a person lives or sits beside the speaker's: "옆집 할머니" is a neighbour, not family.
_KO_NEIGHBOURS = frozenset(
    """옆집 윗집 아랫집 앞집 뒷집 이웃 이웃집 옆방 윗층 아래층 옆자리""".split()  # noqa: SIM905
)
# A verb that tells what the speaker keeps, before the name of it ("키우는 거북이 ...가").
_KO_KEEPING = frozenset(
    """키우 기르 타 쓰 모시""".split()  # noqa: SIM905
)
# Words of taste: what is the best or the worst for the speaker ("짜파게티가 최고",
# "민트초코 극혐"), said in a word.
_KO_TASTE = frozenset(
    """최고 최애 극혐 극호 불호 존맛 존맛탱 노맛 핵노맛 취향""".split()  # noqa: SIM905
)
# The same, strong enough to make two words a statement ("민트초코 극혐"); "출근 최고" is a
# cry, often sarcastic.
_KO_TASTE_ALONE = _KO_TASTE - {"최고", "취향"}
_KO_SUPERLATIVE = frozenset(
    """제일 젤 가장 최고로""".split()  # noqa: SIM905
)
_KO_NOW = frozenset(
    """당장 방금 아까 오늘 오늘따라 이따 지금""".split()  # noqa: SIM905
)
_KO_LASTING = frozenset(
    """근무하 다니 마시 먹 배우 살 쓰 일하 있 키우 타 하""".split()  # noqa: SIM905
)
_KO_DECISION = frozenset(
    """가입하 갈아타 결정하 그만두 끊 바꾸 시작하 정하""".split()  # noqa: SIM905
)
_KO_PREFERENCE = frozenset(
    """못하 사랑하 선호하 싫 싫어하 좋아하 즐기 최애""".split()  # noqa: SIM905
)
# Adverbs of habit open a word ("주로" in "광주로" is a city and a particle); "-마다" ends one.
# A part of the day or the week as the topic ("저녁엔 수영 가", "주말에는 등산해"): when the user
# does it, each time; a routine past the gate, typed as the fact it is.
PART_OF_DAY_TOPIC = re.compile(
    r"(?<![가-힣])(?:아침|점심|저녁|밤|새벽|오전|오후|주말|평일|퇴근\s*후)(?:엔|에는)\s"
)

HABIT = re.compile(
    r"(?<![가-힣])(?:매일|매주|매달|매년|매번|항상|늘(?![가-힣])|평일|언제나|보통|주로|자주|맨날|"
    r"무조건)|"
    # the days of a weekly class run together ("월수금 저녁반", "화목 아침")
    r"(?<![가-힣])(?:월수금|화목토?|월수|월화수목금|금토일|토일)(?![가-힣])|"
    # an exercise or a class as the topic, then its day ("러닝은 토요일 아침에 해"), and a
    # day kept from now on ("이제 일요일 아침에 뛰어"): a weekly routine, not one date
    r"(?:헬스|수영|필라테스|요가|크로스핏|클라이밍|러닝|달리기|조깅|자전거|복싱|웨이트|테니스|"
    r"배드민턴|골프|태권도|주짓수|운동|레슨|수업)(?:은|는)\s+(?:[가-힣]+\s+)?(?:[월화수목금토일]요일|"
    r"주말|평일)|(?<![가-힣])이제(?:부터)?\s+[월화수목금토일]요일|"
    r"마다|루틴|습관|주\s*\d+\s*회|한\s*달에|일주일에|하루에"
)
# What a piece of writing or a picture is to feel like: "... 느낌으로", "... 톤으로".
_KO_MANNER_NOUNS = frozenset(
    """느낌 톤 분위기 말투 스타일 컨셉 콘셉트 감성 버전 어투 문체""".split()  # noqa: SIM905
)
_KO_PAST_DAY = re.compile(r"어제|그제|그저께|지난\s*주|지난주|지난\s*달|지난달|작년|저번")

_KO_PREDICATE_TAGS = ("VV", "VA", "VX", "VCP", "VCN", "XSV", "XSA")


def _tag(token: Any) -> str:
    return str(token.tag).split("-")[0]


def _is_predicate(token: Any) -> bool:
    return _tag(token) in ("VV", "VA", "VCP", "VCN", "XSV", "XSA")


def _ko_tokens(text: str) -> list[Any]:
    return list(_analyser().tokenize(text))


def tokens_of(text: str) -> list[Any]:
    """Kiwi's morphemes of `text`."""
    return _ko_tokens(text)


_CUTTING_ENDINGS = frozenset(
    """고 며 으며 는데 ᆫ데 은데 어서 아서 여서 라서 이라서""".split()  # noqa: SIM905
)


_BACKGROUND_ENDINGS = frozenset(
    """데 는데 ᆫ데 은데 어서 아서 여서 라서 이라서 서""".split()  # noqa: SIM905
)


def _obliged(tokens: list[Any]) -> bool:
    """ "-어야 되/하": what one has to do."""
    return any(
        _tag(t) == "EC" and t.form in ("어야", "아야", "여야") and n.form in ("되", "하", "돼")
        for t, n in zip(tokens, tokens[1:], strict=False)
    )


def _ko_clauses(tokens: list[Any]) -> list[list[Any]]:
    """Cut at a coordinating "-고"/"-며"/"-(으)며" between two predicates (not "-고 있다"),
    and after a background "-는데" or a reason "-어서/-라서" that a clause of its own follows
    ("원룸 사는데 | 윗집 때문에 미치겠음", "수술한 적 있어서 | 계단에서 아파요"): each part
    has its own mood and may be a passing state while the other lasts."""
    clauses: list[list[Any]] = []
    current: list[Any] = []
    if _ko_tense(tokens, "") == "plan":
        return [tokens]  # "대학원 안 가고 취업하기로 했어": the plan covers both verbs
    for index, token in enumerate(tokens):
        current.append(token)
        # Kiwi reads "사는데" either as one ending or as "-는" and the bound noun "데".
        background = (
            _tag(token) == "NNB"
            and token.form == "데"
            and index > 0
            and _tag(tokens[index - 1]) == "ETM"
        )
        # A final ending the sentence splitter missed ("너무 덥다 에어컨 틀어야지"), or a
        # hedge that ends a sentence in chat ("최고인듯 요즘 이거만 먹음").
        final = (
            (
                _tag(token) == "EF"
                or (_tag(token) == "EC" and token.form == "다")
                or (_tag(token) == "NNB" and token.form == "듯")
            )
            and index + 1 < len(tokens)
            and _tag(tokens[index + 1]) not in ("EF", "EC", "SF", "VCP", "XSA", "JX", "VA")
        ) or _nominal_full_stop(tokens, index)
        # "한약 먹는 중이라 | ...금지래": the copula's reason "-(이)라" before a report, which
        # is someone else's words while the reason is the speaker's
        reason = (
            _tag(token) == "EC"
            and token.form == "라"
            and index > 0
            and _tag(tokens[index - 1]) == "VCP"
            and _last_ending_of(tokens[index + 1 :]).endswith(_KO_QUOTE_ENDINGS)
        )
        if not (background or final or reason or _misread_seo(tokens, index)) and (
            _tag(token) != "EC" or token.form not in _CUTTING_ENDINGS
        ):
            continue
        rest = tokens[index + 1 :]
        if not rest or _tag(rest[0]) == "VX":
            continue
        if _tag(rest[0]) == "VV" and rest[0].form in ("가", "오", "다니", "나가", "들어가"):
            continue  # "모시고 가", "데리고 와": one movement told by two verbs
        if not any(_is_predicate(t) for t in rest) or not any(_is_predicate(t) for t in current):
            continue
        if token.form not in ("고", "며", "으며") and _obliged(current):
            continue  # "병원 모시고 가야 돼서 반차 써": the duty and what it makes one do
        # Both sides need words of their own: "먹고 자" (two verbs alone) stays one clause.
        if sum(_tag(t).startswith(("N", "SL", "SN", "MA")) for t in rest) == 0:
            continue
        clauses.append(current)
        current = []
    if current:
        clauses.append(current)
    return clauses


def _nominal_full_stop(tokens: list[Any], index: int) -> bool:
    """Chat ends a sentence in "-ㅁ/음" that Kiwi may read as a nominaliser: "오이 싫어함 |
    냄새만 맡아도 ...". It ends one when a new word, not a particle, follows."""
    token = tokens[index]
    if not (_tag(token) == "ETN" and token.form in ("ᆷ", "음")) or index + 1 >= len(tokens):
        return False
    return _tag(tokens[index + 1]).startswith(("NN", "NP", "MAG", "MM", "SL", "SN"))


def _last_ending_of(tokens: list[Any]) -> str:
    return next((t.form for t in reversed(tokens) if _tag(t) in ("EF", "EC")), "")


def _misread_seo(tokens: list[Any], index: int) -> bool:
    """Kiwi reads the "-서" of "-어서" after some adjectives as the verb 서다 ("시려서":
    시리/VA 어/EC 서/VV): it is the connective."""
    token = tokens[index]
    return (
        _tag(token) == "VV"
        and token.form == "서"
        and index >= 2
        and _tag(tokens[index - 1]) == "EC"
        and tokens[index - 1].form in ("어", "아")
        and _tag(tokens[index - 2]) in ("VA", "VV")
    )


def _ko_subject(tokens: list[Any]) -> str:
    """speaker (said or omitted), circle, other or assistant, from the first marked nominal."""
    if tokens and _tag(tokens[0]) == "NP" and tokens[0].form in _KO_YOU:
        return "assistant"  # "너 진짜 말 잘한다"
    for index, token in enumerate(tokens):
        if _tag(token) == "NP" and token.form in _KO_YOU:
            follow = tokens[index + 1] if index + 1 < len(tokens) else None
            if follow is not None and _tag(follow) in ("JKS", "JX"):
                return "assistant"
        if _tag(token) not in ("JKS", "JX") or index == 0:
            continue
        if not any(not _tag(t).startswith("S") for t in tokens[index + 1 :]):
            continue  # "이름 몽실이": a name's last syllable read as a particle ends nothing
        if token.form not in ("이", "가", "은", "는", "ᆫ", "께서"):
            continue
        head = tokens[index - 1]
        group = [t.form for t in tokens[max(0, index - 3) : index]]
        if _tag(head) == "NP":
            if head.form in _KO_SPEAKER:
                return "speaker"
            if head.form in _KO_YOU:
                return "assistant"
            if head.form in {"누구"}:
                return "other"
        if _liked(tokens[:index]):
            return "speaker"  # "좋아하는 배우는 ...", "최애 가수는 ...": the speaker's taste
        if any(form in _KO_NEIGHBOURS for form in group):
            return "other"  # "옆집 할머니는 ...": a neighbour's habits, not the family's
        if any(form in _KO_ROLES for form in group) and not any(
            f in _KO_CIRCLE - _KO_WORKPLACE for f in group
        ):
            return "other"  # "우리 사장님은 ...": "우리" is the workplace, the boss is not kin
        if _nested_person(group):
            return "other"  # "친구 동생이 ...", "와이프 친구가 ...": someone of someone's
        if any(form in _KO_CIRCLE for form in group) or any(f in _KO_SPEAKER for f in group[:-1]):
            return "circle"
        if head.form in _KO_OTHERS or any(form in _KO_OTHERS for form in group):
            return "other"
        if any(
            _tag(t) == "VV" and t.form in _KO_KEEPING and _tag(n) == "ETM"
            for t, n in zip(tokens[:index], tokens[1 : index + 1], strict=False)
        ):
            return "circle"  # "키우는 거북이 꼬북이가 ...": the speaker's own pet or thing
        if head.form in _KO_PERSON_WORDS or any(f in _KO_PERSON_WORDS for f in group):
            return "other"
        if token.form in ("이", "가") and any(
            _tag(t) == "NNP" for t in tokens[max(0, index - 2) : index]
        ):
            return "other"  # a named person or thing doing something: their news
        if _honorific(tokens) and not any(t.form in _KO_CIRCLE for t in tokens):
            return "other"  # "-시-" on the predicate: someone else
        return "speaker"  # a topic of the speaker's ("커피는 무조건 아아")
    honoured = [
        i
        for i, t in enumerate(tokens)
        if _tag(t) == "XSN"
        and t.form == "님"
        # "선생님한테 배워요", "팀장님이랑 밥 먹음": the person is not who acts; "선생님이에요":
        # the speaker's own job, said with the copula
        and not (
            i + 1 < len(tokens)
            and (tokens[i + 1].form in _KO_TO_SOMEONE or _tag(tokens[i + 1]) == "VCP")
        )
    ]
    if honoured and not any(
        t.form in ("엄마", "아빠", "부모", "어머", "아버", "할머", "할아버") for t in tokens
    ):
        return "other"  # "옆자리 과장님 테니스에 빠져서": a colleague's news
    for index, token in enumerate(tokens[:-1]):
        if (
            _tag(token) == "NNG"
            and (token.form in _KO_PERSON_WORDS or token.form in _KO_OTHERS)
            and _tag(tokens[index + 1]) == "MAG"
        ):
            return "other"  # "회사 대표 또 신문에 나옴": a person, then what they did
    if _liked(tokens):
        return "speaker"  # "최애 간식: 붕어빵" (Kiwi: 최 + 애, no child in it)
    if "요즘애들" in "".join(t.form for t in tokens):
        return "other"  # "요즘 애들 틱톡에 빠졌더라": kids these days, nobody's own
    if any(t.form in _KO_CIRCLE for t in tokens):
        return "circle"  # "아빠 다음 주에 수술 받으셔": the speaker's family
    joined = "".join(t.form for t in tokens)
    if any(word in joined for word in ("다들", "남들", "사람들", "누구나", "모두들")):
        return "other"  # "요즘 다들 ...": everybody's habits, not the speaker's
    if _honorific(tokens):
        return "other"  # "-시-" on the predicate: nobody speaks of themselves so
    last = _last_segment(tokens)
    if any(_tag(t) == "VA" and t.form in _KO_MEASURE_OF_A_THING for t in last) and not any(
        _tag(t).startswith(("NN", "NP", "SL", "SN", "NR", "XR")) for t in last
    ):
        return "other"  # "생각해보니 너무 길다": the answer or text at hand, not the speaker
    return "speaker"  # omitted subject: the speaker


def _suggests_a_try(forms: list[str], tags: list[str], index: int) -> bool:
    """ "-어 봐(요)" / "-어 보세요" / "-어 보셈" in the present: trying suggested, not done
    ("해봤어" is past, "해보려고" a plan)."""
    if not (tags[index] == "VX" and forms[index] == "보" and index + 1 < len(forms)):
        return False
    if index < 1 or tags[index - 1] != "EC" or forms[index - 1] not in ("어", "아", "여"):
        return False
    after = forms[index + 1]
    if tags[index + 1] == "EF":
        return after in ("어", "아", "어요", "아요", "세요", "셔요", "셈", "아라", "어라", "라")
    return tags[index + 1] == "EC" and after in ("세", "셈")


# A partner of someone of the speaker's is no kin of the speaker's: "언니 남친이 ...".
_KO_PARTNERS = frozenset("남친 여친 남자친구 여자친구 애인".split())  # noqa: SIM905


def _nested_person(group: list[str]) -> bool:
    """Two people in a row, one of them no kin ("친구 동생", "와이프 친구", "언니 남친"):
    the second is someone of another person's, whose news is not the speaker's."""
    people = [f for f in group if f in _KO_CIRCLE or f in _KO_PERSON_WORDS or f in _KO_OTHERS]
    if len(people) < 2 or group[-1] != people[-1]:
        return False  # "친구 아들 돌잔치가 ...": the person's event, not the person
    owner, person = people[-2], people[-1]
    return (
        owner in _KO_PERSON_WORDS
        or owner in _KO_OTHERS
        or person in _KO_PERSON_WORDS
        or person in _KO_OTHERS
        or person in _KO_PARTNERS
    )


# What is said of a text or a task, not of a person: "너무 길다", "좀 어렵네".
_KO_MEASURE_OF_A_THING = frozenset(
    """길 짧 어렵 쉽 복잡하 간단하 많 적 장황하 빡빡하""".split()  # noqa: SIM905
)
# Particles after a person who is not the one acting: to, with, from.
_KO_TO_SOMEONE = frozenset(
    """한테 에게 께 한테서 에게서 이랑 랑 하고 와 과 처럼 보다""".split()  # noqa: SIM905
)
_KO_LIKING = frozenset(
    """좋아하 사랑하 존경하 응원하 아끼""".split()  # noqa: SIM905
)


def _liked(before: list[Any]) -> bool:
    """The words before a topic say it is the speaker's favourite: "좋아하는 배우는",
    "최애 가수는" (Kiwi may cut "최애" in two)."""
    forms = [t.form for t in before]
    if "최애" in forms or any(
        a == "최" and b == "애" for a, b in zip(forms, forms[1:], strict=False)
    ):
        return True
    return any(
        _tag(t) == "VV" and t.form in _KO_LIKING and _tag(n) == "ETM"
        for t, n in zip(before, before[1:], strict=False)
    )


def _honorific(tokens: list[Any]) -> bool:
    """The honorific "-(으)시-" on a predicate ("하심", "다니셔"): someone else is meant."""
    return any(_tag(t) == "EP" and t.form in ("시", "으시", "셨", "으셨") for t in tokens)


def _ko_tense(tokens: list[Any], text: str) -> str:
    forms = [(t.form, _tag(t)) for t in tokens]
    for i, (form, tag) in enumerate(forms):
        if (
            tag == "ETN"
            and form == "기"
            and i + 2 < len(forms)
            and forms[i + 1][0] == "로"
            and forms[i + 2][0] in ("하", "정하", "결정하")
        ):
            return "plan"
        if tag == "EC" and form in ("려고", "으려고", "려구"):
            return "plan"
        if (form == "예정" or form == "계획") and "없" not in [f for f, _ in forms[i + 1 : i + 3]]:
            return "plan"  # "계획 없으면 불안해": no plan is made
        if (
            tag == "ETM"
            and form in ("ᆯ", "을")
            and i + 1 < len(forms)
            and forms[i + 1][0] in ("거", "것", "예정", "계획")
        ):
            return "plan" if forms[i + 1][0] in ("예정", "계획") else "future"
        if tag == "EF" and form in ("ᆯ게", "을게", "ᆯ게요", "을게요", "겠다"):
            return "future"
    if any(_tag(t) == "EP" and t.form in ("었", "았", "였", "었었", "았었") for t in tokens):
        return "past"
    return "present"


# What one eats, drinks, touches or rides: a condition the body answers the same way each time
# ("우유 마시면 배 아파", "고양이 만지면 재채기 나", "버스 타면 멀미해").
_KO_EXPOSURE = frozenset(
    """먹 마시 닿 만지 바르 타 쐬 피우 맞 씻 입""".split()  # noqa: SIM905
)


def _exposure(before: list[Any]) -> bool:
    """The condition before "-면" is eating, drinking, touching or riding something named
    ("땅콩 먹으면", "햇빛 쐬면"), possibly with "-기만 하-" ("먹기만 하면")."""
    verbs = [t for t in before if _tag(t) in ("VV", "VX", "XSV")]
    if verbs and verbs[-1].form == "하" and len(verbs) > 1:
        verbs = verbs[:-1]  # "먹기만 하면"
    named = any(_tag(t).startswith("NN") for t in before)
    return bool(verbs) and verbs[-1].form in _KO_EXPOSURE and named


def _guessed(tokens: list[Any]) -> bool:
    """A consequence guessed or foretold ("살찔 거야", "아프겠지", "탈 날 듯"), not one known."""
    return any(
        (_tag(t) == "ETM" and t.form in ("ᆯ", "을"))
        or (_tag(t) == "EP" and t.form == "겠")
        or t.form in ("듯", "듯하")
        for t in tokens
    )


# The end of a verb of giving read as one word ("보여주", "알려주", "가르쳐주", "들려주").
_KO_GIVING_ENDS = ("여주", "려주", "쳐주", "와주", "워주", "어주", "아주")


def _ko_mood(tokens: list[Any], text: str, *, own: bool = False) -> str:
    """The kind of sentence the clause is. `own`: the sentence told first what the speaker
    did ("MRI 찍었는데 ..."), so what is reported after it is news of the speaker's own."""
    forms = [t.form for t in tokens]
    tags = [_tag(t) for t in tokens]
    if text.rstrip().endswith("?"):
        return "question"
    last_ending = next(
        (t.form for t in reversed(tokens) if _tag(t) in ("EF", "EC") and t.form != "고"), ""
    )
    if any(f in ("만약", "만일", "혹시") for f in forms):
        return "hypothetical"
    if _farewell(tokens):
        return "greeting"
    for i, token in enumerate(tokens):
        if _tag(token) == "EC" and token.form.endswith(
            ("다면", "라면", "었으면", "았으면", "였으면")
        ):
            return "hypothetical"
        if _tag(token) == "EC" and token.form in ("면", "으면") and i > 0:
            if _hedge_or_otherwise(tokens[:i]):
                continue  # "웬만하면", "가능하면", "안 그러면": no condition is supposed
            if any(
                _tag(t) == "EC"
                and (
                    t.form in ("어서", "아서", "라서", "니까", "으니까")
                    or (t.form == "라" and j > 0 and _tag(tokens[j - 1]) == "VCP")
                )
                for j, t in enumerate(tokens[:i])
            ):
                # "집이 멀어서 약속 잡으면 ...", "INFP라 혼자 있으면 ...": the reason is said
                # to hold
                continue
            if _tag(tokens[i - 1]) == "EP":
                return "hypothetical"  # "고양이였으면": contrary to fact
            if _when_over(tokens[:i]):
                continue  # "나이트 끝나면 멜라토닌 먹고 잠": a time that comes, not a supposition
            if _exposure(tokens[:i]) and not _guessed(tokens[i + 1 :]):
                continue  # "복숭아 먹으면 입이 부어": how the body always answers
            rest = tokens[i + 1 :]
            real = any(_tag(t) == "EP" and t.form in ("었", "았", "였") for t in rest)
            if (
                not real
                and not HABIT.search(text)
                and not any(t.form in ("때", "땐") for t in tokens)
            ):
                return "hypothetical"  # "1등 되면 때려침": a condition never said to hold
        if (
            _tag(token) == "EP"
            and token.form == "겠"
            and not any(t.form in ("좋", "싶") for t in tokens)
            and not _inability_or_feeling(tokens[:i])
        ):
            return "hypothetical"  # "잤겠지": a guess
    if any(_tag(t) == "JKQ" for t in tokens):
        return "quotation"
    spoken = [t for t in tokens if not _tag(t).startswith("S")]
    if (
        spoken
        and _tag(spoken[-1]) == "EC"
        and spoken[-1].form in ("게", "도록", "게끔")
        # "알레르기 있어 심하게": an adverb after a finished statement only adds to it
        and not re.search(r"(?:어|아|해|야|요|음|다|임|함|됨)\s+[가-힣]+게\W*$", text)
        # "등원 8시40분 하원 4시 매일 그렇게": a routine said again, no manner of a task
        and not (HABIT.search(text) and len(spoken) >= 2 and spoken[-2].form in ("그렇", "이렇"))
    ):
        return "request"  # "너무 길지 않게": how a task is to be done, said after it
    if (
        len(spoken) >= 2
        and _tag(spoken[-1]) == "JKB"
        and spoken[-1].form in ("로", "으로")
        and spoken[-2].form in _KO_MANNER_NOUNS
    ):
        return "request"  # "따뜻한 느낌으로", "친근한 톤으로": the manner of a task, said after it
    if any(t.form in ("어야지", "아야지", "야지", "여야지") for t in tokens) and not (
        _KO_DATED.search(text) or HABIT.search(text)
    ):
        return "wish"  # "에어컨 틀어야지": what one means to do right now
    last = _last_segment(tokens)
    dated = _KO_DATED.search(text) or HABIT.search(text)
    if len(last) != len(tokens) and (
        dated or any(_tag(t) == "VCP" for t in tokens[: len(tokens) - len(last)])
    ):
        last = []  # "시작이라 그 주는 정신없을 듯": the fact before the impression stands
    for i, token in enumerate(last):
        following = last[i + 1] if i + 1 < len(last) else None
        hedged_taste = any(t.form in _KO_TASTE for t in last[:i])
        if (
            _tag(token) == "VA"
            and token.form == "같"
            and (following is None or _tag(following) in ("EF", "EC", "ETN"))
            and not hedged_taste
        ):
            return "opinion"  # "성실한 사람 같음", "약한 것 같아": an impression
        if (
            token.form in ("듯", "듯하", "듯싶")
            and _tag(token) in ("NNB", "VA", "VX", "XSA")
            and not hedged_taste
        ):
            # "오래 살듯"; but "라면은 짜파게티가 최고인 듯" is a taste, hedged
            return "opinion"
        if (
            _tag(token) == "EC"
            and token.form in ("어야", "아야", "여야")
            and following is not None
            and following.form in ("되", "하", "돼")
            and not dated
        ):
            return "wish"  # "다이어트 해야 되는데": an obligation, not a fact
        if _tag(token) == "VX" and token.form == "싶":
            return "wish"  # "-고 싶다": a wish
    if _tag_last_ending(tokens) in (
        "네",
        "네요",
        "구나",
        "구나요",
        "군",
        "군요",
        "구먼",
    ):
        return "exclamation"  # "피곤하네": noticed just now
    if last_ending.endswith(_KO_QUOTE_ENDINGS) and not last_ending.endswith(("는데", "ᆫ데")):
        # Hearsay about one's own things ("우리 팀 워크숍 가평이래") is still news of the
        # speaker's; hearsay about the world or about others is not.
        own = (
            own
            or any(
                _tag(t) in ("NP", "MM") and t.form in ("우리", "저희", "내", "제", "울")
                for t in tokens
            )
        ) and not any(
            t.form in _KO_PERSON_WORDS or (_tag(t) == "XSN" and t.form == "님") for t in tokens
        )
        if not own or _tag(tokens[-1]) == "EF" and _predicate_is_verb(tokens):
            return "quotation"
    for i, (form, tag) in enumerate(zip(forms, tags, strict=True)):
        if (
            tag == "EC"
            and form in ("다고", "라고", "냐고", "자고")
            and i + 1 < len(forms)
            and (
                forms[i + 1] in ("하", "그러", "말하")
                # "밥은 먹냐고 문자 보냄", "오라고 전화함": words passed on by a message
                or any(f in _KO_MESSAGE_WORDS for f in forms[i + 1 : i + 4])
            )
            and not any(f in ("주", "달") for f in forms[max(0, i - 2) : i])
        ):
            return "quotation"
        if form == "그러" and tag == "VV" and i + 1 < len(forms) and forms[i + 1] == "는데":
            return "quotation"
    for i, token in enumerate(tokens):
        if _tag(token) in ("NP", "MM", "MAG", "NR") and token.form in _KO_QUESTION_WORDS:
            if any(_tag(t) == "ETM" for t in tokens[i + 1 : i + 4]):
                continue  # "어디 갈 땐": anywhere, inside a modifier, asks nothing
            return "question"
        if token.form in _KO_QUESTION_WORDS and _asked_by_the_copula(tokens[i + 1 :]):
            return "question"  # "칼로리 얼마임", "마감 언제야": the question word is the answer
    if last_ending in _KO_QUESTION_ENDINGS or (tags and tags[-1] == "EC" and forms[-1] == "니"):
        return "question"
    if "어떻" in forms:
        return "question"
    # A request to the assistant: "-어 줘", "-어 주세요", "-줄래", imperatives.
    for i, (form, tag) in enumerate(zip(forms, tags, strict=True)):
        if (
            # Kiwi reads some as one verb: "보여주", "알려주", "가르쳐주"
            (form == "주" or (tag == "VV" and form.endswith(_KO_GIVING_ENDS)))
            and tag in ("VX", "VV")
            and i + 1 < len(forms)
            and (tags[i + 1] == "EF" or (tags[i + 1] == "EC" and forms[i + 1] in ("어", "어요")))
            # "물은 이틀에 한 번 줍니다": 주다 said of what the speaker gives, not asked
            and not (tags[i + 1] == "EF" and forms[i + 1].endswith("니다"))
        ):
            return "request"
        if tag == "EF" and form in ("어라", "아라", "라", "세요", "으세요", "십시오", "자"):
            return "request"
        if _suggests_a_try(forms, tags, i):
            return "request"  # "요가 해봐", "이 책 읽어보세요": a try suggested to someone
    if forms and forms[-1] in ("좀",):
        return "request"
    if (
        tags
        and tags[0] == "IC"
        and forms[0] in ("와", "아", "헐", "오", "우와", "아오", "으")
        and not (
            # "아 나 다음 달에 이사감", "아 그리고 나 요즘 요가 다님" (Kiwi may read the
            # nominal "다님" as a noun: no predicate at all)
            (_predicate_is_verb(tokens) or not _has_predicate(tokens))
            and _names_the_speaker_or_a_day(tokens)
        )
    ):
        return "exclamation"  # "와 월요일 너무 좋다"; "아 나 다음 달에 이사감" tells news
    return "statement"


# Verbs of parting: "내일 봐", "담에 뵐게요", "이따 얘기해".
_KO_PARTING = frozenset(
    """보 뵈 뵙 얘기하 이야기하 연락하 만나""".split()  # noqa: SIM905
)
# Words of when that a parting names ("내일", "이따", "다음에"), nothing else.
_KO_WHEN_WORDS = frozenset(
    """내일 낼 모레 이따 이따가 나중 담 다음 그때 조만간 곧 또 주말 다음주 담주 월요일 화요일
    수요일 목요일 금요일 토요일 일요일 주 날 번 아침 저녁 밤""".split()  # noqa: SIM905
)


# What ends or is left at a time that comes: "수능 끝나면", "퇴근하면", "일 마치면".
_KO_OVER = frozenset(
    """끝나 마치 끝내 퇴근 하원 하교""".split()  # noqa: SIM905
)


def _when_over(before: list[Any]) -> bool:
    """The condition before "-면" is the end of something that will end ("끝나면", "퇴근하면")."""
    words = [t for t in before if _tag(t) in ("VV", "NNG", "XSV")]
    if words and _tag(words[-1]) == "XSV":
        words = words[:-1]
    if not words:
        return False
    last = words[-1].form
    if len(words) >= 2 and words[-2].form == "끝" and last == "나":
        last = "끝나"  # Kiwi now and then reads "끝나면" as 끝 + 나다
    return last in _KO_OVER


def _farewell(tokens: list[Any]) -> bool:
    """A parting that names only when ("내일 봐", "다음 주에 봬요", "이따 얘기해"): small talk,
    no appointment. "내일 친구 만나" names whom and stays a plan."""
    words = [t for t in tokens if not _tag(t).startswith(("S", "E", "J", "IC", "XSN"))]
    verbs = [t for t in words if _tag(t) in ("VV", "VX", "XSV") or t.form in _KO_PARTING]
    if not verbs or not any(t.form in _KO_PARTING for t in verbs):
        return False
    if any(_tag(t) == "EP" for t in tokens):
        return False  # "어제 봤어": something that happened
    ending = next((t.form for t in reversed(tokens) if _tag(t) == "EF"), "")
    if ending.endswith(("ᆷ", "음", "다", "니다")):
        return False  # "내일 봄", "내일 만난다": told, not said in parting
    others = [t for t in words if t not in verbs and _tag(t) != "VCP"]
    whens = [t for t in others if t.form in _KO_WHEN_WORDS]
    # "내일 다시 봐요": an adverb is no object; "이따 얘기해": the noun of the verb is none
    spoken = [
        t
        for t in others
        if t.form not in ("얘기", "이야기", "연락") and (_tag(t) != "MAG" or t in whens)
    ]
    return bool(whens) and len(spoken) == len(whens)


def _asked_by_the_copula(after: list[Any]) -> bool:
    """A question word that is the predicate: only the copula and endings follow it ("얼마야",
    "언제임"); "얼마 전에" or "몇 년째" go on with a noun and ask nothing."""
    rest = [t for t in after if not _tag(t).startswith("S")]
    return bool(rest) and _tag(rest[0]) == "VCP" and all(_tag(t).startswith("E") for t in rest[1:])


def _inability_or_feeling(before: list[Any]) -> bool:
    """ "못 하겠어", "미치겠음": "-겠-" after a negation or a feeling tells how one is, not a
    guess."""
    if not before:
        return False
    last = before[-1]
    if last.form in ("못하", "않") or any(t.form == "못" and _tag(t) == "MAG" for t in before[-3:]):
        return True
    return _tag(last) in ("VA", "VV", "XSA") and (
        last.form in _KO_MOMENTARY
        or (len(before) >= 2 and before[-2].form + last.form in _KO_MOMENTARY)
    )


_HEDGES = ("웬만하", "가능하", "되도록이", "가급적이", "될수있으")


def _hedge_or_otherwise(before: list[Any]) -> bool:
    """The words before a "-면" make a hedge ("웬만하면", "가능하면": as a rule) or an
    "otherwise" ("안 그러면", "아니면"), not a supposition."""
    joined = "".join(t.form for t in before[-3:])
    if joined.endswith(_HEDGES):
        return True
    last = before[-1]
    if last.form in ("그러", "그렇") and any(t.form in ("안", "않") for t in before[-3:]):
        return True
    return last.form == "아니" or (
        last.form in ("그러", "그렇") and len(before) >= 2 and before[-2].form in ("안", "않", "지")
    )


# A day or a time said in the clause: "가야 돼" then tells a plan, not a duty one feels.
_KO_DATED = re.compile(
    r"\d+\s*월|\d+\s*일|요일|내일|모레|다음\s*주|이번\s*주|다음\s*달|주말|\d+\s*시|"
    # chat spellings: "담주", "담달", "토욜"
    r"담주|담달|[월화수목금토일]욜"
)


def _last_segment(tokens: list[Any]) -> list[Any]:
    """The tokens after the last connective that something follows ("시작이라 | 정신없을
    듯"): an impression or wish there colours that part only."""
    start = 0
    for index, token in enumerate(tokens[:-1]):
        if (
            _tag(token) == "EC"
            and token.form
            in (
                "어서",
                "아서",
                "서",
                "라서",
                "라",
                "니까",
                "으니까",
                "니",
                "으니",
                "는데",
                "ᆫ데",
                "은데",
                "고",
            )
            and any(_is_predicate(t) for t in tokens[index + 1 :])
        ):
            start = index + 1
    return tokens[start:]


def _names_the_speaker_or_a_day(tokens: list[Any]) -> bool:
    """ "아 나 다음 달에 이사감": news the speaker announces, not a cry at what just happened."""
    # after a cry Kiwi may read the pronoun "저" as a hesitation ("아 저 요즘 ...")
    return any(
        (_tag(t) == "NP" and t.form in _KO_SPEAKER) or (_tag(t) == "IC" and t.form == "저" and i)
        for i, t in enumerate(tokens)
    ) or bool(_KO_DATED.search("".join(t.form for t in tokens)))


def _tag_last_ending(tokens: list[Any]) -> str:
    return next((t.form for t in reversed(tokens) if _tag(t) == "EF"), "")


def _predicate_is_verb(tokens: list[Any]) -> bool:
    """The last predicate is an action verb ("결혼한대"), not a copula ("가평이래")."""
    last = next((t for t in reversed(tokens) if _is_predicate(t) or _tag(t) == "VCP"), None)
    return last is not None and _tag(last) in ("VV", "XSV")


def _ko_negated(tokens: list[Any]) -> bool:
    for index, token in enumerate(tokens):
        if _tag(token) == "MAG" and token.form in ("안", "못"):
            return True
        if _tag(token) == "VX" and token.form in ("않", "못하", "말"):
            return True
        if token.form == "없" and _tag(token) == "VA":
            return True
        if _tag(token) == "VCN":
            return True
        del index
    return False


def _ko_predicate(tokens: list[Any]) -> str:
    main = ""
    for index, token in enumerate(tokens):
        tag = _tag(token)
        if _misread_seo(tokens, index):
            continue
        if tag in ("VV", "VA"):
            main = token.form
        elif tag in ("XSV", "XSA") and index > 0:
            main = tokens[index - 1].form + token.form
    return main


# Events that change the speaker's life for good, even when they happened today.
_KO_LIFE_EVENTS = frozenset(
    """합격 통과 붙 졸업 입학 입사 퇴사 취업 이직 승진 결혼 약혼 이혼 출산 임신 이사 전역 입대
    수료 개업 창업 등록 당첨 완주 은퇴 상견례 발령 계약 취득 따""".split()  # noqa: SIM905
)


def _only_this(tokens: list[Any], tense: str) -> bool:
    """A standing choice of one thing only, told in the present with no moment named ("가방은
    백팩만 메요", "커피는 디카페인만 마셔"): it lasts, even after a reason that is a feeling
    ("어깨가 안 좋아서 ...")."""
    if tense != "present" or any(t.form in _KO_NOW for t in tokens):
        return False
    return (
        any(
            t.form == "만" and _tag(t) == "JX" and i > 0 and _tag(tokens[i - 1]).startswith("NN")
            for i, t in enumerate(tokens)
        )
        and _tag(tokens[-1]) == "EF"
        and any(_tag(t) in ("VV", "XSV") for t in tokens)
    )


def _ko_momentary(tokens: list[Any], predicate: str, tense: str) -> bool:
    forms = [t.form for t in tokens]
    if any(_tag(t) == "EF" and t.form in ("ᆯ게", "을게", "ᆯ게요", "을게요") for t in tokens):
        lasting = any(
            t.form in ("부터", "마다") and i > 0 and tokens[i - 1].form not in ("지금", "이제")
            for i, t in enumerate(tokens)
        )
        if not lasting:
            return True  # "하나 할게", "지금부터 시작할게": what one does in this conversation
    if tense in ("plan", "future"):
        return False
    if tense == "past" and predicate.removesuffix("하") in _KO_LIFE_EVENTS:
        return False  # "오늘 운전면허 합격했어": what happened today and stays true
    now = [f for i, f in enumerate(forms) if f in _KO_NOW and forms[i + 1 : i + 2] != ["로"]]
    from_now = any(
        f in _KO_NOW and i + 1 < len(forms) and forms[i + 1] in ("부터", "마다")
        for i, f in enumerate(forms)
    )
    if from_now:
        return False
    stem = predicate.removesuffix("하")
    spaced = " ".join(forms)
    if _felt(tokens) or _bare_act(tokens, tense) or _reaction(tokens):
        return not HABIT.search(spaced)
    if predicate in _KO_MOMENTARY or stem in _KO_MOMENTARY:
        if not now and (
            any(f in _KO_SUPERLATIVE for f in forms)
            or ("더" in forms and any(_tag(t) == "JKB" and t.form == "보다" for t in tokens))
            or (predicate == "좋" and _topic_then_choice(tokens))
        ):
            # "클라이밍이 제일 재밌음", "A보다 B가 더 좋음": a comparison that lasts, a taste
            return False
        if not now and any(
            _tag(t) == "EC" and t.form in ("어도", "아도", "여도", "해도", "면", "으면")
            for t in tokens
        ):
            # "털 닿기만 해도 가려움", "7시 넘으면 졸려": how the body always answers, not a
            # moment (a "-면" left in a statement is a standing condition)
            return False
        return not HABIT.search(spaced)
    if now and not HABIT.search(spaced):
        for i, token in enumerate(tokens[:-1]):
            word = token.form + (tokens[i + 1].form if _tag(tokens[i + 1]) == "XSA" else "")
            if token.form in _KO_MOMENTARY and _tag(token) in ("VA", "VV"):
                return True  # "지금 너무 졸려서 ...": a passing state is the reason
            if word in _KO_MOMENTARY and _tag(tokens[i + 1]) == "XSA":
                return True
    if "덕분" in forms:
        return True  # thanks for the help just given
    if not HABIT.search(spaced) and (
        _not_in_the_mood(tokens)
        or _device_state(forms)
        or _becoming(tokens, tense)
        or _KO_CROWDED.search("".join(forms))
    ):
        return True
    if not now:
        return False
    verbs = {t.form for t in tokens if _tag(t) == "VV"}
    if (
        "지금" in now
        and verbs
        # ("사" too: Kiwi reads the "사는" of "원룸 사는데" (살다) as 사다)
        and not verbs & (_KO_LASTING | _KO_DECISION | {"사"})
        and not _standing(tokens)
        and not HABIT.search(spaced)
    ):
        return True  # "지금 버스 놓침", "지금 카드 잃어버림": what just happened
    if set(now) <= {"지금", "요즘"}:
        # "지금 밴쿠버 살아": a state that lasts, told by an action verb; "지금 지하철인데",
        # "지금 너무 피곤해": where or how one is at the moment; "지금 대리예요", "지금 3년차":
        # a standing at work or school, which lasts.
        return not any(_tag(t) == "VV" for t in tokens) and not _standing(tokens)
    return True


def _topic_then_choice(tokens: list[Any]) -> bool:
    """ "회의는 오전이 좋아요", "여행은 혼자가 좋음": a topic, then the choice for it, then
    "좋다": a taste that lasts, not how one feels."""
    topic = next(
        (i for i, t in enumerate(tokens) if _tag(t) == "JX" and t.form in ("은", "는", "ᆫ")),
        None,
    )
    if topic is None or topic == 0 or not _tag(tokens[topic - 1]).startswith(("NN", "SL")):
        return False
    if tokens[topic - 1].form in _KO_NOW or tokens[topic - 1].form in ("요즘", "요새", "최근"):
        return False  # "요즘은 컨디션이 좋아": how one is these days
    return any(
        _tag(t) == "JKS" and _tag(tokens[i - 1]).startswith(("NN", "SL", "NP"))
        for i, t in enumerate(tokens)
        if i > topic + 1
    )


def _felt(tokens: list[Any]) -> bool:
    """A feeling said as a noun and the verb it comes with ("짜증남", "화나", "소름돋음"):
    Kiwi reads "짜증/NNG 나/VV", so the predicate alone ("나") does not name the feeling."""
    return any(
        _tag(noun) == "NNG" and _tag(verb) == "VV" and noun.form + verb.form in _KO_MOMENTARY
        for noun, verb in zip(tokens, tokens[1:], strict=False)
    )


def _reaction(tokens: list[Any]) -> bool:
    """A word of feeling said with the copula and nothing else ("대박이야", "최고임"): a
    reaction to what is at hand."""
    words = [t for t in tokens if not _tag(t).startswith(("E", "S"))]
    if len(words) < 2 or _tag(words[-1]) != "VCP":
        return False
    noun = words[:-1]  # Kiwi may cut the word in two ("대/XPN 박/NNG")
    return all(_tag(t) in ("XPN", "NNG", "XSN") for t in noun) and (
        "".join(t.form for t in noun) in _KO_MOMENTARY
    )


def _bare_act(tokens: list[Any], tense: str) -> bool:
    """An act named by its verbal noun and nothing else, in the present ("출근함", "나
    운동함", "퇴근해"): what the speaker is doing as they type; no object, place or time
    makes it a fact. A life event ("이직함", "결혼함") stays: it changes things for good."""
    if tense != "present":
        return False
    words = [
        t
        for t in tokens
        # a word in Latin letters or a number is a word ("MICU에서 일함": a place)
        if (not _tag(t).startswith(("E", "S", "J")) or _tag(t) in ("SL", "SH", "SN"))
        and not (_tag(t) in ("NP", "MM") and t.form in _KO_SPEAKER)
    ]
    return (
        len(words) == 2
        and _tag(words[0]) == "NNG"
        and _tag(words[1]) == "XSV"
        and words[0].form not in _KO_LIFE_EVENTS
    )


def _not_in_the_mood(tokens: list[Any]) -> bool:
    """ "아무것도 하기 싫다", "출근하기 싫음": not wanting to do something, said as the clause's
    last word, is a mood; "X 싫어해" (a dislike) and "하기 싫어서 ..." (a reason) are not."""
    for index, token in enumerate(tokens[:-1]):
        if not (_tag(token) == "ETN" and token.form == "기"):
            continue
        rest = tokens[index + 1 :]
        if rest and _tag(rest[0]) == "JX":
            rest = rest[1:]  # "하기도 싫다", "하기는 싫어"
        if not rest or not (_tag(rest[0]) == "VA" and rest[0].form == "싫"):
            continue
        after = rest[1:]
        if all(_tag(t).startswith(("E", "S")) for t in after) and not any(
            _tag(t) == "EC" and t.form in _BACKGROUND_ENDINGS for t in after
        ):
            return True
    return False


# What a phone or a laptop is doing at the moment: "배터리 5% 남음", "와이파이 또 끊김".
_KO_DEVICE_STATE = frozenset(
    """배터리 와이파이 렉 버퍼링 로딩 충전중""".split()  # noqa: SIM905
)


# How full a place is: "카페에 사람 개많음", "자리 없음", "줄 엄청 김", "지하철 붐빔".
_KO_CROWDED = re.compile(
    # (not "사람 많은 곳": a kind of place, said of a taste)
    r"사람(?:이)?(?:개|너무|진짜|존나|엄청|겁나|완전|꽤|넘)?많(?!은|던)|"
    r"자리(?:가)?(?:하나도|진짜|또)?없(?!는|던)|줄(?:이)?(?:개|너무|진짜|엄청|완전)?길(?!ᆫ)|"
    r"붐비(?!는)|미어터지"
)


def _device_state(forms: list[str]) -> bool:
    return any(f in _KO_DEVICE_STATE for f in forms) and not any(
        f in _KO_PREFERENCE or f in ("좋아하", "싫어하") for f in forms
    )


def _becoming(tokens: list[Any], tense: str) -> bool:
    """ "회의 또 길어짐", "갑자기 추워짐": something turning so as one speaks (an adjective
    with "-어지다", not in the past, no "요즘")."""
    if tense == "past" or any(t.form in ("요즘", "최근") for t in tokens):
        return False
    return any(
        _tag(a) == "VA" and _tag(b) == "EC" and b.form in ("어", "아") and c.form == "지"
        for a, b, c in zip(tokens, tokens[1:], tokens[2:], strict=False)
    )


def _standing(tokens: list[Any]) -> bool:
    """A job or a rank ("대리", "팀장", "학생") or a year of it ("3년차", "2학년")."""
    joined = "".join(t.form for t in tokens)
    return any(t.form in KO_JOBS for t in tokens) or bool(
        re.search(r"\d+\s*(?:년\s*차|년차|학년|개월\s*차)", joined)
    )


# Tokens dropped from a Korean phrase: the speaker's pronoun and particle, discourse words.
_KO_DROP_WORDS = frozenset(
    """ㅇㅇ 개 그래서 그런데 그리고 근데 네 사실 아 아무튼 암튼 와 완전 음 응 이제 진짜
    참 헐 대박 세상에 아싸 야호 앗 어머 아이고 에휴 휴 오 우와 헐랭 있잖아""".split()  # noqa: SIM905
)


def _words(text: str, tokens: list[Any], offset: int) -> list[tuple[str, list[Any]]]:
    """The clause's words as written, each with its morphemes (Kiwi's positions; the clause
    starts at `offset` of the analysed sentence)."""
    out: list[tuple[str, list[Any]]] = []
    for match in re.finditer(r"\S+", text):
        start, end = match.start() + offset, match.end() + offset
        inside = [t for t in tokens if start <= t.start < end]
        out.append((match.group(0), inside))
    return out


def _droppable(word: list[Any], *, leading: bool) -> bool:
    """A word a clean note leaves out: the speaker's pronoun, "우리"/"제" before a noun,
    and (at the start) interjections, conjunctions and fillers."""
    if not word:
        return True
    first = word[0]
    tag, form = _tag(first), first.form
    if (
        tag in ("NP", "IC")
        and form in {"나", "저"}
        and all(_tag(t) in ("NP", "IC", "JX", "JKS", "JKG") for t in word)
    ):
        return True
    if leading and len(word) == 1 and form == "저" and tag == "MM":
        return True  # "저 다음 달부터 ...": Kiwi reads the pronoun as "that"
    if tag in ("NP", "MM") and form in {"내", "제", "우리", "저희", "울"} and len(word) == 1:
        return True
    if leading and all(
        _tag(t) in ("IC", "MAJ", "SW", "SF", "SP") or t.form in _KO_DROP_WORDS for t in word
    ):
        return True
    return all(_tag(t) in ("SW", "SF", "SP", "SE") for t in word)


def _ending_of(word: list[Any], *, tense: str) -> str:
    """The last word with a nominal ending: "살아" -> "삶", "이사했어" -> "이사함"."""
    morphs = [(t.form, str(t.tag)) for t in word if _tag(t) not in ("SW", "SF", "SP", "SE")]
    past = any(tag == "EP" for _, tag in morphs)
    if tense != "future":
        morphs = [(f, t) for f, t in morphs if not (t == "EP" and f in ("었", "았", "였", "었었"))]
    if morphs and (
        morphs[-1][1] == "ETN" or (morphs[-1][1] == "EF" and morphs[-1][0] in ("ᆷ", "음"))
    ):
        return str(_analyser().join(morphs)).replace(" ", "")
    if (morphs and morphs[-1][0] == "는데") or (
        len(morphs) >= 2 and morphs[-1] == ("데", "NNB") and morphs[-2][0] == "는"
    ):
        # Before "-는(데)" a stem may have lost its "ㄹ" ("사는데": 살다 or 사다?); the word as
        # written is kept rather than a guess.
        stem = next((f for f, t in reversed(morphs) if t.split("-")[0] in ("VV", "VA")), "")
        open_syllable = stem and "가" <= stem[-1] <= "힣" and (ord(stem[-1]) - 0xAC00) % 28 == 0
        if open_syllable and not past:  # "봤는데": the past leaves no doubt
            return ""
        morphs = morphs[:-2] if morphs[-1][0] == "데" else morphs[:-1]
    while morphs and morphs[-1][1].startswith(("E", "J")) and morphs[-1][1] != "ETN":
        morphs.pop()
    if not morphs:
        return ""
    last_form, last_tag = morphs[-1]
    if last_tag.split("-")[0] in ("VV", "VA", "VX", "VCP", "VCN", "XSV", "XSA", "EP"):
        code = ord(last_form[-1]) - 0xAC00 if "가" <= last_form[-1] <= "힣" else -1
        batchim = code >= 0 and code % 28 not in (0, 8)  # a final consonant other than ㄹ
        morphs.append(("음" if batchim else "ᆷ", "ETN"))
    return str(_analyser().join(morphs)).replace(" ", "")


def _ko_content(text: str, tokens: list[Any], *, tense: str) -> str:
    """A short nominalised note in the user's words: "서울 강남에 삶"."""
    words = _words(text, tokens, tokens[0].start if tokens else 0)
    kept: list[str] = []
    for index, (surface, word) in enumerate(words):
        if _droppable(word, leading=not kept):
            continue
        # A subject particle cannot end a clause: "이름 까망이" ends in a name (Kiwi may read
        # it 까/VV 망 이/JKS); it is kept as written.
        ends_in_subject = bool(word) and _tag(word[-1]) in ("JKS", "JKC")
        if (
            index == len(words) - 1
            and not ends_in_subject
            and any(_is_predicate(t) or _tag(t) in ("EP", "VX") for t in word)
        ):
            # Drop a leading pronoun fused to the word ("나오늘부터헬스다닌다").
            while word and _tag(word[0]) == "NP" and word[0].form in {"나", "저"}:
                word = word[1:]
                while word and _tag(word[0]) in ("JX", "JKS"):
                    word = word[1:]
            if (
                index > 1
                and words[index - 1][0].startswith("이름")
                and words[index - 2][0] not in ("제", "내", "나의", "저의", "나", "저")
                and _a_name(word)
            ):
                # "강아지 이름 콩이야": the name as written ("콩이" or "콩"+"이야" cannot be
                # told apart), without the ending, never "콩임"
                kept.append(_NAME_ENDING.sub("", surface.rstrip(".,!~")))
                continue
            # Keep the word's stem as written, then the nominal ending.
            ending = _ending_of(word, tense=tense)
            kept.append(ending or surface)
            continue
        kept.append(_NOISE.sub("", surface).rstrip(".,!~"))
    return re.sub(r"\s+", " ", " ".join(k for k in kept if k)).strip(" ,.")


_NAME_ENDING = re.compile(r"(?:입니다|예요|에요|야|다|임)$")


def _a_name(word: list[Any]) -> bool:
    """A noun and the copula alone: "콩이야", "보리예요"."""
    tags = [_tag(t) for t in word if not _tag(t).startswith("S")]
    return (
        len(tags) >= 3
        and tags[-2:] == ["VCP", "EF"]
        and all(t.startswith(("NN", "XSN", "SL")) for t in tags[:-2])
    )


def _plain(tokens: list[Any]) -> str:
    """The clause as a plain first-person present statement, for the slot rules."""
    morphs = [(t.form, str(t.tag)) for t in tokens]
    while morphs and morphs[-1][1].startswith(("E", "SF", "SW", "SP")):
        morphs.pop()
    if not morphs:
        return ""
    if morphs[-1][1].split("-")[0] in ("VV", "VA", "VX", "VCP", "XSV", "XSA", "EP"):
        morphs.append(("어", "EF"))
    return str(_analyser().join(morphs))


def clause_type(tokens: list[Any], text: str, predicate: str, tense: str, day: date | None) -> str:
    forms = {t.form for t in tokens}
    if tense == "plan" and day is None and ("기" in forms or "정하" in forms):
        return "decision"
    if predicate in _KO_DECISION or "결정" in forms:
        return "decision" if tense in ("past", "plan", "present") and day is None else "episode"
    if HABIT.search(text) and day is None:
        return "procedure"
    if day is not None or tense in ("plan", "future"):
        return "episode"
    if (
        predicate in _KO_PREFERENCE
        or forms & {"좋아하", "싫어하", "선호", "좋아"}
        or any(word in text for word in _KO_TASTE)
    ):
        return "preference"
    if predicate == "좋" and _topic_then_choice(tokens):
        return "preference"
    if (forms & _KO_SUPERLATIVE or {"보다", "더"} <= forms) and any(
        _tag(t) in ("VA", "XSA") for t in tokens
    ):
        return "preference"  # "제일 좋음", "A보다 B가 더 좋음": a taste by comparison
    if tense == "past" and _KO_PAST_DAY.search(text):
        return "episode"
    return "fact"


# What carries someone's words to the speaker, after a quoting "-냐고", "-라고".
_KO_MESSAGE_WORDS = frozenset(
    """문자 카톡 톡 메시지 메세지 연락 전화 편지 메일 물어보 묻 잔소리 말씀""".split()  # noqa: SIM905
)
# A saying handed down or someone's favourite words ("옛말에 ...", "할머니가 늘 말씀하셨듯이
# ...", "아빠 입버릇이 ..."): the whole sentence is quoted wisdom, not the speaker's news.
_KO_SAYING = re.compile(
    r"옛말|속담|격언|명언|입버릇|말마따나|(?:말씀|말)\s*(?:하|하셨|했|하시)?(?:듯이|듯)(?![가-힣])|"
    r"(?:하는|하던|하시던|하시는|하신)\s*말(?:씀)?(?:이|처럼|대로)(?![가-힣])|"
    # "영감이 그카대 ...", "과장님이 그러더라 ...": what someone said, told after "그러다"
    r"(?<=[가-힣][이가]\s)(?:그러|그카|그캐|그라|카)(?:더라|대|데|던데|드라|더라고|드라고)(?:요)?(?=\s)"
)


def _a_saying(sentence: str) -> bool:
    """Quoted wisdom: a proverb, a motto, or what someone named (or honoured) says; "(내가)
    전에 말했듯이 ..." is the speaker's own words said again, and what follows stands."""
    for match in _KO_SAYING.finditer(sentence):
        said, before = match.group(0), sentence[: match.start()]
        if not said.startswith(("말", "하")) or "시" in said or "씀" in said:
            return True
        if re.search(r"[가-힣](?:가|이|께서)\s", before) and not re.search(
            r"(?:^|\s)(?:내가|제가)\s", before
        ):
            return True
    return False


_QUOTE_STAND_IN = "그 말"
_SPEECH_AFTER_QUOTE = re.compile(r"^\s*(?:하|라고|이라고|라는|이라는|란|그러|했|라며|이래|래)")


def read(sentence: str) -> list[tuple[Clause, list[Any]]]:
    """The clauses of one Korean sentence, each with its morphemes."""
    first_quote = _QUOTED.search(sentence)
    reported = bool(first_quote and _SPEECH_AFTER_QUOTE.match(sentence[first_quote.end() :]))
    quotes = [m.group(0) for m in _QUOTED.finditer(sentence)]
    sentence = _QUOTED.sub(_QUOTE_STAND_IN, sentence)
    tokens = _ko_tokens(sentence)
    out = []
    saying = _a_saying(sentence)
    whole_mood = "quotation" if reported or saying else _ko_mood(tokens, sentence)
    supposed = any(t.form in ("만약", "만일") for t in tokens)
    parts = _ko_clauses(tokens)
    ends_quoted = bool(parts) and _ko_mood(parts[-1], "") == "quotation" or len(parts) < 2
    passing = False
    now_said = False  # a moment named ("지금 졸려서 ..."): what follows happens in it
    firsthand = False
    for part in parts:
        if not part:
            continue
        text = sentence[part[0].start : part[-1].start + part[-1].len]
        mood = _ko_mood(part, text, own=firsthand)
        # A question or a quotation colours every clause; reported words that open the
        # sentence ("전단계래서 요즘 현미밥 먹어요") only their own clause, and what the
        # speaker did before the report ("필라테스 끊었는데 강사님이 ...하지 말래") is not
        # reported: it stands.
        colours = (
            whole_mood == "question"
            or saying
            or (
                whole_mood == "quotation"
                and (reported or ends_quoted)
                and not (firsthand or _firsthand(part))
            )
        )
        firsthand = firsthand or _firsthand(part)
        if colours and mood == "statement":
            mood = whole_mood
        if mood == "hypothetical":
            supposed = True  # what follows a condition is supposed too ("되면 집 사고 ...")
        if whole_mood == "hypothetical" and supposed and mood == "statement":
            mood = "hypothetical"
        tense = _ko_tense(part, text)
        predicate = _ko_predicate(part)
        subject = _ko_subject(part)
        content = _ko_content(text, part, tense=tense)
        for quote in quotes:  # the quoted words back in place of their stand-in
            content = content.replace(_QUOTE_STAND_IN, quote, 1)
        clause = Clause(
            text=text,
            lang="ko",
            subject=subject,
            predicate=predicate,
            tense=tense,
            negated=_ko_negated(part),
            mood=mood,
            momentary=(passing or _ko_momentary(part, predicate, tense))
            and not (_only_this(part, tense) and not now_said),
            content=content,
            plain=_plain(part),
            verbless=not _has_predicate(part),
        )
        out.append((clause, part))
        # "지금 지하철인데 | 사람 많아", "지금 졸려서 | 생각이 안 남": what follows a passing
        # background or reason happens in the same moment.
        passing = clause.momentary and part[-1].form in _BACKGROUND_ENDINGS
        now_said = now_said or any(t.form in _KO_NOW for t in part)
    return out


_REASON_ENDINGS = frozenset(
    """는데 ᆫ데 은데 어서 아서 여서 라서 이라서 라 니까 으니까""".split()  # noqa: SIM905
)


def _firsthand(tokens: list[Any]) -> bool:
    """A clause of background or reason telling what the speaker did or is doing ("MRI
    찍었는데", "한약 먹는 중이라"): known firsthand, never hearsay."""
    if not tokens or _ko_subject(tokens) != "speaker":
        return False
    last = tokens[-1]
    ends = (_tag(last) == "EC" and last.form in _REASON_ENDINGS) or (
        _tag(last) == "NNB" and last.form == "데"
    )
    acted = any(_tag(t) in ("VV", "XSV") for t in tokens)
    done = any(_tag(t) == "EP" and t.form in ("었", "았", "였") for t in tokens)
    ongoing = any(_tag(t) == "NNB" and t.form == "중" for t in tokens)
    return ends and acted and (done or ongoing)


# "몸무게 72키로", "연봉 4200": a measure of the speaker and its value.
_ATTRIBUTE = re.compile(
    r"(?:^|\s)(?:몸무게|체중|키|연봉|월급|나이|혈압|시력|혈액형|신발\s*사이즈|토익|토플|mbti)"
    r"\s*(?:은|는|이|가)?\s*\d"
)


def fragment(clause: Clause, tokens: list[Any]) -> bool:
    """A few words without a verb and without a topic ("출근 최고", "2종 보통"): no statement."""
    if len(clause.content.split()) == 1 and not any(
        _tag(t).startswith(("NNG", "NNP", "SL", "SN")) for t in tokens
    ):
        return True  # "아님", "부러움": a reaction of one word
    counted = re.search(
        r"\d+\s*(?:일|년|개월|주|달)\s*(?:째|차)", clause.text
    ) or _ATTRIBUTE.search(clause.text)
    # "민트초코 극혐" (a taste in a word), "올해 목표 정보처리기사" (an aim), "우쿨렐레 독학 중"
    # (something under way for weeks): statements without a verb.
    # (Kiwi cuts "최애" in two now and then: the text is read, not the morphemes)
    said = any(word in clause.text for word in _KO_TASTE_ALONE | _KO_AIMS) or _KO_UNDER_WAY.search(
        clause.text
    )
    if _change_without_its_value(tokens, clause.text) or _bare_proper_noun(tokens):
        return True
    if _only_so(tokens):
        return True  # "그냥 그럼", "뭐 그렇다고": it is so, and nothing said of what
    if _KO_CLOCK_HABIT.search(clause.text):
        return False  # "나 12시쯤 잠": Kiwi reads the nominal "잠" as a noun; it is 자다
    return (
        not _has_predicate(tokens)
        and not _topic_comment(tokens)
        and not counted
        and not said
        and not HABIT.search(clause.text)  # "월요일마다 필라테스": a routine in two words
        and len(clause.text.split()) < _FRAGMENT_WORDS
    )


def _only_so(tokens: list[Any]) -> bool:
    """Only "그렇다" or "그러다" with adverbs and endings: a clause that points back, no more."""
    pointing = [t for t in tokens if t.form in ("그렇", "그러") and _tag(t) in ("VA", "VV")]
    return bool(pointing) and all(
        t in pointing
        or _tag(t) in ("MAG", "MAJ", "IC", "EP", "EF", "EC", "ETN", "JX")
        or _tag(t).startswith("S")
        for t in tokens
    )


# When one sleeps or gets up, said with the clock and a nominal verb ("12시쯤 잠", "7시 기상").
_KO_CLOCK_HABIT = re.compile(
    r"\d{1,2}\s*시\s*(?:반|쯤|경)?\s*(?:에\s*)?(?:잠|잠듦|취침|기상|일어남)\s*[.!~]*$"
)


# Verbs of a change from one thing to another ("회사 옮김", "폰 바꿈", "통신사 갈아탐").
_KO_CHANGE_VERBS = frozenset(
    """옮기 바꾸 갈아타 바뀌 옮겨지""".split()  # noqa: SIM905
)
# Particles that name where a change goes or comes from ("카카오로", "삼성에서").
_KO_CHANGE_ENDS = frozenset(
    """로 으로 에서 에서부터 부터""".split()  # noqa: SIM905
)


def _change_without_its_value(tokens: list[Any], text: str) -> bool:
    """A change that names only what changed, not what it became ("회사도 옮김", "폰
    바꿨어"): the thing the memory would be about is missing. With where it went ("카카오로
    회사 옮김"), what it left ("삼성에서 나옴"), or a day ("다음 달에 회사 옮김") it is news."""
    if not any(_tag(t) == "VV" and t.form in _KO_CHANGE_VERBS for t in tokens):
        return False
    if any(_tag(t) in ("JKB", "JX") and t.form in _KO_CHANGE_ENDS for t in tokens):
        return False
    if _KO_DATED.search(text) or HABIT.search(text):
        return False
    nouns = [t for t in tokens if _tag(t).startswith(("NNG", "NNP", "SL", "SN", "XR"))]
    return len(nouns) <= 1


def change_then_value(tokens: list[Any], following: list[Any]) -> bool:
    """A change that names what changed but not what it became ("러닝 요일 바꿨어", "미팅 시간
    옮김"), before a clause that says what it is now ("이제 일요일 아침에 뛰어"): one fact."""
    if not any(_tag(t) == "VV" and t.form in _KO_CHANGE_VERBS for t in tokens):
        return False
    if any(_tag(t) in ("JKB", "JX") and t.form in _KO_CHANGE_ENDS for t in tokens):
        return False
    return any(t.form in ("이제", "이제부터", "앞으로", "지금은") for t in following[:2])


def _bare_proper_noun(tokens: list[Any]) -> bool:
    """The speaker "is" a proper noun that is no person's name ("나 서울이야", "판교임"): a
    place said without what it is to the speaker (lives, works, travels, comes from).
    Names are read before this (`memories.logic.statements.names`)."""
    words = [
        t
        for t in tokens
        if not _tag(t).startswith(("E", "S"))
        and not (_tag(t) in ("NP", "MM") and t.form in _KO_SPEAKER)
        and not (_tag(t) in ("JX", "JKS") and t.form in ("는", "은", "ᆫ"))
    ]
    return (
        len(words) == 2
        and _tag(words[0]) == "NNP"
        and _tag(words[1]) == "VCP"
        and not personal_name(words[0].form)
    )


def _has_predicate(tokens: list[Any]) -> bool:
    return any(_is_predicate(t) or _tag(t) in ("ETN", "EF", "EP") for t in tokens)


def _topic_comment(tokens: list[Any]) -> bool:
    """ "커피는 무조건 아아", "이름은 모찌": a topic and what is said of it, without a verb."""
    for index, token in enumerate(tokens[:-1]):
        if _tag(token) == "JX" and token.form in ("은", "는", "ᆫ") and index > 0:
            return any(not _tag(t).startswith("S") for t in tokens[index + 1 :])
    return False


_FRAGMENT_WORDS = 4
_KO_AIMS = frozenset(
    """목표 꿈 다짐 결심 버킷리스트 새해목표""".split()  # noqa: SIM905
)
# What goes on for weeks or months, said as "N 중" ("다이어트 중", "독학 중"); a meeting or a
# drive ("회의 중", "운전 중") is of the moment and not here.
_KO_UNDER_WAY = re.compile(
    r"(?:독학|공부|다이어트|식단|준비|휴직|육아휴직|육아|재택|연애|치료|교정|금연|금주|단식|투병|"
    r"재활|연습|수강|취준|구직|재학|휴학|복학|임신|수련|훈련|적응|배우는|연재|자취|별거|"
    r"리모델링|백수)\s*중(?![가-힣])"
)
