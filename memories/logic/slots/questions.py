"""Which question about the user a statement answers: `question_of`."""

from __future__ import annotations

import re

from memories.logic.slots import cues, current, vocab
from memories.logic.slots.current import current_thing
from memories.logic.slots.names import relation_slot, valid
from memories.logic.slots.statement import (
    KO_CONTENT_TAGS,
    Statement,
    Token,
    analyse,
    clause_with,
    clauses,
    is_question,
)


def _answer_facet(statement: Statement) -> str:
    text = statement.text
    # "I speak Korean", "I write short stories": about the user, not about the answers.
    about_answers = bool(cues.ANSWER_WORDS.search(cues.SELF_DOES.sub(" ", text)))
    asks = bool(cues.REQUEST.search(text))
    # A request or a liking that names nothing but a way of writing is about the answers:
    # "자세히 알려줘", "표로 보여주는 거 좋아해", "Prefers plain prose"; "Keep meetings short",
    # "파이썬 리스트 정렬하는 법 알려줘" and "I like short hair" name something else.
    tokens = statement.content_tokens()
    only_manner = _only_manner(statement, tokens)
    likes_a_manner = (
        bool(tokens) and only_manner and bool(cues.PREFER.search(text) or cues.LIKE.search(text))
    )
    # "표 말고 줄글로", "Numbered lists": a way of writing named on its own, by nobody.
    elliptical = bool(tokens) and only_manner and not cues.FIRST_PERSON.search(text)
    canonical = " ".join(statement.words())  # "표" is "table"
    found = []
    for slot, cue, intrinsic in cues.FACETS:
        if not (cue.search(text) or cue.search(canonical)):
            continue
        if slot == "answer_language" and cues.CODE_WORDS.search(text):
            continue  # the language of code comments is another question
        if intrinsic or about_answers or (asks and only_manner) or likes_a_manner:
            found.append(slot)
        elif elliptical and (slot != "answer_language" or cues.IN_A_LANGUAGE.search(text)):
            found.append(slot)  # "Korean" alone is no request; "영어로" is
    # A language named beside another way of answering ("answer me in formal English",
    # "한국어로 짧게") is the medium of that instruction: the sentence answers the other
    # question, so a later "keep it casual" replaces it and a language alone does not.
    return next((slot for slot in found if slot != "answer_language"), found[0] if found else "")


# Reading or seeing what is written, and the writing itself, name no subject of their own.
_READING = frozenset({"reading", "읽기", "읽다", "글", "보기"})


def _only_manner(statement: Statement, tokens: list[Token]) -> bool:
    """True when every content word is a word for a way of answering: inside a cue's match
    in the text ("bullet points", "줄글" that Kiwi splits) or a cue in the vocabulary's word
    ("표" is "table")."""
    spans = [m.span() for _, cue, _ in cues.FACETS for m in cue.finditer(statement.text)]
    return all(
        token.form in _READING  # "줄글이 읽기 편해": reading the answer is no other subject
        or any(start <= token.start and token.end <= end for start, end in spans)
        or any(cue.search(token.form) for _, cue, _ in cues.FACETS)
        for token in tokens
    )


def _name(statement: Statement) -> str:
    text = statement.text
    relation = cues.EN_RELATION_NAME.search(text)
    if relation:
        return relation_slot(relation.group(1).split()[-1])
    if cues.EN_OWN_NAME.search(text) and not re.search(r"\b(?:name\s+(?:the|a|my)|named)\b", text):
        return "name"
    if cues.NAME.search(text):
        return "name"
    for match in cues.KO_NAME.finditer(text):
        owner = (match.group(1) or "").strip()
        owner = re.sub(r"(?:의|는|은)$", "", owner) if owner not in vocab.KO_SELF else owner
        if not owner or owner in vocab.KO_SELF:
            return "name"
        return relation_slot(owner)
    return ""


