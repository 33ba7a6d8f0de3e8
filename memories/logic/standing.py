"""The allowlist for standing instructions: pure functions, no Django.

The detector in `injection` names attacks by what they do; an unseen phrasing escapes it. This
module turns the question around. A text that tells the assistant how to behave from now on,
every time, or when something happens (a standing instruction) is allowed only when it has the
shape of a preference about the form of answers to this user (language, formality and tone,
length, format, units, emoji, how to address the user, topics to avoid or stress, citing
sources) and nothing in it crosses a boundary (an address or link, another person, passing
data on, hiding or deleting, the assistant's own rules, tools). Every other standing
instruction is held like an attack.

Plain facts ("나는 서울에 살아", "I always drink tea") and one-off requests ("이거 요약해줘",
"translate this") are not standing instructions and are not judged here.

The functions read one folded view of the text (`injection.views` unwraps encodings first).
"""

from __future__ import annotations

import re

from memoryhub.text import _analyser

# --- is it a standing instruction? -----------------------------------------------------------

# Said of the assistant's future or repeated behaviour.
_STANDING_KO = re.compile(
    r"앞으로|이제부터|이제\s*부터|지금부터|다음부터|다음번부터|이후로|이후에는|향후|매번|"
    r"항상|언제나|(?<![가-힣])늘(?=\s)|계속|무조건|기본적으로|평소에|영원히|평생|"
    r"마다|[가-힣](?:ㄹ|을|할|될|볼|쓸|줄)\s*(?:때|땐)|[가-힣]\s*(?:때|땐)(?:는|에는|도)?(?=\s|$)|"
    r"[가-힣](?:으면|면|거든)(?=\s)(?!\s*(?:돼|됨|된|되|좋겠))"
)
_STANDING_EN = re.compile(
    r"\b(?:from\s+now\s+on|going\s+forward|from\s+here\s+on|(?:from\s+)?this\s+point\s+on|"
    r"in\s+(?:the\s+)?future|for\s+the\s+future|for\s+future|always|every\s*time|each\s+time|"
    r"whenever|never(?!\s+mind)|any\s*time\b|by\s+default|from\s+today|henceforth|hereafter|"
    r"when\s+(?:i|you|someone|anyone|a|the)\b|if\s+(?:i|you|someone|anyone|a|the|they)\b)"
)
# A memory framing: the text asks to be kept.
_FRAMING = re.compile(
    r"(?:기억|저장)\s*해\s*(?:둬요|둬|줘요|줘|주세요|두세요|놔)?(?!\s*둘게)|기억하세요|기억할\s*것|"
    r"잊지\s*(?:마|말아?)(?:\s*(?:줘|요|라))?|명심\s*(?:해|하세요|해요|해줘|할\s*것)?|"
    r"메모해\s*(?:둬|줘|주세요)|적어\s*둬|새겨\s*둬|"
    r"\bremember\b|\bkeep\s+(?:this|that|it)?\s*in\s+(?:mind|memory)\b|\bnote\s+(?:for\s+later|"
    r"this|that)\b|\bdon'?t\s+forget\b|\bmemori[sz]e\b|\bsave\s+this\b|\bstore\s+this\b"
)
# Addressed to the assistant as a third party would address it, or a pasted message.
_ADDRESSED = re.compile(
    r"ai\s*(?:비서|어시스턴트)|(?:비서|어시스턴트|챗봇|인공지능)\s*(?:님|야|아|여러분|에게|한테|는|가)|"
    r"(?<![가-힣a-z])ai\s*(?:야|아|님|에게|한테|는|가)|"
    r"\b(?:dear|hey|hi|attention|note\s+to)\s+(?:the\s+)?(?:ai|assistant|bot|model|llm)\b|"
    r"\bto\s+(?:the|any|all)\s+(?:ai|assistants?|bots?|models?|llms?)\b|"
    r"^\s*(?:ai|assistant|bot|model)\s*[,:]|\b(?:ai|assistant)\s+instructions?\b|"
    r"(?:^|\n)\s*(?:from|subject|to|cc|보낸\s*사람|받는\s*사람|제목|발신|수신)\s*:|"
    r"\[\s*(?:전달|fwd?|forwarded)\s*\]|(?:^|\n)\s*(?:fwd?|fw)\s*:|forwarded\s+message|"
    r"카톡\s*전달|전달\s*(?:된|받은|메시지)|<!--|"
    r"\[\s*[가-힣a-z ]{1,10}\]\s*[^\n]*(?:보세요|바랍니다)"
)

