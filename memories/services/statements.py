"""Offline analysis of what a user says about themselves: pure functions over Kiwi tokens.

Each sentence is cut into clauses (Korean at a coordinating "-고"/"-며", English at "and"
before a new verb or "I"), and each clause is read for its subject (the speaker, someone of the
speaker's circle, somebody else, or the assistant), predicate, tense (past, present, future,
plan), negation and kind of sentence (statement, question, hypothetical, quotation, request,
exclamation), whether it tells a passing state ("배고파", "I'm tired right now") and whether it
is an aside or a retraction ("농담이야", "asking for a friend"). A clause about the speaker that
states something lasting is memorable, typed (fact, preference, episode, procedure, decision)
and rewritten as a clean phrase in the user's language: Korean as a nominalised phrase without
the pronoun ("서울 강남에 삶"), English without the subject, in the third person ("Lives in
Gangnam, Seoul"), relative dates made absolute against the message's date.

No templates of whole sentences: the decisions come from the grammar of the clause (Kiwi's EF
endings, EC connectives, EP tense, VV/VA predicates, NP pronouns, JKS/JX particles) and, in
English, from a small clause reading (pronouns, auxiliaries, verb forms).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from memories import dates
from memoryhub.text import REDACTION_MARKER, _analyser, has_hangul

# --- result -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    text: str
    lang: str  # "ko" or "en"
    subject: str  # "speaker", "circle", "other", "assistant"
    predicate: str
    tense: str  # "past", "present", "future", "plan"
    negated: bool
    mood: str  # "statement", "question", "hypothetical", "quotation", "request", "exclamation"
    momentary: bool
    content: str  # the clean phrase
    plain: str  # the clause as a plain first-person statement (for slot rules)
    verbless: bool = False  # no predicate at all ("주제는 사내 보안교육")


@dataclass(frozen=True)
class Statement:
    clause: Clause
    memorable: bool
    reason: str  # why not, or "" when memorable
    type: str = "fact"
    content: str = ""
    happens_on: date | None = None


# --- shared vocabulary ------------------------------------------------------------------

# Words that tell an aside, a joke or a retraction: what surrounds them is not a statement of
# fact about the speaker.
_ASIDE = re.compile(
    r"농담|장난(?:이야|이에요|임)|궁금해서|대신\s*물어|물어봐서|해본\s*말|신경\s*쓰지\s*마|"
    r"\b(?:joke|joking|kidding|just\s+curious|just\s+wondering|asking\s+for\s+a\s+friend|"
    r"never\s*mind|scratch\s+that|thinking\s+out\s+loud|daydreaming|hypothetically)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"'[^']{2,}'|\"[^\"]{2,}\"|‘[^’]{2,}’|“[^”]{2,}”")
_NOISE = re.compile(r"[ㅋㅎㅠㅜ]{2,}|\^\^|;;+|[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]")

# --- Korean -----------------------------------------------------------------------------

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
    """니 냐 나 나요 까 까요 ᆯ까 을까 ᆯ까요 을까요 가 가요 는가 던가 지요 냐고 려나""".split()  # noqa: SIM905
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
    강아지 댕댕이 개 팀 회사 집 가족 시어머니 장모님 베프 조카 반려견 반려묘 팀장
    상사 아이들 애들""".split()  # noqa: SIM905
)
# Passing states of body and mood.
_KO_MOMENTARY = frozenset(
    """감사하 개웃기 고맙 귀찮 답답하 대박 덥 떨리 멋지 목마르 미안하 미치 배고프
    배부르 설레 센치하 소름돋 슬프 신기하 심심하 아프 외롭 우울하 웃기 재미있 재밌
    졸리 좋 죄송하 죽 지루하 짜증나 짱 쩔 최고 춥 피곤하 화나 힘들""".split()  # noqa: SIM905
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
_KO_HABIT = re.compile(
    r"매일|매주|매달|매년|매번|마다|항상|(?<![가-힣])늘(?![가-힣])|평일|주말마다|언제나|루틴|습관|보통|주로|자주|"
    r"주\s*\d+\s*회|한\s*달에|일주일에|하루에|요일마다|아침마다|저녁마다"
)
_KO_PAST_DAY = re.compile(r"어제|그제|그저께|지난\s*주|지난주|지난\s*달|지난달|작년|저번")

_KO_PREDICATE_TAGS = ("VV", "VA", "VX", "VCP", "VCN", "XSV", "XSA")


def _tag(token: Any) -> str:
    return str(token.tag).split("-")[0]


def _is_predicate(token: Any) -> bool:
    return _tag(token) in ("VV", "VA", "VCP", "VCN", "XSV", "XSA")


def _ko_tokens(text: str) -> list[Any]:
    return list(_analyser().tokenize(text))


def _ko_clauses(tokens: list[Any]) -> list[list[Any]]:
    """Cut at a coordinating "-고"/"-며"/"-(으)며" between two predicates (not "-고 있다")."""
    clauses: list[list[Any]] = []
    current: list[Any] = []
    if _ko_tense(tokens, "") == "plan":
        return [tokens]  # "대학원 안 가고 취업하기로 했어": the plan covers both verbs
    for index, token in enumerate(tokens):
        current.append(token)
        if _tag(token) != "EC" or token.form not in ("고", "며", "으며"):
            continue
        rest = tokens[index + 1 :]
        if not rest or _tag(rest[0]) == "VX":
            continue
        if not any(_is_predicate(t) for t in rest) or not any(_is_predicate(t) for t in current):
            continue
        # Both sides need words of their own: "먹고 자" (two verbs alone) stays one clause.
        if sum(_tag(t).startswith(("N", "SL", "SN", "MA")) for t in rest) == 0:
            continue
        clauses.append(current)
        current = []
    if current:
        clauses.append(current)
    return clauses


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
        if any(form in _KO_CIRCLE for form in group) or any(f in _KO_SPEAKER for f in group[:-1]):
            return "circle"
        if head.form in _KO_OTHERS or any(form in _KO_OTHERS for form in group):
            return "other"
        if token.form in ("이", "가") and any(
            _tag(t) == "NNP" for t in tokens[max(0, index - 2) : index]
        ):
            return "other"  # a named person or thing doing something: their news
        return "speaker"  # a topic of the speaker's ("커피는 무조건 아아")
    return "speaker"  # omitted subject: the speaker


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
        if form == "예정" or form == "계획":
            return "plan"
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


def _ko_mood(tokens: list[Any], text: str) -> str:
    forms = [t.form for t in tokens]
    tags = [_tag(t) for t in tokens]
    if text.rstrip().endswith("?"):
        return "question"
    last_ending = next(
        (t.form for t in reversed(tokens) if _tag(t) in ("EF", "EC") and t.form != "고"), ""
    )
    if any(f in ("만약", "만일", "혹시") for f in forms):
        return "hypothetical"
    for i, token in enumerate(tokens):
        if _tag(token) == "EC" and token.form.endswith(
            ("다면", "라면", "었으면", "았으면", "였으면")
        ):
            return "hypothetical"
        if _tag(token) == "EC" and token.form in ("면", "으면") and i > 0:
            if _tag(tokens[i - 1]) == "EP":
                return "hypothetical"  # "고양이였으면": contrary to fact
            rest = tokens[i + 1 :]
            real = any(_tag(t) == "EP" and t.form in ("었", "았", "였") for t in rest)
            if (
                not real
                and not _KO_HABIT.search(text)
                and not any(t.form in ("때", "땐") for t in tokens)
            ):
                return "hypothetical"  # "1등 되면 때려침": a condition never said to hold
        if (
            _tag(token) == "EP"
            and token.form == "겠"
            and not any(t.form in ("좋", "싶") for t in tokens)
        ):
            return "hypothetical"  # "잤겠지": a guess
    if any(_tag(t) == "JKQ" for t in tokens):
        return "quotation"
    if last_ending.endswith(_KO_QUOTE_ENDINGS) and not last_ending.endswith(("는데", "ᆫ데")):
        # Hearsay about one's own things ("우리 팀 워크숍 가평이래") is still news of the
        # speaker's; hearsay about the world or about others is not.
        own = any(
            _tag(t) in ("NP", "MM") and t.form in ("우리", "저희", "내", "제", "울") for t in tokens
        )
        if not own:
            return "quotation"
    for i, (form, tag) in enumerate(zip(forms, tags, strict=True)):
        if (
            tag == "EC"
            and form in ("다고", "라고", "냐고")
            and i + 1 < len(forms)
            and forms[i + 1] in ("하", "그러", "말하")
            and not any(f in ("주", "달") for f in forms[max(0, i - 2) : i])
        ):
            return "quotation"
        if form == "그러" and tag == "VV" and i + 1 < len(forms) and forms[i + 1] == "는데":
            return "quotation"
    for token in tokens:
        if _tag(token) in ("NP", "MM", "MAG", "NR") and token.form in _KO_QUESTION_WORDS:
            return "question"
    if last_ending in _KO_QUESTION_ENDINGS or (tags and tags[-1] == "EC" and forms[-1] == "니"):
        return "question"
    if "어떻" in forms:
        return "question"
    # A request to the assistant: "-어 줘", "-어 주세요", "-줄래", imperatives.
    for i, (form, tag) in enumerate(zip(forms, tags, strict=True)):
        if (
            form == "주"
            and tag in ("VX", "VV")
            and i + 1 < len(forms)
            and (tags[i + 1] == "EF" or (tags[i + 1] == "EC" and forms[i + 1] in ("어", "어요")))
        ):
            return "request"
        if tag == "EF" and form in ("어라", "아라", "라", "세요", "으세요", "십시오", "자"):
            return "request"
    if forms and forms[-1] in ("좀",):
        return "request"
    if tags and tags[0] == "IC" and forms[0] in ("와", "아", "헐", "오", "우와", "아오", "으"):
        return "exclamation"
    return "statement"


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
        if tag in ("VV", "VA"):
            main = token.form
        elif tag in ("XSV", "XSA") and index > 0:
            main = tokens[index - 1].form + token.form
    return main


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
    now = [f for f in forms if f in _KO_NOW]
    from_now = any(
        f in _KO_NOW and i + 1 < len(forms) and forms[i + 1] in ("부터", "마다")
        for i, f in enumerate(forms)
    )
    if from_now:
        return False
    stem = predicate.removesuffix("하")
    spaced = " ".join(forms)
    if predicate in _KO_MOMENTARY or stem in _KO_MOMENTARY:
        return not _KO_HABIT.search(spaced)
    if "덕분" in forms:
        return True  # thanks for the help just given
    if not now:
        return False
    if set(now) <= {"지금", "요즘"}:
        # "지금 밴쿠버 살아": a state that lasts, told by an action verb; "지금 지하철인데",
        # "지금 너무 피곤해": where or how one is at the moment.
        return not any(_tag(t) == "VV" for t in tokens)
    return True


# Tokens dropped from a Korean phrase: the speaker's pronoun and particle, discourse words.
_KO_DROP_WORDS = frozenset(
    """ㅇㅇ 개 그래서 그런데 그리고 근데 네 사실 아 아무튼 암튼 와 완전 음 응 이제 진짜
    참 헐""".split()  # noqa: SIM905
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
    if tense != "future":
        morphs = [(f, t) for f, t in morphs if not (t == "EP" and f in ("었", "았", "였", "었었"))]
    if morphs and (
        morphs[-1][1] == "ETN" or (morphs[-1][1] == "EF" and morphs[-1][0] in ("ᆷ", "음"))
    ):
        return str(_analyser().join(morphs)).replace(" ", "")
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
        if index == len(words) - 1 and any(
            _is_predicate(t) or _tag(t) in ("EP", "VX") for t in word
        ):
            # Drop a leading pronoun fused to the word ("나오늘부터헬스다닌다").
            while word and _tag(word[0]) == "NP" and word[0].form in {"나", "저"}:
                word = word[1:]
                while word and _tag(word[0]) in ("JX", "JKS"):
                    word = word[1:]
            # Keep the word's stem as written, then the nominal ending.
            ending = _ending_of(word, tense=tense)
            kept.append(ending or surface)
            continue
        kept.append(_NOISE.sub("", surface).rstrip(".,!~"))
    return re.sub(r"\s+", " ", " ".join(k for k in kept if k)).strip(" ,.")


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


def _ko_type(tokens: list[Any], text: str, predicate: str, tense: str, day: date | None) -> str:
    forms = {t.form for t in tokens}
    if tense == "plan" and day is None and ("기" in forms or "정하" in forms):
        return "decision"
    if predicate in _KO_DECISION or "결정" in forms:
        return "decision" if tense in ("past", "plan", "present") and day is None else "episode"
    if _KO_HABIT.search(text) and day is None:
        return "procedure"
    if day is not None or tense in ("plan", "future"):
        return "episode"
    if predicate in _KO_PREFERENCE or forms & {"좋아하", "싫어하", "선호", "최애", "취향", "좋아"}:
        return "preference"
    if tense == "past" and _KO_PAST_DAY.search(text):
        return "episode"
    return "fact"


_QUOTE_STAND_IN = "그 말"
_SPEECH_AFTER_QUOTE = re.compile(r"^\s*(?:하|라고|이라고|라는|이라는|란|그러|했|라며|이래|래)")


def _korean(sentence: str, *, today: date | None) -> list[Statement]:
    first_quote = _QUOTED.search(sentence)
    reported = bool(first_quote and _SPEECH_AFTER_QUOTE.match(sentence[first_quote.end() :]))
    quotes = [m.group(0) for m in _QUOTED.finditer(sentence)]
    sentence = _QUOTED.sub(_QUOTE_STAND_IN, sentence)
    tokens = _ko_tokens(sentence)
    out = []
    whole_mood = "quotation" if reported else _ko_mood(tokens, sentence)
    for part in _ko_clauses(tokens):
        if not part:
            continue
        text = sentence[part[0].start : part[-1].start + part[-1].len]
        mood = _ko_mood(part, text)
        if whole_mood in ("question", "hypothetical", "quotation") and mood == "statement":
            mood = whole_mood
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
            momentary=_ko_momentary(part, predicate, tense),
            content=content,
            plain=_plain(part),
            verbless=not _has_predicate(part),
        )
        statement = _judge(clause, today=today, tokens=part)
        if (
            statement.memorable
            and not _has_predicate(part)
            and not _topic_comment(part)
            and len(text.split()) < _FRAGMENT_WORDS
        ):
            statement = replace(statement, memorable=False, reason="fragment")
        out.append(statement)
    return out


def _has_predicate(tokens: list[Any]) -> bool:
    return any(_is_predicate(t) or _tag(t) in ("ETN", "EF", "EP") for t in tokens)


def _topic_comment(tokens: list[Any]) -> bool:
    """ "커피는 무조건 아아", "이름은 모찌": a topic and what is said of it, without a verb."""
    for index, token in enumerate(tokens[:-1]):
        if _tag(token) == "JX" and token.form in ("은", "는", "ᆫ") and index > 0:
            return any(not _tag(t).startswith("S") for t in tokens[index + 1 :])
    return False


_FRAGMENT_WORDS = 4


# --- English ----------------------------------------------------------------------------

_EN_FIRST = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll|im|ive|me|my|mine|myself|we|we're|we've|"
    r"our|ours|us)\b",
    re.IGNORECASE,
)
_EN_I = re.compile(r"^(?:I|im|i'm|ive|i've|i'd|i'll)\b", re.IGNORECASE)
_EN_CIRCLE_SUBJECT = re.compile(
    r"^(?:the\s+|our\s+|my\s+)?(?:kids?|children|husband|wife|partner|son|daughter|mom|mother|"
    r"dad|father|parents|family|baby|team|cat|dog|boyfriend|girlfriend|fianc[ée]e?|sister|"
    r"brother|grandma|grandpa|grandmother|grandfather)\b",
    re.IGNORECASE,
)
_EN_NESTED_OTHER = re.compile(
    r"\bmy\s+(?:friend|coworker|co-worker|colleague|neighbou?r|boss|classmate|roommate)'s\b|"
    r"^(?:my|a|the)\s+(?:friend|friends|coworker|co-worker|colleague|neighbou?r|classmate)\b"
    r"(?!\s+and\s+I)",
    re.IGNORECASE,
)
_EN_YOU = re.compile(r"^(?:you|you're|your|can\s+you|could\s+you|would\s+you|will\s+you)\b", re.I)
_EN_QUESTION = re.compile(
    r"^(?:do|does|did|what|where|who|whom|how|why|when|which|can|could|would|will|should|is|are|"
    r"am|was|were|have|has|any)\b",
    re.IGNORECASE,
)
_EN_HYPOTHETICAL = re.compile(
    r"^(?:if|suppose|supposing|imagine|what\s+if|hypothetically|pretend|let's\s+say)\b|"
    r"\b(?:if\s+I\s+(?:were|had|won|could|was)|I'd\s+\w+\s+if|would\s+\w+\s+if|i\s+wish)\b",
    re.IGNORECASE,
)
_EN_QUOTATION = re.compile(
    r"\b(?:says|said|told\s+me|tells\s+me|according\s+to|as\s+\w+\s+(?:said|says)|"
    r"apparently|heard\s+that|reckons)\b",
    re.IGNORECASE,
)
_EN_REQUEST = re.compile(
    r"^(?:please\s+|pls\s+|hey,?\s+|ok(?:ay)?,?\s+)?(?:write|convert|rewrite|summari[sz]e|"
    r"translate|explain|tell|give|show|make|help|draft|list|find|check|fix|pretend|generate|"
    r"create|compose|suggest|recommend|calculate|compare|describe|plan|outline|proofread|edit|"
    r"review|name|teach|answer|play|act|let's|lets|imagine|design|build|solve)\b|"
    r"^(?:can|could|would|will)\s+you\b|^(?:I'd|I\s+would)\s+like\b|^I'll\s+(?:have|take)\b",
    re.IGNORECASE,
)
_EN_MOMENTARY = re.compile(
    r"\b(?:right\s+now|at\s+the\s+moment|atm|rn|brb|tbh|today|tonight|this\s+morning|"
    r"this\s+afternoon|this\s+evening|just\s+now)\b|"
    r"\b(?:i'm|i\s+am|im|i\s+feel|feeling|so|kinda|kind\s+of)\s+(?:so\s+|really\s+|very\s+|"
    r"a\s+bit\s+|super\s+)?(?:tired|bored|hungry|starving|sleepy|exhausted|sad|stressed|sick|"
    r"cold|hot|angry|annoyed|happy|excited|nervous|upset|grumpy|full|thirsty|lonely)\b",
    re.IGNORECASE,
)
_EN_LASTING = re.compile(
    r"\b(?:live|work|have|own|drive|use|study|speak|learn|am\s+a|'m\s+a|been|since|every|"
    r"allergic|diabetes|always|usually)\b",
    re.IGNORECASE,
)
_EN_DECISION = re.compile(
    r"\b(?:decided|chose|choose|chosen|switched|going\s+with|settled\s+on|opted|picked|"
    r"will\s+use|committed\s+to|quit|gave\s+up|stopped)\b",
    re.IGNORECASE,
)
_EN_HABIT = re.compile(
    r"\b(?:every|each|daily|weekly|monthly|weekdays|weekends|on\s+(?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)days|(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:nights|mornings|evenings)|"
    r"usually|always|routine|habit|twice\s+a|once\s+a|times\s+a)\b",
    re.IGNORECASE,
)
_EN_PREFERENCE = re.compile(
    r"\b(?:like|likes|love|loves|prefer|prefers|hate|hates|dislike|enjoy|enjoys|favou?rite|"
    r"can't\s+stand|cannot\s+stand|fan\s+of|usual\s+(?:order|coffee|drink)|go-to)\b",
    re.IGNORECASE,
)
_EN_FUTURE = re.compile(
    r"\b(?:will|'ll|going\s+to|gonna|plan\s+to|planning\s+to|planning|about\s+to|expecting|"
    r"next\s+(?:week|month|year|\w+day)|tomorrow|upcoming|soon)\b",
    re.IGNORECASE,
)
_EN_PAST = re.compile(
    r"\b(?:\w+ed|was|were|did|had|went|got|left|quit|moved|bought|took|made|began|became|"
    r"came|sold|won|lost|met|found|gave|broke|ran|wrote|yesterday|last\s+(?:week|month|year|"
    r"night|time))\b",
    re.IGNORECASE,
)
_EN_PAST_DAY = re.compile(r"\b(?:yesterday|last\s+(?:week|month|year|night)|ago)\b", re.I)
_EN_NEGATION = re.compile(
    r"\b(?:not|no|never|n't|dont|don't|doesnt|cant|cannot|won't)\b|n't\b", re.IGNORECASE
)
_EN_FILLER = re.compile(
    r"^(?:(?:oh|ah|so|well|also|and|btw|by\s+the\s+way|fyi|haha|lol|ok(?:ay)?|anyway|"
    r"just\s+so\s+you\s+know|fun\s+fact|yeah|yes|hey)\b[,:!]?\s*)+",
    re.IGNORECASE,
)
_EN_TAIL = re.compile(r"(?:[,\s]+(?:fyi|tbh|lol|haha|btw|though|lmao|ngl))+\s*[.!]*$", re.I)
_EN_VERB_AFTER_AND = re.compile(
    r"\s*(?:,\s*)?\band\s+(?=(?:I\b|I'm\b|I've\b|my\b|(?:also\s+|now\s+|currently\s+)?"
    r"(?:work|works|live|lives|drive|drives|have|has|own|owns|play|plays|run|runs|take|takes|"
    r"use|uses|speak|speaks|study|studies|teach|teaches|love|loves|like|likes|hate|hates|"
    r"prefer|prefers|go|goes|do|does|am|'m|moved|started|joined|left|got|bought|adopted|"
    r"drink|drinks|eat|eats|cook|cooks|am\s+\w+ing|'m\s+\w+ing)\b))",
    re.IGNORECASE,
)
_EN_IRREGULAR_3RD = {
    "am": "is",
    "'m": "is",
    "have": "has",
    "'ve": "has",
    "do": "does",
    "go": "goes",
    "was": "was",
    "'d": "had",
    "'ll": "will",
    "can": "can",
    "can't": "can't",
    "don't": "doesn't",
    "won't": "won't",
    "will": "will",
    "would": "would",
    "could": "could",
    "should": "should",
    "had": "had",
    "did": "did",
    "didn't": "didn't",
    "haven't": "hasn't",
    "wasn't": "wasn't",
    "cannot": "cannot",
    "might": "might",
    "must": "must",
    "im": "is",
    "ive": "has",
    "are": "are",
    "were": "were",
}
# Past forms that do not end in -ed stay as they are ("quit", "left", "went").
_EN_IRREGULAR_PAST = frozenset(
    """went got left quit moved bought took made began became came sold won lost met
    found gave broke ran wrote put set spent sent built kept felt heard paid read
    told thought brought caught taught fought chose drove flew grew knew threw wore
    swam rode sang sat slept stood understood forgot led fell ate drank saw did had
    was were""".split()  # noqa: SIM905
)