def _lemmas(statement: Statement) -> set[str]:
    return {t.raw for t in statement.tokens if t.tag != "EN"}


# "혼자 살아", "부모님이랑 살아": who the user lives with.
_TOGETHER = frozenset("혼자 같이 함께 이랑 랑 와 과 하고".split())  # noqa: SIM905


def _korean_lives_somewhere(statement: Statement) -> str:
    """'residence' for "서울에 살아", 'household' for "혼자 살아", '' otherwise."""
    if cues.KO_LIVE_IDIOM.search(statement.text):
        return ""  # "커피 없으면 못 살아", "살 것 같다", "살맛 난다": no place at all
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        # "부산에서 지내" (stays) says where as well as "부산에 살아"; "잘 지내" says how.
        if token.raw == "지내다" and token.tag.startswith("VV"):
            if any(t.tag == "JKB" and t.raw == "에서" for t in tokens[:index]):
                return "residence"
            continue
        # Kiwi now and then reads "살아" after a place name as a noun ("성수동 살아")
        misread = token.raw in ("살아", "살아요") and token.tag.startswith("NN")
        if (token.raw == "살다" and token.tag.startswith("VV")) or misread:
            after = tokens[index + 1 : index + 3]
            past = any(t.tag == "EP" and t.raw in ("었", "았") for t in after)
            if past and not re.search(r"지금|현재|아직", statement.text):
                return ""  # "부산에 살았어": where I lived, not where I live
            before = tokens[:index]
            if any(t.tag == "JKB" and t.raw in ("에", "에서") for t in before):
                return "residence"
            if any(t.raw in _TOGETHER for t in before):
                return "household"
            return "residence" if before else ""
    return ""


# Who may own the home named: nobody said, or the speaker ("우리 집은", "제 집은").
_OWN_HOME = frozenset("우리 저희 내 제 나 저 울".split())  # noqa: SIM905


def _korean_home_is(statement: Statement) -> bool:
    """ "집은 수원이야", "우리 집은 분당 쪽이에요", "집이 강남에 있어": the speaker's home is in
    a named place (Kiwi's NNP), said with the copula or "-에 있다"; "집은 원룸이야" names
    no place."""
    tokens = statement.tokens
    for index, token in enumerate(tokens[:-2]):
        if token.raw != "집" or not token.tag.startswith("NN"):
            continue
        if any(t.raw not in _OWN_HOME and t.tag != "JKG" for t in tokens[:index]):
            return False  # "친구 집은 수원이야": someone else's home
        particle, place = tokens[index + 1], tokens[index + 2]
        if particle.tag not in ("JX", "JKS") or place.tag != "NNP":
            return False
        rest = [t for t in tokens[index + 3 :] if t.tag not in ("NNP", "NNB")]
        return bool(rest) and (
            rest[0].tag == "VCP"
            or (rest[0].tag == "JKB" and len(rest) > 1 and rest[1].raw == "있다")
        )
    return False


def _korean_lives_in_district(statement: Statement) -> str:
    """ "내 해운대 우동 산다", "수성구 삼", "상남동 살아예": a named place (Kiwi's NNP) then a
    district and 살다 with no particle; "우동 산다" and "마트에서 우유 산다" buy something."""
    found = cues.KO_LIVES_IN_DISTRICT.search(statement.text)
    if not found or re.search(r"(?:을|를|에서)\s", statement.text[: found.start()] + " "):
        return ""
    before = [t for t in statement.tokens if t.end <= found.end()]
    return "residence" if any(t.tag == "NNP" for t in before) else ""