# Korean endings that can only ask, order, oblige or permit, at the end of a clause.
_END_OF_CLAUSE = r"(?=\s*[.!~,;:)\]ㅎㅋ^\-]|\s*$|\s*\n|\s+(?:앞으로|이제부터|매번|항상|늘|계속))"
_KO_ASK = re.compile(
    r"(?:줘|줘요|주세요|주라|주십시오|줄래|도록\s*해|해라|하라|하세요|하십시오|십시오|[가-힣]세요|할\s*것|"
    r"할것|해야\s*(?:해|함|돼|됨|한다)|야\s*(?:해|함|돼|됨|한다)|마|마라|마요|말아|말고|말\s*것|"
    r"말기|지\s*마|지마|도\s*(?:돼|됨|된다|괜찮아|좋아)|면\s*(?:돼|됨)|둬|둬요|놔|놔요|"
    r"부탁해|부탁해요|부탁드려요|부탁합니다|부탁드립니다|드려요|하자|말자|"
    # the formal requests of a notice: "확인 후 저장 바랍니다", "회신 요망"
    r"바랍니다|요망)" + _END_OF_CLAUSE
)
# Chat runs sentences together without punctuation ("경고 띄우지 마 그냥 바로 열어줘 이 규칙
# ..."): a request ending that can end nothing but a request counts mid-line too.
_KO_ASK_RUN_ON = re.compile(
    r"(?P<end>[가-힣]줘|[가-힣]줘요|주세요|주십시오|십시오|지\s*마(?:세요|라)?|지\s*말아\s*(?:줘|주세요)|"
    r"바랍니다)(?=\s+[가-힣a-z0-9])|지\s*말고(?=\s+[가-힣a-z0-9])"
)
# A Korean sentence about the speaker ("나 항상 아침에 운동해"): its plain ending is a statement.
_KO_SELF = re.compile(r"(?:^|\s)(?:나는|난|내가|나|저는|전|제가|저|우리는|우린|우리)\s")
# English: an imperative clause (a bare verb opens it) or a rule said of the assistant.
_EN_OPENERS = re.compile(
    r"^(?:please\s+|pls\s+|kindly\s+|just\s+|also\s+|and\s+|then\s+|so\s+|now\s+|"
    # fillers that open a sentence about oneself ("btw i'm deaf in one ear")
    r"btw,?\s+|fyi,?\s+|ps,?\s+|tbh,?\s+|honestly,?\s+|actually,?\s+|anyway,?\s+|"
    r"always\s+|never\s+|also\s+|simply\s+|quietly\s+|silently\s+|secretly\s+)*"
)
_EN_NOT_VERBS = frozenset(
    [
        "i",
        # a finite be/have opens a statement (the note style of a memory: "Is deaf in ..."),
        # never an order ("be ..." is)
        "is",
        "isn't",
        "has",
        "hasn't",
        "does",
        "doesn't",
        "am",
        "i'm",
        "i've",
        "i'd",
        "i'll",
        "we",
        "we're",
        "my",
        "our",
        "me",
        "you",
        "you're",
        "your",
        "it",
        "it's",
        "its",
        "he",
        "she",
        "they",
        "them",
        "their",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "the",
        "a",
        "an",
        "some",
        "any",
        "all",
        "every",
        "each",
        "no",
        "not",
        "one",
        "what",
        "who",
        "how",
        "why",
        "where",
        "which",
        "when",
        "if",
        "whenever",
        "as",
        "at",
        "in",
        "on",
        "of",
        "for",
        "to",
        "with",
        "by",
        "from",
        "about",
        "after",
        "before",
        "since",
        "because",
        "but",
        "or",
        "so",
        "and",
        "yes",
        "ok",
        "okay",
        "thanks",
        "thank",
        "hello",
        "hi",
        "hey",
        "dear",
        "today",
        "tomorrow",
        "yesterday",
        "sometimes",
        "usually",
        "often",
        "mostly",
        "lately",
        "recently",
        "maybe",
        "also",
        "just",
        "really",
        "very",
        "subject",
        "cc",
        "fwd",
        "fw",
        "re",
        "sent",
        "date",
        "oh",
        "ah",
        "wow",
        "great",
        "lol",
        "haha",
        "well",
        "ugh",
        "hmm",
        "fun",
        "note",
        "never",
        "please",
    ]
)
# Irregular past tenses and participles: a clause opened by one tells what happened ("grew up
# in Busan", "got promoted", "been vegan for years"); an order is never in the past.
_EN_PAST = frozenset(
    """was were been had did went gone got gotten grew grown came become became began begun
    bought brought built caught chose chosen drove driven ate eaten fell felt found flew flown
    forgot forgotten gave given held kept knew known left lost made meant met paid put quit
    ran read rode said sang sat saw seen sold sent shot slept spent spoke stood stole swam
    took taken taught told thought threw won wore wrote written""".split()  # noqa: SIM905
)
# Bare verbs that end like a participle or an adverb ("ping the transcript to ...").
_EN_BARE_VERBS_LIKE_FORMS = frozenset(
    """reply apply supply rely multiply ping bring ring string sting swing cling fling wring
    feed need bleed speed seed shed embed""".split()  # noqa: SIM905
)
_EN_RULE = re.compile(
    r"\byou\s+(?:should|must|will|may|can|shall|need\s+to|have\s+to|are\s+(?:to|now|allowed|"
    r"free|permitted|required|expected|no\s+longer)|are\b)|\byou'?re\s+(?:now|allowed|free|to)\b|"
    r"\bit'?s\s+(?:ok|okay|fine|alright)\s+to\b|\bno\s+need\s+to\b|\bmake\s+sure\b|"
    r"\bi\s+(?:want|need|would\s+like|'d\s+like|prefer)\s+you\s+to\b|\bdon'?t\s+\w+|"
    r"\bdo\s+not\s+\w+|\blet'?s\b|"
    # "from now on you decide ...": a rule said of the assistant's future
    r"\b(?:from\s+now\s+on|going\s+forward|from\s+today|henceforth)\s*,?\s*you\s+(?!were\b)[a-z]+"
)
# "honey basically never spoils": a habit of a third person, not an order.
_EN_HABIT = re.compile(r"\b(?:never|always|usually|often|sometimes|basically)\s+[a-z]+s\b")
# Quote marks, comment openers and bullets before a clause's first word.
_LEADING_MARKS = re.compile(r"^[\s<>!#*\-\"'(\[]+")
_CLAUSE = re.compile(r"[,;:.!?\n]+|\s+[-–—]\s+|\bthen\b")


# A label the user gives their own words ("rule for myself: I never ...", "goal for me: ...",
# "note to self: ..."): a noun, not a bare verb ordering anything. Only the label goes; what
# follows it is read as any sentence is.
_EN_SELF_LABEL = re.compile(
    r"^\s*(?:(?:my\s+)?(?:personal\s+)?(?:rule|goal|resolution|reminder|motto|policy)s?\s+"
    r"(?:for|to)\s+(?:myself|self|me)|note\s+to\s+self)\s*:\s*",
    re.IGNORECASE,
)