def _third_person(verb: str) -> str:
    lower = verb.lower()
    if lower in _EN_IRREGULAR_3RD:
        return _EN_IRREGULAR_3RD[lower]
    if not lower.isalpha() or lower.endswith("ed") or lower.endswith("s"):
        return verb
    if lower in _EN_IRREGULAR_PAST:
        return verb
    if re.search(r"(?:[sxz]|ch|sh|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


# A time said before the subject ("Tomorrow I have ...", "In two weeks I start ..."), moved
# after the rest so that the note can start with its verb.
_EN_LEADING_TIME = re.compile(
    r"^(?P<time>(?:tomorrow|today|tonight|yesterday|next\s+\w+|last\s+\w+|this\s+\w+|"
    r"in\s+\w+\s+(?:days?|weeks?|months?|years?)|on\s+\w+(?:\s+\d{1,2}(?:st|nd|rd|th)?)?|"
    r"every\s+\w+|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\s+\d{1,2}\w*)),?\s+"
    r"(?P<rest>(?:I|I'm|I've|I'll|we)\b.*)$",
    re.IGNORECASE,
)


def _en_content(text: str) -> str:
    text = _EN_TAIL.sub("", _EN_FILLER.sub("", text.strip())).strip(" ,;:—-.!")
    lead = _EN_LEADING_TIME.match(text)
    if lead:
        time_words = lead.group("time")
        text = f"{lead.group('rest')} {time_words[:1].lower() + time_words[1:]}"
    if re.match(r"^my\s+\w+(?:\s+\w+)?\s+and\s+I\b", text, flags=re.IGNORECASE):
        return text  # "My wife and I ...": the subject is two people
    text = re.sub(
        r"^(?:please\s+)?(?:remember|don't\s+forget|note)(?:\s+that|:)?\s+",
        "",
        text,
        flags=re.IGNORECASE,
    )
    match = re.match(
        r"^(?:I(?:'m|'ve|'d|'ll)?|im|ive)\b\s*(?P<rest>.*)$", text, flags=re.IGNORECASE
    )
    if match:
        contraction = re.match(r"^I('m|'ve|'d|'ll)", text, flags=re.IGNORECASE)
        rest = match.group("rest")
        if contraction:
            verb = _third_person(contraction.group(1).lower())
            if verb == "had" and not re.match(r"(?:been|gone|done|had|already|never)\b", rest):
                verb = "would"  # "I'd love": would; "I'd been": had
            phrase = f"{verb} {rest}"
        elif text.lower().startswith(("im ", "ive ")):
            phrase = f"{_third_person(text.split()[0])} {rest}"
        else:
            words = rest.split(" ", 1)
            adverbs = []
            while words and words[0].lower() in (
                "also",
                "now",
                "currently",
                "just",
                "really",
                "still",
                "usually",
                "always",
                "never",
                "often",
                "recently",
                "finally",
                "mostly",
            ):
                adverbs.append(words[0])
                words = words[1].split(" ", 1) if len(words) > 1 else []
            if not words:
                return ""
            verb = _third_person(words[0])
            if verb.lower() == "do" and len(words) > 1:
                verb = "does"
            phrase = " ".join([*adverbs, verb, *(words[1:])])
        text = _third_person_words(phrase.strip())
    elif re.match(r"^my\s+", text, flags=re.IGNORECASE):
        text = _third_person_words(re.sub(r"^my\s+", "", text, flags=re.IGNORECASE))
    return (text[:1].upper() + text[1:]).strip()


_EN_PRONOUNS = {
    "my": "their",
    "me": "them",
    "mine": "theirs",
    "myself": "themselves",
    "i": "they",
    "i'm": "they're",
    "i've": "they've",
    "i'd": "they'd",
    "i'll": "they'll",
    "im": "they're",
}


def _third_person_words(text: str) -> str:
    """The speaker's other pronouns in a subject-less note: "my" -> "their"."""
    text = re.sub(
        r"\bI\s+(?:was|am)\b", lambda m: "they were" if "was" in m.group(0) else "they are", text
    )
    return re.sub(
        r"\b(?:my|me|mine|myself|I|I'm|I've|I'd|I'll|im)\b",
        lambda m: _EN_PRONOUNS[m.group(0).lower()],
        text,
        flags=re.IGNORECASE,
    )


def _en_clauses(sentence: str) -> list[str]:
    parts = re.split(r"\s*;\s*|\s+[—–-]\s+(?=(?:I|we|my|our)\b)", sentence)
    clauses: list[str] = []
    for part in parts:
        pieces = _EN_VERB_AFTER_AND.split(part)
        subject = re.match(r"^(?:I|we)\b", part.strip(), flags=re.IGNORECASE)
        for piece in pieces:
            piece = piece.strip(" ,")
            if not piece:
                continue
            if subject and clauses and not re.match(r"^(?:I|we|my|our)\b", piece, re.I):
                piece = f"{subject.group(0)} {piece}"  # "... and work at Y": same subject
            clauses.append(piece)
    # "My wife and I are ...": a piece of two words is no clause of its own.
    merged: list[str] = []
    for piece in clauses:
        if merged and len(merged[-1].split()) < 3:
            merged[-1] = f"{merged[-1]} and {piece}"
        else:
            merged.append(piece)
    return merged


def _english(sentence: str, *, today: date | None) -> list[Statement]:
    out = []
    whole_question = sentence.rstrip().endswith("?") or bool(_EN_QUESTION.match(sentence))
    whole_hypothetical = bool(_EN_HYPOTHETICAL.search(sentence)) or is_hypothetical(sentence)
    for text in _en_clauses(sentence):
        bare = _EN_FILLER.sub("", text).strip()
        if whole_question or _EN_QUESTION.match(bare):
            mood = "question"
        elif whole_hypothetical:
            mood = "hypothetical"
        elif _EN_QUOTATION.search(bare) or (_QUOTED.search(bare) and not _EN_I.match(bare)):
            mood = "quotation"
        elif _EN_REQUEST.match(bare):
            mood = "request"
        else:
            mood = "statement"
        if _EN_YOU.match(bare):
            subject = "assistant"
        elif _EN_NESTED_OTHER.search(bare):
            subject = "other"
        elif _EN_FIRST.search(bare):
            subject = "speaker" if _EN_I.match(bare) else "circle"
        elif _EN_CIRCLE_SUBJECT.match(bare):
            subject = "circle"
        else:
            subject = "other"
        if _EN_FUTURE.search(bare):
            tense = "future"
        elif re.search(r"\b(?:plan|planning)\s+to\b", bare, re.I):
            tense = "plan"
        elif _EN_PAST.search(bare) and not re.search(r"\b(?:have|has|'ve)\s+been\b", bare, re.I):
            tense = "past"
        else:
            tense = "present"
        momentary = bool(_EN_MOMENTARY.search(bare)) and not (
            tense == "future" or _EN_HABIT.search(bare) or _EN_LASTING.search(bare)
        )
        clause = Clause(
            text=text,
            lang="en",
            subject=subject,
            predicate="",
            tense=tense,
            negated=bool(_EN_NEGATION.search(bare)),
            mood=mood,
            momentary=momentary,
            content=_en_content(text),
            plain=bare,
        )
        out.append(_judge(clause, today=today, tokens=None))
    return out


def _en_type(clause: Clause, day: date | None) -> str:
    text = clause.text
    if _EN_DECISION.search(text):
        return "decision"
    if day is not None and day >= date.min:
        return "episode" if not _EN_HABIT.search(text) else "procedure"
    if clause.tense in ("future", "plan"):
        return "episode"
    if _EN_HABIT.search(text) and not _EN_PREFERENCE.search(text):
        return "procedure"
    if _EN_PREFERENCE.search(text):
        return "preference"
    if clause.tense == "past" and _EN_PAST_DAY.search(text):
        return "episode"
    return "fact"


# --- judgement --------------------------------------------------------------------------

_MIN_CONTENT = 2
# A date that comes back every year or week is no one day: birthdays, anniversaries, habits,
# lunar dates.
_RECURRING_DATE = re.compile(
    r"생일|생신|기념일|음력|매년|매주|매달|마다|매일|\b(?:birthday|anniversary|every|each|"
    r"annual|yearly|weekly|monthly)\b",
    re.IGNORECASE,
)


def _judge(clause: Clause, *, today: date | None, tokens: Sequence[Any] | None) -> Statement:
    if clause.mood != "statement":
        return Statement(clause, False, clause.mood)
    if clause.subject in ("other", "assistant"):
        return Statement(clause, False, f"about {clause.subject}")
    if clause.momentary:
        return Statement(clause, False, "momentary")
    if len(clause.content) < _MIN_CONTENT:
        return Statement(clause, False, "empty")
    day = None
    content = clause.content
    habitual = _KO_HABIT.search(clause.text) or _EN_HABIT.search(clause.text)
    if today is not None and not _RECURRING_DATE.search(clause.text) and not habitual:
        future = clause.tense != "past"
        mentions = dates.resolve_dates(clause.text, today=today, future=future)
        if mentions:
            day = mentions[0].day
            content = dates.with_absolute_dates(
                content, today=today, korean=clause.lang == "ko", future=future
            )
    if clause.lang == "ko":
        assert tokens is not None
        kind = _ko_type(list(tokens), clause.text, clause.predicate, clause.tense, day)
        if kind == "episode" and clause.tense in ("plan", "future") and "예정" not in content:
            content = f"{content} (예정)"
    else:
        kind = _en_type(clause, day)
    if day is not None and kind == "procedure":
        day = None  # a habit's weekday is not one day
    return Statement(clause, True, "", type=kind, content=content, happens_on=day)


# --- entry points -----------------------------------------------------------------------


def clean(sentence: str) -> str:
    """The sentence without laughter, emoji and redaction markers (never rebuilt)."""
    text = REDACTION_MARKER.sub(" ", sentence)
    text = _NOISE.sub(" ", text)
    return re.sub(r"\s+", " ", text).strip()


_SUBJUNCTIVE = re.compile(
    r"\b(?:if\s+I\s+(?:were|had|won|could|was)|I'd\s+\w+[^.]{0,60}\bif\b|would\s+\w+\s+if|"
    r"i\s+wish|someday|what\s+if)\b|만약|만일|다면|었으면|았으면",
    re.IGNORECASE,
)


def is_hypothetical(text: str) -> bool:
    """A wish or a supposition ("if I won ...", "만약 ...라면"), as opposed to a standing
    condition ("if I paste code, ...")."""
    return bool(_SUBJUNCTIVE.search(text))


def is_aside(text: str) -> bool:
    """A joke, a retraction or a question asked for someone else: nothing to remember."""
    return bool(_ASIDE.search(text))


def analyse(sentence: str, *, today: date | None = None) -> list[Statement]:
    """Every clause of one sentence with its verdict (memorable or why not)."""
    text = clean(sentence)
    if not text:
        return []
    if has_hangul(text):
        # Words in quotes are someone's words, not the speaker's statement.
        return _korean(text, today=today)
    return _english(text, today=today)


def korean_sentences(text: str) -> list[str]:
    """Korean sentences, also where no punctuation ends them ("...했어요 이름은 ...")."""
    return [s.text for s in _analyser().split_into_sents(text)]


def force(statement: Statement) -> Statement:
    """A statement the user asked to remember ("... 기억해줘"): kept unless it is a question,
    a hypothetical or about the assistant."""
    clause = statement.clause
    if statement.memorable or clause.mood in ("question", "hypothetical"):
        return statement
    if statement.reason in ("fragment", "empty") and len(clause.content.split()) < 2:
        return statement  # "평생 기억해": nothing left to remember
    if clause.subject == "assistant" or not clause.content:
        return statement
    day = None
    kind = "fact"
    return replace(
        statement, memorable=True, reason="", type=kind, content=clause.content, happens_on=day
    )


# --- remember cues ----------------------------------------------------------------------

_KO_REMEMBER = re.compile(
    r"(?:(?:^|\s)앞으로(?:는)?\s*)?(?:이거|이것|그거|이건|이\s*점|이것도|이거는)?\s*(?:꼭\s*|잘\s*)?"
    r"(?:기억\s*해\s*(?:줘|줄래|둬|두고|놔|라|주세요|줘요|둬요|두세요|주라|놔\s*줘|줘라|\s*주세요)?|"
    r"잊지\s*(?:마|마세요|말아\s*줘|말아\s*주세요|말아요|마라))(?=[\s.,:!~]|$)\s*[:,.!~]*"
)
_EN_REMEMBER_LEADING = re.compile(
    r"^(?:please\s+|pls\s+|also\s+|and\s+|oh,?\s+)?(?:remember|don't\s+forget|do\s+not\s+forget|"
    r"keep\s+in\s+mind|note|fyi)(?:\s+(?:that|this))?\s*[:,—-]?\s+(?=\w)",
    re.IGNORECASE,
)
_EN_REMEMBER_TRAILING = re.compile(
    r"\s*[,;—-]*\s*(?:(?:please|so|and|pls)\s+)?(?:remember\s+(?:that|this|it)|"
    r"don't\s+forget(?:\s+(?:that|it|this))?|keep\s+(?:that|it|this)\s+in\s+mind|note\s+that)"
    r"(?:,?\s+please)?\s*[.!]*$",
    re.IGNORECASE,
)


_EN_REMEMBER_ALONE = re.compile(
    r"(?:please\s+)?(?:remember|don't\s+forget|keep\s+in\s+mind)(?:\s+(?:that|this|it))?"
    r"(?:,?\s+please)?\s*[.!]*",
    re.IGNORECASE,
)


def remember_cue(sentence: str) -> tuple[str, bool]:
    """The sentence without a request to remember it, and whether there was one:
    "...수영해. 기억해줘" / "기억해줘: ..." / "... — remember that" / "Remember that ..."."""
    text = sentence.strip()
    if _EN_REMEMBER_ALONE.fullmatch(text):
        return "", True
    stripped = _EN_REMEMBER_TRAILING.sub("", text)
    stripped = _EN_REMEMBER_LEADING.sub("", stripped)
    stripped = _KO_REMEMBER.sub(" ", stripped) if has_hangul(stripped) else stripped
    stripped = re.sub(r"\s+", " ", stripped).strip(" ,.:;—-")
    if stripped == text.strip(" ,.:;—-"):
        return text, False
    return stripped, True


# A negated fact given as the reason for a task ("결혼 안 했어요, 예시가 필요해서요",
# "I'm not vegan, I just need a recipe for a guest") is context, not news about oneself.
_FOR_A_TASK = re.compile(
    r"필요해서|필요하거든|때문에\s*물어|\bjust\s+need\b|\bneed\s+(?:it|one|this)\s+for\b",
    re.IGNORECASE,
)


def serves_a_task(text: str) -> bool:
    """A message giving a reason for a task ("필요해서", "I just need ...")."""
    return bool(_FOR_A_TASK.search(text))


# A sarcastic exclamation: praise that opens with an interjection ("와 월요일 너무 좋다",
# "Oh great, I just LOVE it when ...", "It's raining again. Fantastic.").
_EN_SARCASM = re.compile(
    r"^(?:oh\s+)?(?:great|fantastic|wonderful|perfect|lovely|awesome|brilliant)\b[,.!]|"
    r"\b(?:just|really)\s+love\s+it\s+when\b",
    re.IGNORECASE,
)


def is_sarcasm(text: str) -> bool:
    return bool(_EN_SARCASM.search(text.strip()))