def _residence(statement: Statement) -> str:
    text = statement.text
    lemmas = _lemmas(statement)
    if cues.PAST_ONLY.search(text):
        return ""
    if cues.EN_HOUSEHOLD.search(text) and not re.search(r"\blive[s]?\s+in\b", text):
        return "household"
    if cues.EN_MOVED_TO_A_THING.search(text):
        return ""  # "moved from iPhone to Pixel": a new phone, not a new home
    if cues.EN_RESIDENCE.search(text) and not cues.EN_LIVE_IDIOM.search(text):
        if re.search(r"\blived\s+in\b", text) and not re.search(r"\bnow\b", text):
            return ""
        return "" if cues.FUTURE.search(text) else "residence"
    if "거주" in lemmas or "이사" in lemmas or cues.KO_RESIDENT.search(text):
        return "" if cues.FUTURE.search(text) else "residence"
    if _korean_home_is(statement):
        return "" if cues.FUTURE.search(text) else "residence"
    found = _korean_lives_somewhere(statement) or _korean_lives_in_district(statement)
    if found == "residence" and cues.FUTURE.search(text):
        return ""
    return found


def _hometown(statement: Statement) -> str:
    text = statement.text
    if cues.EN_HOMETOWN.search(text) or cues.KO_HOMETOWN.search(text):
        return "hometown"
    return ""


def _school_or_major(statement: Statement) -> str:
    text = statement.text
    if cues.EN_MAJOR.search(text):
        return "major"
    if cues.DEGREE_HELD.search(text):
        return ""  # "I have a bachelor's in physics": done, not the degree under way
    if cues.KO_DEGREE_UNDER_WAY.search(text):
        return "school"  # "석사 과정 밟고 있어", then "박사 과정 들어갔어": the next degree
    if _works_there(statement):
        return ""  # "I'm a high school teacher": a school is where the user works
    if cues.EN_SCHOOL.search(text) or cues.KO_SCHOOL.search(text + " "):
        return "school"
    # "연세대 다녀", "고려대 학생이야": a university's short name ends in 대.
    if _lemmas(statement) & {"다니다", "학생", "대학생", "대학원생", "신입생"} and any(
        t.tag == "NNP" and t.raw.endswith("대") for t in statement.tokens
    ):
        return "school"
    return ""


def _works_there(statement: Statement) -> bool:
    """True when the statement names a job other than student."""
    found = cues.EN_JOB_TITLE.search(statement.text)
    if (found and found.group(0).lower() != "student") or cues.TEACHES.search(statement.text):
        return True
    return any(noun not in vocab.STUDENTS for noun in _korean_jobs(statement))


def _korean_jobs(statement: Statement) -> list[str]:
    """Job nouns, with a suffix Kiwi split off put back ("대학원" + "생")."""
    tokens = statement.tokens
    found = []
    for index, token in enumerate(tokens):
        noun = token.raw.upper() if token.tag == "EN" else token.raw
        if index + 1 < len(tokens) and tokens[index + 1].tag == "XSN":
            noun += tokens[index + 1].raw
        if noun in vocab.KO_JOBS:
            found.append(noun)
    return found


def _has_korean_job(statement: Statement) -> bool:
    return bool(_korean_jobs(statement))


def _job_or_workplace(statement: Statement) -> str:
    text = statement.text
    if cues.PREFER.search(text) or cues.AIM.search(text):
        # "주간 근무 선호", "I'd prefer to work as a designer", "올해 목표 정보처리기사": not
        # the job itself
        return ""
    if cues.EN_WORK_MODE.search(text):
        return "work_mode"
    lemmas = _lemmas(statement)
    works = bool(re.search(r"(?:으로|로|에서)\s*(?:일|근무|가르)|근무|일하|일함|일해|업무", text))
    korean_job = _has_korean_job(statement)
    if cues.EN_JOB.search(text) or cues.KO_JOB_CUE.search(text):
        return "job"
    if cues.TEACHES.search(text) and not re.search(
        r"\bteach(?:es|ing)?\s+(?:my|him|her)self\b", text
    ):
        return "job"  # "I teach chemistry at a high school": teaching is the work
    if korean_job and (
        works
        or "되다" in lemmas
        or "달다" in lemmas  # "과장 달았어": a rank taken
        or any(t.tag == "VCP" for t in statement.tokens)
        or re.search(r"(?:임|입니다|이에요|예요|야)\s*[.!~]*$", text)
        or text.rstrip(" .!~").endswith(tuple(vocab.KO_JOBS))
    ):
        return "job"
    if (
        cues.EN_WORKPLACE.search(text)
        or cues.KO_WORKPLACE_CUE.search(text)
        or _goes_to_an_organisation(statement)
        or (works and "에서" in text)
    ):
        return "workplace"
    if works and lemmas:
        return "job"
    return ""