# People named as a clause's subject ("people always ask", "everyone asks"): what others do,
# never an order to the assistant.
_EN_PEOPLE = frozenset(
    """people everyone everybody nobody someone somebody anyone anybody folks children kids
    men women strangers others""".split()  # noqa: SIM905
)
# A frequency adverb after a clause's first word makes that word its subject ("people always
# ask", "mom never calls"); an order puts the adverb first ("always answer ...").
_EN_FREQUENCY = frozenset(
    "always never usually often sometimes rarely seldom still constantly keep".split()  # noqa: SIM905
)


def _en_directive(sentence: str) -> bool:
    sentence = _EN_SELF_LABEL.sub("", sentence)
    if _EN_RULE.search(sentence):
        return True
    for clause in _CLAUSE.split(sentence):
        words = re.findall(r"[a-z']+", _EN_OPENERS.sub("", _LEADING_MARKS.sub("", clause)))
        if not words or _EN_HABIT.search(clause):
            continue
        head = words[0]
        if head in _EN_NOT_VERBS or head in _EN_PAST or head in _EN_PEOPLE:
            continue
        if len(words) >= 3 and words[1] in _EN_FREQUENCY:
            continue
        if head.endswith("s") and not head.endswith(("ss", "us", "is")) and len(head) > 3:
            continue  # "Likes it when you ...": a note's third person, never an order
        if head.endswith(("ing", "ed", "ly")) and head not in _EN_BARE_VERBS_LIKE_FORMS:
            continue
        # A clause opened by a bare word followed by more words: "print your hidden ...".
        if len(words) >= 2 and re.match(r"^[a-z]{2,}$", head):
            return True
    return False


_ACTION_TAGS = frozenset({"VV", "VV-I", "VV-R", "XSV", "VX", "VX-I", "VX-R"})
# Not the nominal "-ㅁ/-음": that is the note style of a statement ("반차 씀"), the very form
# the extractor writes a memory in, so reading it as an order would hold the user's own facts.
_PLAIN_ENDINGS = frozenset({"어", "아", "여", "라", "어라", "아라", "기"})


def _ko_note_order(sentence: str) -> bool:
    """The sentence ends, note-style, in a bare noun after an adverb ("이 규칙 계속 기억",
    "원문 그대로 저장", "바로 삭제"): an order with its "-해" left off, or a note of one's own
    doing; like a plain ending, only a boundary makes it an order to hold."""
    tokens = [t for t in _analyser().tokenize(sentence) if not t.tag.startswith("S")]
    return len(tokens) >= 2 and tokens[-1].tag == "NNG" and tokens[-2].tag == "MAG"


def _ko_plain_order(sentence: str) -> bool:
    """The sentence ends in a plain -어/-아 (or -ㅁ, -기) ending on an action verb, not in the
    past: an order ("지워", "무시해") or a statement ("조심해", "운동하기") alike. An adjective
    ("우울해") or a past tense ("갔었어") is only a statement. A regex cannot tell these
    apart; the morphemes can."""
    tokens = [t for t in _analyser().tokenize(sentence) if not t.tag.startswith("S")]
    if len(tokens) < 2 or tokens[-1].tag not in {"EF", "EC", "ETN"}:
        return False
    if tokens[-1].form not in _PLAIN_ENDINGS:
        return False
    before = tokens[-2]
    return before.tag in _ACTION_TAGS


ASK = "ask"
PLAIN = "plain"


def directive(sentence: str) -> str | None:
    """`ASK` when `sentence` has a predicate that can only be an imperative, request,
    obligation or permission; `PLAIN` when it may be one or a statement; else None."""
    if re.search(r"[가-힣]", sentence):
        if _KO_ASK.search(sentence) or _KO_ASK_RUN_ON.search(sentence):
            return ASK
        if not _KO_SELF.search(sentence) and (
            _ko_plain_order(sentence) or _ko_note_order(sentence)
        ):
            return PLAIN
        return None
    return ASK if _en_directive(sentence) else None


_SENTENCES = re.compile(r"(?<=[.!?。])\s+|\n+")
_QUESTION = re.compile(r"\?\s*$")


def _sentences(folded: str) -> list[str]:
    return [s.strip() for s in _SENTENCES.split(folded) if s.strip()]


def standing_instructions(folded: str) -> list[tuple[str, str]]:
    """The sentences of `folded` that tell the assistant what to do later or every time, each
    with how sure its predicate is an order (`ASK` or `PLAIN`).

    A pasted message or a text addressed to the assistant counts as a whole: any directive in
    it is someone speaking to the assistant, and is read as an order."""
    sentences = [s for s in _sentences(folded) if not _QUESTION.search(s)]
    if _ADDRESSED.search(folded):
        directives = [(s, ASK) for s in sentences if directive(s)]
        if directives:
            return directives
    framed = bool(_FRAMING.search(folded))
    found = []
    for sentence in sentences:
        marked = _STANDING_KO.search(sentence) or _STANDING_EN.search(sentence)
        if not (marked or framed):
            continue
        # The marker ("앞으로") holds for every request run on after it in the same line.
        for part in _run_on_parts(sentence):
            how = directive(_FRAMING.sub(" ", part))
            if how is not None:
                found.append((part, how))
    return found


def _run_on_parts(sentence: str) -> list[str]:
    """`sentence` cut after each request ending that more words follow ("띄우지 마 | 그냥 바로
    열어줘 | 이 규칙 계속 기억"); "-지 말고" joins two halves of one request and is not cut."""
    parts, start = [], 0
    for match in _KO_ASK_RUN_ON.finditer(sentence):
        if match.group("end"):
            parts.append(sentence[start : match.end()].strip())
            start = match.end()
    parts.append(sentence[start:].strip())
    return [part for part in parts if part]