def _goes_to_an_organisation(statement: Statement) -> bool:
    """ "네이버에 다녀", "스타트업 다녀": an employer; "헬스 다녀" (a gym) is no employer."""
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        if token.raw != "다니다" or index == 0:
            continue
        before = tokens[index - 1]
        if before.tag == "JKB" and before.raw == "에" and index > 1:
            before = tokens[index - 2]
        if before.tag == "NNP" or before.raw in vocab.ORGANISATIONS:
            return True
        # a kind of company: "보험사", "증권사", "출판사" (a job in "-사" is read before this)
        if before.tag == "NNG" and len(before.raw) >= 2 and before.raw.endswith("사"):
            return True
    return False


def _age_or_birthday(statement: Statement) -> str:
    text = statement.text
    if cues.BIRTHDAY.search(text):
        return "birthday"
    others = any(t.form in vocab.RELATION_OF for t in statement.tokens) or re.search(
        r"\b(?:he|she|they|his|her|my\s+\w+)\s+(?:is|turned)\b", text
    )
    if cues.AGE.search(text) and not others:
        return "age"
    return ""


def _phone_number(statement: Statement) -> str:
    """ "work phone is 010-...", "개인 번호 010-...": the number to reach the user on, one per
    line: a work number and a personal one are two questions."""
    text = statement.text
    if not (cues.PHONE_NUMBER.search(text) and cues.PHONE_LINE.search(text)):
        return ""
    return "work_phone_number" if cues.WORK_LINE.search(text) else "phone_number"


def _relationship_or_weight(statement: Statement) -> str:
    text = statement.text
    if cues.RELATIONSHIP.search(text):
        return "relationship"
    if cues.WEIGHT.search(text) and not cues.REQUEST.search(text):
        return "weight"
    return ""


def _diet_or_allergy(statement: Statement) -> str:
    text = statement.text
    if cues.ALLERGY.search(text):
        # The allergen: named right before "알레르기" / "allergy", or after "allergic to".
        clause = clause_with(statement, cues.ALLERGY)
        found = re.search(r"\ballergic\s+to\s+((?:[a-z-]+\s+)?[a-z-]+)", clause.text)
        if found:
            words = [vocab.canon(w) for w in found.group(1).split() if w not in vocab.EN_FILLER]
            return f"allergy:{words[-1]}" if words else ""
        tokens = clause.tokens
        for index, token in enumerate(tokens):
            if cues.ALLERGY.search(token.raw) and index > 0:
                before = index - 1
                while before > 0 and tokens[before].tag == "XSN":  # "갑각/류"
                    before -= 1
                allergen = tokens[before]
                if allergen.tag in KO_CONTENT_TAGS or allergen.tag == "EN":
                    return f"allergy:{allergen.form}"
        return ""
    if cues.DIET.search(text):
        return "diet"
    return ""