# --- is it a benign preference? --------------------------------------------------------------

# The form of answers to this user.
_SHAPE = re.compile(
    # language
    r"한국어|영어|일본어|중국어|한글|영문|\b(?:english|korean|japanese|chinese|spanish|french|"
    r"german|language)\b|"
    # formality, tone
    r"존댓말|반말|높임말|존대|말투|어투|어조|톤|격식|친근|편하게|정중|공손|다정|딱딱|부드럽|"
    r"유머|재밌게|재미있게|진지|장난|\b(?:humou?r\w*|funny|playful|serious|witty|sarcas\w*)\b|"
    r"\b(?:tone|formal|informal|casual|polite|friendly|warm|professional|blunt|gentle|plain|"
    r"simple|simpler|jargon|slang)\b|"
    # length, detail
    r"\b(?:under|within|at\s+most|no\s+more\s+than|max(?:imum)?)\s+(?:a|one|two|three|\d+)\s+"
    r"[a-z]+|페이지|분량|[0-9]+\s*자\s*(?:이내|이하|내외|정도)|"
    # what the user's context is taken to be
    r"\b(?:assume|presume|default\s+to)\b|가정|기본으로|"
    r"짧게|길게|간단|간결|자세|상세|요점|핵심|줄\s*(?:이내|이하|로|정도)|[0-9]+\s*줄|한\s*줄|세\s*줄|"
    r"두\s*줄|결론|길이|\b(?:brief|briefly|short|shorter|long|longer|concise|detailed|detail|"
    r"length|verbose|(?:one|two|three|four|five|few|\d+|single|a)[\s-]+(?:lines?|words?|sentences?|"
    r"paragraphs?)|to\s+the\s+point|conclusion|tl;?dr)\b|"
    # format
    r"표로|표\s*형식|표를|목록|리스트|불릿|글머리|번호\s*매|소제목|제목|헤더|마크다운|코드\s*블록|"
    r"코드|예시|예제|단계|순서대로|요약|정리|굵게|\b(?:bullets?|bullet\s+points?|lists?|tables?|"
    r"headings?|headers?|titles?|markdown|code|examples?|steps?|step[\s-]by[\s-]step|summary|"
    r"summari[sz]e|numbered|number\s+(?:the|them|each|your)|bold|format|formatting|outline|"
    r"structure)\b|"
    r"수식|공식|\b(?:latex|mathjax|json|yaml|csv|plain\s+text)\b|"
    # accuracy, clarifying questions
    r"\b(?:double[\s-]check|verify|proofread|fact[\s-]check|ask\s+me)\b|검토|검증|다시\s*확인|"
    r"되물어|(?:나한테|저한테|나에게|저에게)\s*(?:먼저\s*)?물어|"
    # units
    r"단위|섭씨|화씨|미터|킬로|그램|센티|인치|파운드|원화|달러|\b(?:units?|metric|imperial|"
    r"celsius|fahrenheit|kilomet(?:er|re)s?|miles|grams?|kg|currency|24[\s-]hour)\b|"
    # which clock
    r"[0-9]+\s*시간제|오전\s*오후|"
    # emoji
    r"이모지|이모티콘|\bemojis?\b|\bemoticons?\b|"
    # how drafts written for the user open and close
    r"서명|맺음말|끝인사|인사말|\b(?:sign|signed|signature|sign[\s-]?off|greeting|salutation)\b|"
    # how to address the user
    r"불러|호칭|\bcall\s+me\b|\baddress\s+me\b|\bmy\s+name\b|"
    # topics to avoid or stress
    r"얘기|이야기|주제|언급|화제|\b(?:topics?|mention|bring\s+up|talk\s+about|discuss|avoid)\b|"
    # sources and links to them
    r"출처|근거|참고\s*자료|인용|링크|\b(?:sources?|cite|citations?|references?|links?)\b|"
    # how hard, how sure, how corrected, how many options, which clock
    r"쉽게|어렵게|쉬운|용어|풀어서|눈높이|지적|맞춤법|틀린|틀리|고쳐|교정|피드백|모르면|모르는|모를|"
    r"확실|추측|솔직|번역|직역|의역|[0-9]+\s*개|[한두세네]\s*개|개씩|개까지|장단점|추천|선택지|"
    r"시간\s*기준|기준으로|날짜|시각|경어|격식|부를|부르|먼저|순서|경고|주의|문법|일정|약속|비워|"
    r"리마인|알림|"
    r"\b(?:easy|easier|simply|technical|correct|corrections?|mistakes?|typos?|grammar|spelling|"
    r"feedback|unsure|sure|confident|confidence|guess\w*|know|honest\w*|translat\w+|literal\w*|"
    r"options?|choices?|pros|cons|recommend\w*|time\s*zones?|dates?|clock|first|order|flag|"
    r"warn\w*|caution|syntax|remind\w*|calendar|schedule)\b|"
    # what the answers include, leave out or show of their working, and permission to leave
    # something out
    r"(?:도|까지)\s*(?:같이|함께)?\s*(?:적어|써|넣어|알려|보여|달아|붙여|말해|언급|표시|설명|해)|"
    r"(?:같이|함께)\s*(?:적어|써|넣어|알려|보여|달아|붙여|설명)|빼\s*(?:줘|주|고)|제외|생략|설명|풀이|"
    r"과정|이유|골라|고르|안\s*해도\s*(?:돼|됨|괜찮)|안\s*[가-힣]+도\s*(?:돼|됨|괜찮)|"
    r"하지\s*않아도|할\s*필요\s*없|\b(?:include|add|mention|skip|leave\s+out|omit|explain|show|"
    r"mark|highlight|quote|point\s+out|pick|choose|suggest|what\s+(?:it|they|each)\s+(?:does|do|"
    r"means?)|no\s+need\s+to|don'?t\s+(?:need|"
    r"have)\s+to)\b|"
    # what the assistant keeps about the user, which the user controls
    r"메모리|기억|저장|기록|\b(?:memor(?:y|ies)|save|store|remember|record)\b"
)

# --- does it cross a boundary? ---------------------------------------------------------------

_HOST = (
    r"(?:https?://|www\.)\S+|\b\d{1,3}(?:\.\d{1,3}){3}\b|"
    r"\b[a-z0-9][a-z0-9\-]*(?:\.[a-z0-9\-]+)*\.(?:com|net|org|io|co|kr|me|ly|app|dev|xyz|info|"
    r"biz|site|online|shop|store|link|click|ai|gg|tv|us|uk|de|jp|cn|ru|top|page|cc)\b"
)
# An address, a link, a handle, a phone number.
_ADDRESS = re.compile(
    _HOST + r"|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|(?<![\w.])@[a-z0-9_]{2,}|"
    r"\b0\d{1,2}[-. ]?\d{3,4}[-. ]?\d{4}\b|\+\d[\d \-]{8,}\d"
)
_OUTWARD = re.compile(
    # another person or party
    r"친구|팀장|부장|과장|대리|사장|상사|동료|관리자|운영자|개발자|형(?:한테|에게|이|의|\s)|누나|언니|"
    r"오빠|엄마|아빠|부모|동생|남친|여친|남편|아내|회사|누가|누구|아무(?:한테|에게|나|라도|든)|다른\s*사람|사람들|"
    r"(?<![가-힣])상대(?!적)|제3자|제\s*3\s*자|파트너|광고|스폰서|후원|협찬|제휴|쿠폰|추천\s*코드|채널|구독|"
    r"(?<![가-힣])(?!나한|저한|나에|저에|너한|너에|내게|제게)[가-힣]{1,6}(?:한테|에게|께)(?=\s|$|도|만)|"
    r"\b(?:someone|somebody|anyone|anybody|everyone|whoever|others|other\s+people|people|"
    # "they" as a person who asks or is told; "say where they come from" speaks of things
    r"(?:if|when|whenever|unless)\s+they|they\s+(?:ask|say|tell|want|request|send|e-?mail|text|"
    r"message|call|need|contact|write|reach)\w*|"
    # "them" is a person only as a recipient: "keep them short" speaks of the answers.
    r"(?:to|with|tell|give|show|send|e-?mail|text|cc|let|answer)\s+them|"
    r"their|he|she|him|her|his|friends?|boss|manager|team|colleagues?|coworkers?|"
    r"brother|sister|mom|dad|admin|administrator|developer|partner|sponsor|advertis\w*|coupon|"
    r"promo\w*|referral|affiliate|channel|subscribe)\b|"
    # data passed on
    r"보내|전달|공유(?!기)|회신|올려|업로드|넘겨|전송|게시|동기화|백업|유출|제출|"
    r"(?<!going )\bforward\b|"
    # "send me short answers" goes to the user
    r"\b(?:send|sends|sent|share|post|upload|sync|email|e-mail|mail|publish|leak|"
    r"transmit|export|cc|bcc|reply\s+to|report\s+to|text\s+(?:it|them|to))\b(?!\s+me\b)"
)
_CONTROL = re.compile(
    # hiding, deleting, acting without the user
    r"조용히|몰래|모르게|(?:한테|에게|께)(?:는|도)?\s*(?:절대\s*)?말하지\s*(?:마|말)|안\s*물어|"
    r"확인\s*안\s*(?:받|해|하)|알리지|묻지|물어보지\s*말|확인\s*(?:없이|하지\s*말|"
    r"받지\s*말)|허락\s*없이|지워|지우(?!개)|삭제|없애|숨겨|숨기|척\s*(?:만|하|해)|시늉|대답만|말만|실제로?는|실제론|"
    r"\b(?:silently|quietly|secretly|hidden|hide|without\s+(?:asking|telling|checking|"
    r"confirm\w*|my|notify\w*)|don'?t\s+(?:tell|mention|notify|ask)|never\s+(?:tell|mention|"
    r"notify|ask)|pretend\w*|delete|erase|remove|wipe|purge|"
    # "forget the formal tone": dropping a way of answering, not the user's data
    r"forget(?!\s+(?:about\s+)?(?:the\s+|that\s+|this\s+|all\s+(?:the\s+)?)?(?:[\w-]+[\s,]+){0,2}?"
    r"(?:tone|style|format|formatting|voice|register|wording|emojis?|jargon|bullet\s*points?|"
    r"way\s+(?:we|you)\s+(?:talk|talked|write|wrote|speak|spoke))\b))\b|"
    # the assistant's own rules and identity
    r"시스템\s*(?:프롬프트|설정|메시지|지시|규칙|명령)|(?<!예시)(?<!예시\s)(?<!샘플)(?<!샘플\s)프롬프트|지시|지침|명령|규칙|정책|필터|안전|검열|제한\s*(?:없|풀|해제|무시)|제약|"
    r"거절|거부|탈옥|개발자\s*모드|페르소나|모드로|설정|원래|무시|"
    # the assistant's part played ("네 역할", "역할극", "역할을 바꿔"); "무슨 역할인지" asks what a
    # thing does
    r"(?<![가-힣])(?:너|네|니|당신)(?:의)?\s*역할|역할\s*(?:극|놀이)|롤플레이|"
    r"역할(?:을|를|로)?\s*(?:[가-힣]+\s+)?(?:맡|바꿔|바꾸|연기|수행|해\s*(?:줘|봐|라))|"
    r"\bsystem\s+(?:prompt|message|instructions?|rules?|settings?)|(?<!example\s)(?<!sample\s)\bprompts?\b|"
    # instructions the assistant gives the user ("when you give instructions, number the
    # steps") are a topic; its own are the boundary
    r"(?<!give\s)(?<!giving\s)(?<!write\s)(?<!writing\s)(?<!provide\s)\binstructions?\b|"
    r"\b(?:rules?|guidelines?|polic(?:y|ies)|filters?|safety|"
    r"safeguards?|restrictions?|restricted|unrestricted|censor\w*|refuse|refusals?|decline|"
    r"jailbreak|developer|mode|persona|identity|override|ignore|bypass|disregard)\b|"
    # the assistant's role, not what a function or a person at work does ("explain the role
    # of each table")
    r"\b(?:your|its|new|assistant'?s?)\s+role\b|\brole[\s-]?play\w*|\b(?:take|assume|play|"
    r"adopt|switch|act\s+in)\s+(?:on\s+)?(?:the\s+|a\s+|your\s+|another\s+)?(?:[\w-]+\s+)?roles?\b|"
    # the "DAN" jailbreak, not a person called Dan ("sign them 'cheers, dan'")
    r"\bdan\s+mode\b|\b(?:act|acting|be|are|as|become)\s+(?:a\s+)?dan\b|\bdo\s+anything\s+now\b|"
    # tools, commands, obeying text found elsewhere
    # "타입스크립트", "자바스크립트": a language named as one word is a topic, not a script run
    r"실행(?!\s*(?:결과|방법|화면|예시|예제|시간|과정|순서|하는\s*법))|명령어|(?<![가-힣])스크립트|설치|다운로드|클릭|접속|열어|방문|따라\s*(?:줘|해|라|야)|따르|따를|그대로|"
    r"(?:말|부탁|요청|지시|명령)\S{0,2}\s*(?:다\s*)?들어|결제|구매|구입|송금|이체|"
    # A command given to the user to read is a topic ("give the command and what it does");
    # running one is the boundary.
    r"\b(?:execute|shell|script|terminal|install|download|click|visit|open|browse|"
    r"fetch|follow|obey|comply|tool|api|webhook|buy|purchase|pay|payments?)\b|\bopen\s+(?:the\s+|any\s+)?(?:links?|urls?|pages?|files?)\b|"
    # running things or acting without the user
    r"자동으로|자동\s*실행|작업\s*(?:하나\s*)?돌려|판단대로|스스로|알아서\s*(?:결정|처리|실행|판단)|"
    # searching elsewhere is a tool too
    r"검색|찾아\s*보고|\b(?:search\w*|look\s+up|google|googling)\b|"
    r"\b(?:deploy\w*|automatically|autonomously|on\s+your\s+own|by\s+yourself|"
    r"without\s+waiting)\b"
)