def _favourite(statement: Statement) -> str:
    # "now", "these days", "요즘", "이제" say when, not which category.
    text = re.sub(r"\s+", " ", cues.NOWADAYS.sub(" ", statement.text)).strip()
    best = cues.KO_BEST_OF_KIND.search(text)
    if best:
        kind = vocab.canon(best.group("kind"))
        if kind not in vocab.KO_FILLER:
            return f"favourite:{vocab.SAME_CATEGORY.get(kind, kind)}"
    if not cues.FAVOURITE.search(text):
        return ""
    found = cues.EN_FAVOURITE_CATEGORY.search(text) or cues.EN_FAVOURITE_AFTER.search(text)
    if found:
        words = [vocab.canon(w) for w in found.group(1).split() if w not in vocab.NOT_A_CATEGORY]
        key = vocab.subject_key([vocab.SAME_CATEGORY.get(w, w) for w in words], ordered=True)
        if key and key not in vocab.CATEGORY_OF:
            return f"favourite:{key}"
    categories = [vocab.CATEGORY_OF[w] for w in statement.words() if w in vocab.CATEGORY_OF]
    categories += [
        vocab.CATEGORY_OF[w] for w in re.findall(r"[a-z-]+", text) if w in vocab.CATEGORY_OF
    ]
    if categories:
        return f"favourite:{categories[0]}"
    # "최애 가수는 ...": the category follows; "세븐틴 최애는 ...": the favourite among what
    # comes before. (Kiwi splits "최애" now and then, so this reads the text.)
    found = cues.KO_FAVOURITE_CATEGORY.search(text)
    if found:
        category = vocab.canon(found.group("after") or found.group("before") or "")
        category = "" if category in vocab.KO_FILLER else category
        return f"favourite:{vocab.SAME_CATEGORY.get(category, category)}" if category else ""
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        # "제일 좋아하는 색은 ...": the noun the liking verb modifies is the category.
        if token.raw == "좋아하다" and index + 1 < len(tokens) and tokens[index + 1].tag == "ETM":
            if any(t.tag.startswith("VV") for t in tokens[index + 2 :]):
                return ""  # "좋아하는 사람 생겼어": what happened, no favourite named
            for noun in tokens[index + 1 :]:
                if noun.tag in ("NNG", "NNP") and noun.raw not in vocab.KO_FILLER:
                    return f"favourite:{vocab.SAME_CATEGORY.get(noun.form, noun.form)}"
                if noun.tag.startswith("J") and noun.raw not in ("은", "는"):
                    break
    return ""


def _comparison_key(statement: Statement) -> str:
    """`likes:<a b>` for "A보다 B" / "B over A": one question, which of the two."""
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        if token.tag == "JKB" and token.raw == "보다" and index > 0:
            lesser = tokens[index - 1].form
            greater = next((t.form for t in tokens[index + 1 :] if t.tag in KO_CONTENT_TAGS), "")
            if lesser and greater:
                return f"likes:{vocab.subject_key([lesser, greater])}"
    found = cues.EN_COMPARISON.search(statement.text)
    if found and (cues.PREFER.search(statement.text) or "than" in found.group(0)):
        sides = []
        for side in found.groups():
            words = [vocab.canon(w) for w in side.split() if w not in vocab.EN_FILLER]
            if words:
                sides.append(words[-1])
        if len(sides) == 2:
            return f"likes:{vocab.subject_key(sides)}"
    return ""


def _preference(whole: Statement) -> str:
    if cues.MOMENTARY.search(whole.text):
        return ""  # "오늘 커피 좋다": how things are now, not a lasting taste
    if not cues.PREFER.search(whole.text) and not cues.LIKE.search(whole.text):
        return ""
    statement = clause_with(whole, cues.PREFER) if cues.PREFER.search(whole.text) else whole
    if statement is whole:
        statement = clause_with(whole, cues.LIKE)
    text = statement.text
    prefers = bool(cues.PREFER.search(text))
    compared = _comparison_key(statement)
    if compared:
        return compared
    words = [w for w in statement.words() if w not in ("preference",)]
    if not words:
        return ""
    dimensions = [vocab.DIMENSION_OF[w] for w in words if w in vocab.DIMENSION_OF]
    things = [w for w in words if w not in vocab.DIMENSION_OF]
    # "회의는 아침이 좋아", "I like my coffee iced": a choice, said with a liking verb.
    # "아침 회의가 좋아" (is good) judges one choice; "좋아하다" (likes) does not compare.
    topic_choice = any(t.raw == "좋다" and t.tag.startswith("VA") for t in statement.tokens)
    if cues.EN_LIKE_MY_X.search(text) and dimensions:
        topic_choice = True
    if (prefers or topic_choice) and dimensions and things:
        return f"prefers:{_head(statement, things)}:{dimensions[0]}"
    key = vocab.subject_key(words)
    return f"likes:{key}" if key else ""