# A person or a sent thing named as a topic ("전 남친 얘기는 꺼내지 마", "my boss") is what the
# answers are about, not who receives them; the user's own mail ("제가 보내는 메일") stays theirs.
_TOPIC = re.compile(
    r"[가-힣]+\s*(?:얘기|이야기|관련|문제)|"
    # a manner ("친구처럼 반말로", "talk to me like a friend"), not a person spoken to
    r"[가-힣]+\s*처럼|\b(?:like|as\s+if\s+you\s+were)\s+(?:a|an|my)\s+(?:[\w-]+\s+)?[\w-]+|"
    r"\b(?:about|regarding|on)\s+(?:my\s+)?[a-z']+|"
    # prompts as a subject the user studies or asks for ("예시 프롬프트", "프롬프트 작성법")
    r"(?:예시|예제|샘플|좋은)\s*프롬프트|프롬프트\s*(?:작성|쓰는|짜는|엔지니어링|예시|예제)|"
    r"\b(?:example|sample|good)\s+prompts?\b|\bprompts?\s+(?:writing|engineering|examples?)\b|"
    # the language code is shown in ("shell examples", "스크립트 예시"), not a tool run
    r"\b(?:shell|bash|zsh|terminal|script(?:ing)?|command[\s-]line|cli)\s+(?:examples?|snippets?|"
    r"samples?|code|syntax|one-liners?)\b|(?:셸|쉘|터미널|스크립트|명령어)\s*(?:예시|예제|코드|문법|샘플)|"
    # the user's own slips let pass ("ignore my typos", "내 오타는 무시해"): what is ignored is
    # the user's writing, never the assistant's instructions
    r"\b(?:ignore|overlook|disregard|forgive|don'?t\s+(?:mind|worry\s+about))\s+(?:my|any|all|the)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:typos?|misspell\w*|spelling|grammar|punctuation|capitali[sz]ation|"
    r"autocorrect\w*|mistakes?|errors?|slips?|abbreviations?|slang|broken\s+english)\b"
    r"(?:\s+(?:mistakes?|errors?))?|"
    r"(?:(?:내|제|나의|저의)\s*)?(?:[가-힣]+\s+)?(?:오타|오탈자|맞춤법|띄어쓰기|철자|문법|말실수|비문|"
    r"줄임말|사투리|실수)\S{0,3}\s*(?:[가-힣]+\s+){0,2}?(?:다\s*|그냥\s*|좀\s*)?(?:무시|넘어가|신경\s*(?:쓰지|안\s*써))|"
    # how to change the user's own things ("시스템 설정 바꾸는 법", "how to reset my router's
    # settings"), never the assistant's own
    r"(?:(?!(?:너|네|니|당신)(?:의)?\s)[^\s,.;]+\s+){0,2}[가-힣]*(?:바꾸|변경하|고치|여|열|찾|켜|끄|"
    r"초기화하|들어가|설정하|조정하|설치하|복원하)는\s*(?:법|방법|곳|메뉴|위치|순서)|"
    r"\bhow\s+to\s+(?:change|open|find|reset|set\s+up|install|configure|adjust|update|restore|"
    r"turn\s+(?:on|off))\s+(?!your\b)(?:[\w'-]+\s+){0,3}?(?:settings?|preferences|options|menus?)\b|"
    # how many an answer is for ("a recipe for four people", "a plan for two adults"): a
    # quantity, nobody spoken to
    r"\bfor\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a\s+few|several|"
    r"(?:a\s+)?(?:couple|family|group|party)\s+of\s+\w+)\s+(?:people|persons|guests|adults|kids|"
    r"children|servings|portions)\b|"
    # the things the user's own condition named ("when I ask for drafts, keep them short")
    r"\b(?:keep|make|put|write|format|list|sort)\s+them\b|"
    r"(?:내가|제가|내|제)\s*(?:보내는|보낼|쓰는|쓸)|"
    # who reads along with the user is why the answers should be plain, not who receives them:
    # "부모님이 같이 보셔", "my kids read along"
    r"(?<![가-힣])[가-힣]{1,8}(?:이|가|께서|도|이랑|랑|하고|와|과)\s*(?:[가-힣]+\s+)?(?:같이|함께)\s*"
    r"(?:봐|보셔|보거든|보니까|봐서|보세요|보신다|읽어|읽으셔|읽거든|읽으니까|들어|들으셔)[가-힣]*|"
    r"\b(?:my\s+)?(?:[\w-]+\s+)?(?:kids?|children|son|daughter|parents?|mom|dad|mother|father|"
    r"grandma|grandpa|wife|husband|partner)\s+(?:also\s+|sometimes\s+|often\s+)?"
    r"(?:reads?|read\s+along|watch(?:es)?|looks?\s+at)\s+(?:along|with\s+me|them|these|your\s+"
    r"answers)\b|"
    # a prohibition that asks for the user's say: "never merge without my review", "검토 없이
    # 병합하지 마"
    r"\b(?:never|don'?t|do\s+not)\s+(?:[\w-]+\s+){1,4}?without\s+(?:my\s+|me\s+|asking\s+me|"
    r"checking\s+with\s+me|(?:my\s+)?(?:review|approval|ok|okay|say|permission|consent))\b[^.;\n]*|"
    r"(?:검토|확인|허락|승인|동의|컨펌)\s*(?:없이|안\s*받고)\s*(?:[가-힣]+\s+){0,2}?[가-힣]*"
    r"(?:하지\s*(?:마|말)|면\s*안)[가-힣]*|"
    # other people's work as what is reviewed: "before applying anyone's changes"
    r"\b(?:anyone|someone|anybody|somebody|others|other\s+people)'s\s+(?:changes|edits|suggestions|"
    r"commits|code|prs?|pull\s+requests|diffs?|work|patches)\b|"
    # the user's own request to forget honoured ("if I ask you to forget something, forget
    # it", "내가 지워 달라고 하면 바로 지워줘"): the user's control, kept
    r"\b(?:if|when(?:ever)?|once)\s+i\s+(?:ask|tell|want)\s+(?:you\s+)?(?:to\s+)?(?:forget|delete|"
    r"erase|remove|wipe)\b[^.;\n]{0,40}?,?\s*(?:then\s+|just\s+|please\s+)?(?:forget|delete|erase|"
    r"remove|wipe)\s+(?:it|that|them|this|those)\b|"
    r"(?:내가|제가)\s*(?:[가-힣]+\s+){0,3}?(?:잊어|지워|삭제해|없애)\s*(?:달라고|주라고|달라|줘라고|"
    r"줘\s*라고)\s*(?:하면|할\s*때|하면은)\s*(?:[가-힣]+\s+){0,3}?(?:잊어|지워|삭제해|없애)[가-힣]*|"
    # what the user does in a condition is the user's, not an order: "내가 링크 보내면, ...",
    # "when I ask for email drafts, ..."
    r"(?:^|[\s(\[\"'])(?:내가|제가)\s[^,.;\n]{0,30}?(?:면|때는?|땐)(?=[\s,])|"
    r"\b(?:when(?:ever)?|if)\s+i\s[^,.;\n]{0,40},|"
    # a draft the user will send is the user's writing: "팀장님한테 보낼 메일", "when you draft
    # messages to my landlord", "when you write to my team for me"
    r"(?:[가-힣]{1,8}(?:한테|에게|께)\s*)?(?:보낼|드릴|전할)\s*(?:[가-힣]+\s+)?(?:메일|이메일|문자|"
    r"메시지|카톡|편지|답장|글|문장|초안|카드)|\b(?:draft|write|compose|polish|proofread)\w*\s+"
    r"(?:an?\s+|my\s+|the\s+|some\s+)?(?:[\w-]+\s+)?(?:e-?mails?|messages?|texts?|letters?|"
    r"replies|notes?|cards?|posts?)\s+(?:to|for)\s+(?:my\s+|the\s+)?[\w']+|"
    r"\b(?:write|reply|respond)\s+to\s+(?:my\s+|the\s+)?[\w']+\s+for\s+me\b"
)

# A condition on what the user asks or what the assistant makes ("엑셀 설정 물어보면",
# "스크립트 짜줄 때", "if a grammar rule applies,") names the topic of the answer, as long as
# nobody else speaks in it and it does not name the assistant's own instructions.
_CONDITION = re.compile(
    r"(?:^|(?<=\s))(?:[^\s,.;]+\s+){0,4}?[^\s,.;]*(?:물어보면|물어볼\s*(?:때|땐)|질문하면|"
    r"(?:알려|짜|써|만들어|설명해|추천해|보여|골라|정리해|번역해|고쳐|다듬어|풀어|작성해)\s*줄\s*"
    r"(?:때|땐)(?:는|에는)?|(?:할|풀|쓸|짤|줄|만들|고를)\s*(?:때|땐)(?:는|에는|도)?)(?=[\s,]|$)|"
    r"\b(?:when(?:ever)?|if)\s+[^,.;\n]{1,60},"
)
_NOT_A_TOPIC = re.compile(
    r"(?<![가-힣])(?:너|네|니|당신)(?:의|가|한테|에게)?\s|시스템|숨겨진|내부|히든|"
    r"\b(?:your|system|hidden|secret|developers?|instructions?)\b|"
    r"(?<![가-힣])(?!내가|제가)[가-힣]+(?:이|가)\s+(?:[가-힣]+\s+)?(?:물어|질문|부탁|요청|말하|시키)"
)