def _head(statement: Statement, things: list[str]) -> str:
    """The thing a preference is about: the last noun before an English preposition
    ("window seats on long flights" is about seats), else the last one (Korean is head-final:
    "장거리 비행에서는 창가 자리 선호")."""
    before: list[str] = []
    for token in statement.tokens:
        if token.tag == "EN" and token.raw in vocab.EN_PREPOSITIONS and before:
            return before[-1]
        if token.form in things:
            before.append(token.form)
    return things[-1]


def _about_someone_else(statement: Statement) -> bool:
    """True when the statement's subject is another person ("my wife works at ...",
    "동생이 서울에 살아"): it answers nothing about the user."""
    if cues.EN_OTHER_SUBJECT.search(statement.text) and not re.search(
        r"\b(?:and|&)\s+i\b|\bi\s+and\b|\bwe\b", statement.text
    ):
        return True
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        if token.raw not in vocab.PEOPLE:
            continue
        # "누나가", "누나 서연이", "딸 하윤이가": the person, maybe named, as the subject.
        following = [t for t in tokens[index + 1 : index + 4] if t.tag not in ("NNP", "VCP")]
        subject = bool(following) and following[0].tag in ("JX", "JKS")
        if subject and not any(t.tag == "NP" and t.raw in ("저", "나") for t in tokens[index:]):
            return True
        # "우리 누나 서연이 지금 밴쿠버 살아": a particle left out in speech.
        ours = index > 0 and tokens[index - 1].raw in ("우리", "저희", "울")
        if ours and not subject and any(t.tag == "NNP" for t in tokens[index + 1 : index + 2]):
            return True
    return False


def _limit(statement: Statement) -> str:
    """ "Meetings shouldn't go over 30 minutes" answers how long meetings should be; "calls
    should end by 5pm" when they should be: a choice along a dimension, as "prefer short
    meetings" and "prefer morning meetings" are."""
    found = cues.EN_LIMIT.match(statement.text)
    if not found:
        return ""
    thing = vocab.canon(found.group("thing"))
    return f"prefers:{thing}:{'time' if found.group('clock') else 'size'}"


# Korean verbs of an exercise, for "이제 일요일 아침에 뛰어" where no noun names it.
_KO_EXERCISE_VERBS = {"뛰다": "running", "달리다": "running", "헤엄치다": "swimming"}
# The days of a weekly routine run together ("월수금", "화목토").
_KO_DAY_RUN = r"(?<![가-힣])(?:월수금|화목토?|월수|월화수목금|금토일|토일)(?![가-힣])"
_WHEN_WORDS = re.compile(
    _KO_DAY_RUN + r"|[월화수목금토일]요일|주말|평일|아침|저녁|새벽|점심|"
    r"\b(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?|"
    r"weekdays?|mornings?|evenings?|nights?)\b",
    re.IGNORECASE,
)


# What makes a day the routine's and not one outing's: the exercise as a topic ("러닝은"), "이제",
# "매주", "마다", "요즘", days in the plural.
_KEPT_UP = re.compile(
    _KO_DAY_RUN + r"|[가-힣](?:은|는)\s|이제|매주|마다|요즘|"
    r"\b(?:every|now|usually|on\s+\w+days|weekends|weekdays|mornings|evenings|nights)\b",
    re.IGNORECASE,
)


_ONE_MORE = re.compile(r"\b(?:also|too|as\s+well)\b|[가-힣](?:에|엔)도(?:\s|$)|도\s+(?:가|해|하)")