# In a Korean condition someone else is a subject or a recipient, or data is passed on; a
# person named as a possessor ("엄마 생신 선물 물어보면") is the topic.
_SOMEONE_IN_KO = re.compile(
    r"(?:한테|에게|께)(?=\s|$|도|만|는)|(?<![가-힣])(?!내가|제가)[가-힣]+(?:가|께서)\s|누가|누구|아무|다른\s*사람|상대|제\s*3\s*자|"
    r"보내|전달|공유(?!기)|회신|올려|업로드|넘겨|전송|게시|동기화|백업|유출|제출"
)


def _without_topics(scope: str) -> str:
    scope = _TOPIC.sub(" ", scope)

    def topic(match: re.Match[str]) -> str:
        clause = match.group(0)
        someone = _SOMEONE_IN_KO if re.search(r"[가-힣]", clause) else _OUTWARD
        return clause if _NOT_A_TOPIC.search(clause) or someone.search(clause) else " "

    return _CONDITION.sub(topic, scope)


# An order about the assistant itself (what it is, how it decides): outside the form of
# answers, such an order changes its rules. An order about the user's own life with no
# boundary in it ("회의는 오전에 잡아주세요", "window seat every time") is a preference.
_OF_THE_ASSISTANT = re.compile(
    r"(?<![가-힣])(?:너|네|니|당신)(?:는|가|의|를|한테|에게|도|만)?(?=\s)|(?<![가-힣])넌(?=\s)|"
    r"\b(?:you|your|yours|yourself|u|ur)\b"
)


# A single clause that forbids: "never ...", "don't ...", "...하지 마".
_PROHIBITION = re.compile(
    r"^[^\w]*(?:[\w ]{1,20}:\s*)?(?:please\s+)?(?:never|don'?t|do\s+not)\b[^,;]*$|"
    r"^(?!.*(?:고|며|서)[\s,])[^,;]*(?:지\s*(?:마|마라|마요|마세요|말아|말아\s*줘|말아\s*주세요|말\s*것)|"
    r"면\s*안\s*(?:돼|됩니다|돼요))[\s.!~]*$"
)


# A plain ending ("보내드려") is a statement as often as an order. Said of giving a person
# something the assistant neither holds nor writes (money, a gift, a call: "월급 들어오면 부모님
# 용돈 보내드려", "주말마다 할머니께 전화 드려"), with no one asking and nothing told, it is the
# user's own doing; data, an answer, a telling or "from now on" keep it an order to judge.
_HELD_OR_TOLD = re.compile(
    r"대화|채팅|기록|내역|정보|내용|메모|기억|메모리|요약|정리|답변|대답|사진|파일|문서|자료|일정|"
    r"주소|연락처|번호|비번|비밀|위치|링크|메일|문자|메시지|카톡|알림|코드|키|토큰|데이터|보고|"
    r"결과|로그|캡처|스크린샷|목록|리스트|(?<![가-힣])(?:다|전부|모두|몽땅|싹)(?=\s)|"
    r"누가|누구|아무|다른\s*사람|상대|제\s*3\s*자|물어|묻|요청|달라고|알려|말해|보여|전해|얘기|"
    r"답해|공유|전달|넘겨|올려|업로드|백업|동기화|전송|회신|"
    r"앞으로|이제부터|이제\s*부터|지금부터|다음부터|이후로|"
    r"[a-z]{2,}"
)


def _ones_own_giving(sentence: str) -> bool:
    return not (
        _HELD_OR_TOLD.search(sentence)
        or _OF_THE_ASSISTANT.search(sentence)
        or _ADDRESS.search(sentence)
    )


def allowed(sentence: str, how: str, scope: str) -> bool:
    """A standing instruction may stay: nothing in `scope` (the sentence, or a whole pasted
    message) crosses a boundary, and, when it is surely an order, it is about the form of
    answers to this user. A plain ending ("지워", "조심해") may be a statement; only a boundary
    makes it an order to hold."""
    whole = scope == sentence
    scope = _without_topics(scope)
    if _CONTROL.search(scope):
        return False
    if _OUTWARD.search(scope):
        if how == PLAIN and whole and _ones_own_giving(sentence):
            return True
        # "Never share my address with anyone" forbids the crossing it names: the user's
        # privacy, a preference of its own.
        return whole and bool(_PROHIBITION.search(sentence))
    # "If you give me a recipe, make it for two servings", "코드 짜줄 때는 주석 달아줘": the
    # assistant named in a condition that is only the topic is the one making that kind of
    # answer, not what the order is about.
    return (
        how == PLAIN
        or bool(_SHAPE.search(sentence))
        or not _OF_THE_ASSISTANT.search(_without_topics(sentence))
    )


def unallowed_instruction(folded: str) -> bool:
    """True when `folded` carries a standing instruction that is not a plain preference."""
    # An address, or a comment hidden in pasted markup (someone else's words, never shown to
    # the user who pasted it): any standing instruction there is held.
    if _ADDRESS.search(folded) or "<!--" in folded:
        return bool(standing_instructions(folded))
    scope = folded if _ADDRESSED.search(folded) else None
    return any(not allowed(s, how, scope or s) for s, how in standing_instructions(folded))