def _routine_time(statement: Statement) -> str:
    """When the user does an exercise they keep up ("러닝은 토요일 아침에 해", "I swim on
    tuesday evenings", "이제 일요일 아침에 뛰어"): one answer per exercise, so a new day
    replaces the old one and another exercise's day stays."""
    text = statement.text
    if not (_WHEN_WORDS.search(text) and _KEPT_UP.search(text)) or cues.FUTURE.search(text):
        return ""  # "토요일에 테니스 치러 가": one outing
    if _ONE_MORE.search(text):
        return ""  # "I also run on wednesdays": a day added, the other day stays
    if re.search(r"\d", text) and not re.search(r"\d+\s*(?:시|am|pm|:\d\d)", text):
        return ""  # a date ("12월 5일"), not a day of the week
    for token in statement.tokens:
        exercise = _KO_EXERCISE_VERBS.get(token.raw) or (
            vocab.canon(token.raw) if current.EXERCISE_WORDS.fullmatch(token.raw) else ""
        )
        if exercise and exercise not in ("운동", "workout", "workouts"):
            return f"prefers:{exercise}:time"
    return ""


_ABOUT_THE_USER = (
    _phone_number,
    _limit,
    _relationship_or_weight,
    _diet_or_allergy,
    _favourite,
    _residence,
    current_thing,
    _hometown,
    _school_or_major,
    _job_or_workplace,
    _age_or_birthday,
    _preference,
    _routine_time,
)


def question_of(text: str) -> str:
    """The question about the user that `text` answers, as a slot name; "" for none.

    Two statements get the same slot exactly when a later one should replace the earlier
    one; statements that can both be true get different slots (or "").
    """
    if not text or not text.strip():
        return ""
    statement = analyse(text.strip()[:500])
    if is_question(statement):
        return ""
    # Body weight is no unit of answers ("72키로 나가요" names kilograms of the user).
    weight = cues.WEIGHT.search(statement.text) and not cues.REQUEST.search(statement.text)
    slot = "" if weight else _answer_facet(statement) or _name(statement)
    if not slot and cues.PARTNER_NAMED.search(statement.text):
        slot = "relationship"  # "my boyfriend is Minho": who the partner is, until a break-up
    if not slot and not _about_someone_else(statement):
        slot = next((s for s in (q(statement) for q in _ABOUT_THE_USER) if s), "")
    if slot == "residence":
        slot = _consequence_of_a_move(statement) or slot
    if not slot and not _about_someone_else(statement):
        slot = _state_in_a_clause(statement)
    slot = OCCUPATION.get(slot, slot)
    return slot if valid(slot) else ""


def _consequence_of_a_move(statement: Statement) -> str:
    """ "Moved to Denver, so I'm on Mountain time now", "이사해서 이제 버스로 출근해요": the move is
    the reason; the state it gives, told after it, is what the statement answers."""
    parts = clauses(statement)
    for part in parts[1:]:
        found = current_thing(part)
        if found:
            return found
    # "I'm on Pacific time now since I moved to Seattle": the state told before its reason
    for part in parts[:-1]:
        found = current_thing(part)
        if found and found != "residence" and not cues.EN_RESIDENCE.search(part.text):
            return found
    return ""


def _state_in_a_clause(statement: Statement) -> str:
    """ "In Lisbon for the next two years, so I'm on WET now": the whole says a plan, and a
    clause of it says the state that holds now."""
    parts = clauses(statement)
    if len(parts) < 2:
        return ""
    return next(
        (found for part in parts if _NOW.search(part.text) and (found := current_thing(part))),
        "",
    )


_NOW = re.compile(r"\b(?:now|currently|these\s+days)\b|이제|요즘|현재|지금은")


# A job title, a workplace and a school stay three questions: "I'm a nurse" and "I work at
# Severance Hospital" are both true at once, and one must not replace the other.
OCCUPATION: dict[str, str] = {}
