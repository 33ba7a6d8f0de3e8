"""Passwords, passphrases and PINs stated after a cue: pure functions, no Django.

A cue (비번, 비밀번호, 패스워드, 암호, PIN, password, passphrase, passcode, door code, a lock's
combination or dial, a parental lock, a code word agreed on, a Wi-Fi key ...) opens a short
window on its line. Two things in it are a value:

- a token that looks like a password wherever it stands (letters with digits or symbols, a
  run of 4-12 digits, 3 after a lock's combination: `hunter2`, `콩이0315`, `5821이야`), unless
  it has the shape of something else (a version, a date, a count such as `12자` or
  `14 characters`);
- the words right after "is", "was", ":", "=", "은/는" up to a natural boundary, when they
  read as a value: `비번은 해바라기농장이야`, `password is correct horse battery staple`,
  or a quoted passphrase, right after the cue too (`비번 "blue sky 7"`). Talk about a password
  ("I forgot my password", "비밀번호 바꿔야 돼", "password manager") has no such words and
  stays whole.

A Korean ending after a value (이야, 야, 이고, 예요, 였나, 로 ...) is not part of it, nor is
anything after a token that is a password by itself, nor a request to keep it in mind
("qwer!234 기억해", "sea shell lantern, remember it"). Words that only say what a password is
made of are no value (`secret_descriptions`: "비번은 엄마 생일", "my password is my birthday";
a bare English noun, "my password is birthday", is the literal word). A PIN named on a line
about a place and no card, bank or device is a postal code ("pin code 560034 is the address").
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memories.logic.secret_descriptions import described_in_korean
from memories.logic.secret_rules import HOST_PASSWORD, PASSWORD, REFERENCE, Span, password_end
from memories.logic.secret_spelled import spelled_digits

_CUE = re.compile(
    r"(?i)(?:비밀 ?번호|비번|패스 ?워드|패스 ?코드|암호 ?문구|암호 ?말|암호(?![화문학])|암구호|"
    r"핀 ?번호|핀 ?코드|"
    r"잠금 ?(?:번호|코드|비번|패턴)|(?:와이파이|wifi) ?코드|"
    r"도어 ?락 ?번호|현관 ?번호|출입 ?번호|금고 ?번호|"
    # a lock's combination: "금고 다이얼", "자물쇠 번호", "사물함 다이얼 번호"
    r"(?:금고|자물쇠|사물함|보관함|락커|캐리어|트렁크|여행 ?가방) ?(?:다이얼|조합)|자물쇠 ?번호|"
    r"다이얼 ?(?:번호|비번|암호)|자녀 ?(?:보호|잠금)|"
    r"(?<![A-Za-z0-9])(?:pass ?words?|passwd|pass ?phrase|pass ?code|"
    r"pin(?: ?(?:code|number|no\.?|번호))?|"
    r"pwd|pw|pass(?=(?: [A-Za-z']+){0,5} ?[:=])|(?<=my )pass(?= is )|"
    # a phone's unlock pattern, a Wi-Fi network's "code"
    r"(?:unlock|lock ?screen|screen ?lock|phone) ?pattern|(?:wi-?fi|wlan) ?code|"
    # words agreed on to prove who is calling, a parental lock's code
    r"code ?word|safe ?word|secret word|parental (?:lock|controls?|pin|code)|child ?lock|"
    r"(?:door|gate|garage|alarm|lock ?screen|screen ?lock|unlock|lock|padlock|bike lock|suitcase|"
    r"luggage|safe|locker|entry|keypad|building) ?(?:code|combo|combination|dial)|"
    r"(?:code|combination) (?:to|for|of) (?:the |my |our |your )?(?:front )?"
    r"(?:door|gate|garage|alarm|lock ?box|lock|safe|locker|building|house|apartment|office|"
    r"storage(?: unit)?|shed|mailbox|unit))"
    r"(?![A-Za-z0-9_]))"
)

# A word right after the cue that makes it a compound about passwords, not a value's label.
_COMPOUND_HEADS = frozenset(
    """manager managers policy policies rule rules
    requirement requirements hint hints
    reset resets change changes changed
    field fields box prompt strength length
    generator generators vault app apps
    recovery form page screen less protected
    protection hash hashes hashing expiry
    expiration history login-page setting
    settings 관리 관리는 관리를 관리도 관리앱 관리자 정책 규칙 변경
    변경은 재설정 초기화 찾기 분실 입력창 입력란 힌트 조건 생성기 오류
    보호 설정법 규칙이 manager와 manager랑 앱""".split()  # noqa: SIM905
)

# Words that cannot open a value: "the password is too short", "비번은 뭐였지".
_FUNCTION_WORDS = frozenset(
    """a an the this that these those it its it's
    my your his her our their me you him
    them not no never too very so also still
    just only really quite same different
    here there where what which who whom
    whose why how when if because since for
    on in at to of with from by about as
    like something nothing anything
    everything somewhere nowhere written
    saved stored set being been be is was
    are were will would should could can
    cannot can't don't doesn't didn't isn't
    wasn't hidden inside under behind above
    below 뭐 뭐야 뭐지 뭐였지 뭐였더라 뭐더라 뭐였는지 뭔지 뭔데
    뭐라고 뭐임 뭐였음 어떻게 왜 언제 어디 어디에 어디야 어디있어 몰라
    모르겠어 모름 기억 기억이 기억안나 기억이안나 까먹었어 까먹음 잊어버렸어
    잊었어 너무 안 못 좀 또 다시 최소 최대 이상 이하 같은 같아 맞아
    맞지 아니고 아니야 알려줄게 알려줘 알려줄까 정도 바꿔 바꿔야 바꿨어
    바꿈 바꾸래 바꾸라고 변경 변경해 틀렸어 틀림 틀려서 입력 입력해 필요해
    필요 있어 없어 없음 뭔가 그거 그게 이거 저거 여기 저기 거기 내 제
    아무한테도 아무에게도 누구한테도 누구에게도
    우리 네 니 걔 그 이 저 설정 설정해 설정했어 설정함 초기화 초기화해
    까먹을까봐 잊어버릴까봐 물어봐 물어보면
    아직 절대 절대로 매번 항상 늘 자꾸 계속 맨날 가끔 자주 금방 잘 전혀 도저히 도무지 꼭 제발
    벌써 이미 방금 나중에 다음에 이따 이따가 곧 당장 얼른 빨리 정말 하나도 도통
    전부 모두 다 all""".split()  # noqa: SIM905
)
# One-word predicates: "the password is wrong", "password was correct".
_PREDICATES = frozenset(
    """wrong correct incorrect right strong weak
    required expired reset changed fine ok
    okay secure insecure long short empty
    missing invalid valid unknown forgotten
    lost new old mine yours his hers ours
    theirs easy hard simple complicated
    complex good bad great terrible obvious
    random unique case-sensitive locked
    blocked wrong. same broken stuck jammed
    disabled enabled active working gone lowercase uppercase sensitive case
    stronger longer shorter harder simpler safer better weaker easier
    case-sensitive insensitive""".split()  # noqa: SIM905
)
# Adverbs between the verb and the value: "my password is literally password123!".
_FILLERS = frozenset(
    """literally actually just now currently
    basically probably still simply 바로 그냥 아마
    진짜 원래 지금 이제 일단 현재 걍""".split()  # noqa: SIM905
)
# Words that end an English value: "hunter2 and the user is bob".
_EN_STOPS = frozenset(
    """and but so because since for on in at to
    with from which that please pls plz lol
    lmao haha hehe btw don't dont do did i
    i'm it's its right ok okay then if or
    nor until""".split()  # noqa: SIM905
)
# Korean words that close a value stated as "비번은 X ___": "푸른 바다 ... 이거야", "X 로 해놨어".
_KO_CLOSERS = frozenset(
    """이야 야 이거야 이거임 이거예요 이거에요 이거 이거다 이고 고 이에요 예요 에요
    입니다 임 이다 다 라고 이라고 였음 였어 였나 였던가 이었어 이었음 로
    으로 인데 이래 래 이니까 니까 요 이지 지 랑 이랑 이건 입니당 이당
    이렇게 요렇게 그렇게 저렇게 이런식으로 였는데 이었는데 였지만 이었지만 였고 이었고""".split()  # noqa: SIM905
)
# Endings glued to a value ("5821이야", "hunter2야", "ehdgus!!0901였나"), longest first.
_ENDINGS = sorted(
    """이야 야 이거야 이고 고 이며 며 이에요 예요 에요 입니다 이다 다 임 이었어
    였어 였음 였나 였던가 이었나 라고 이라고 인데 이니까 니까 로 으로 을
    를 은 는 이 가 도 만 이랑 랑 하고 이래 래 인가 인지 이지 지 요
    이요 이죠 죠 이라서 라서 였는데 이었는데 임ㅋㅋ 이에용 예용 이당 당
    에서 까지 부터 이라 라""".split(),  # noqa: SIM905
    key=len,
    reverse=True,
)
# Endings that may follow a value that itself ends in Hangul ("해바라기농장이야"): copulas only,
# shortest, so a doubtful syllable stays inside the redacted span.
_HANGUL_ENDINGS = ("야", "요", "예요", "에요", "입니다", "임", "라고", "로", "으로", "이고", "고")

# Stems of Korean words that talk about a password rather than state it.
_KO_TALK_STEMS = (
    "뭐",
    "뭔",
    "어떻게",
    "왜",
    "언제",
    "어디",
    "몰라",
    "모르",
    "기억",
    "까먹",
    "잊",
    "바꿔",
    "바꿨",
    "바꾸",
    "변경",
    "틀",
    "알려",
    "이상",
    "이하",
    "최소",
    "최대",
    "포함",
    "필요",
    "설정",
    "초기화",
    "입력",
    "재설정",
    "만료",
)
# Endings of Korean words that carry a sentence on (particles, connectives).
_KO_PARTICLE_END = re.compile(
    r"[가-힣](?:에서|에게|한테|서|면|는데|니까|지만|을|를|에|까지|부터|했|해)$"
)

_LEADING = "\"'“‘(「『[<《=:"
_TRAILING = "\"'”’)」』]>》,.;:…?~·"
_JAMO_TAIL = re.compile(r"[ㄱ-ㅎㅏ-ㅣ^]+$")
_HANGUL = re.compile(r"[가-힣]")

# Shapes with digits that are not passwords.
_NOT_SECRET = re.compile(
    r"(?i)^(?:v?[0-9]+(?:\.[0-9]+)+(?:-[a-z0-9.]+)?"  # version
    r"|[0-9]{4}[\-./][0-9]{1,2}[\-./][0-9]{1,2}"  # date
    r"|[0-9]{1,2}[/.][0-9]{1,2}(?:[/.][0-9]{2,4})?"  # short date
    r"|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:am|pm)?"  # time
    r"|0[0-9]{1,2}-[0-9]{3,4}-[0-9]{4}"  # phone
    r"|[$₩€£¥][0-9,.]+|[0-9,.]+(?:원|달러|만원|%|k|m|kb|mb|gb|tb|g|kg|km|cm|mm)"
    r"|[0-9]+(?:st|nd|rd|th|x|fa|g|k|d|p|시|분|초|년|월|일|살|명|층|호|동|번|회|개|자|자리|글자|"
    r"마다|일마다|번째|시간|주|달|개월|주일|자리수|자리로|자로|자는|자리는|자리가|번이나)[가-힣]*"
    r"|[가-힣]+[0-9]+(?:자리|글자|자|개)[가-힣]*"  # a length: "숫자4자리", "영문8자"
    r"|[\w\-]+\.(?:jpe?g|png|gif|heic|webp|pdf|txt|md|docx?|xlsx?|pptx?|hwp|zip|csv|json|mp[34]|mov)"
    r"|https?://\S*|[\w.+\-]+@[\w\-]+\.[\w.]+|#[0-9a-z_가-힣]+)$"
)
_UNIT_WORD = re.compile(
    r"(?i)^(?:characters?|chars?|digits?|letters?|numbers?|symbols?|times?|tries|attempts?|days?|"
    r"weeks?|months?|years?|hours?|minutes?|mins?|seconds?|자|자리|글자|번|회|개|일|시간|분|초|년|개월|"
    r"자리수|자리로|번이나|마다)(?![A-Za-z])"  # "mint" is no "min"
)
_OTHER_NUMBER_CUE = re.compile(
    r"(?i)^(?:주문|전화|연락|휴대폰|핸드폰|order|phone|tel|tracking|운송장|송장|예약|우편|zip|"
    r"계좌|account|카드|card|인증번호|otp|"
    # a number named as something else: an extension, a room, a staff or serial number
    r"내선|사번|학번|호실|시리얼|모델|버전|우편|extension|ext\.?$|room|serial|model|version|"
    r"employee|student|"
    # a new field starts: the network's or the account's name is not the password
    r"(?:이름|아이디|계정|네트워크|이메일|메일|주소)(?:은|는|이|:|$)|"
    r"(?:id|user|username|login|ssid|network|e-?mail|address)\b)"
)
_PASSWORD_SYMBOLS = re.compile(r"[!@#$%^&*?~]")
_SYMBOLS = re.compile(r"[!@#$%^&*_+=?~|\\/<>{}\[\]]")


def _strip(token: str, start: int) -> tuple[int, int, str]:
    """The token without wrapping punctuation and a Korean ending glued after it."""
    end = start + len(token)
    while token and token[0] in _LEADING:
        token, start = token[1:], start + 1
    tail = _JAMO_TAIL.search(token)
    if tail and tail.start() > 0:
        end -= len(token) - tail.start()
        token = token[: tail.start()]
    # a JSON object closes after a value (`"x"},`); "${NAME}" is a reference, kept whole
    while token and (token[-1] in _TRAILING or (token[-1] == "}" and "{" not in token)):
        token, end = token[:-1], end - 1
    if len(token) > 1 and _HANGUL.match(token[-1]):
        cut = _glued_ending(token)
        if cut:
            token, end = token[:-cut], end - cut
            while token and token[-1] in _TRAILING:
                token, end = token[:-1], end - 1
    return start, end, token


def _strip_punctuation(token: str, start: int) -> tuple[int, int, str]:
    """The token without wrapping punctuation, its Hangul kept whole."""
    end = start + len(token)
    while token and token[0] in _LEADING:
        token, start = token[1:], start + 1
    while token and token[-1] in _TRAILING:
        token, end = token[:-1], end - 1
    return start, end, token


# Syllables a noun ends in that _KO_PREDICATE_END also reads as a verb's ending: "최고", "하늘다".
# Before a bracketed remark they end a noun.
_NOUN_END = re.compile(r"[가-힣][고다서니]$")


def _glued_ending(token: str) -> int:
    for ending in _ENDINGS:
        if token.endswith(ending) and len(token) > len(ending):
            before = token[-len(ending) - 1]
            if not _HANGUL.match(before):
                return len(ending)
    for ending in _HANGUL_ENDINGS:
        if token.endswith(ending) and len(token) > len(ending) + 1:
            return len(ending)
    return 0


def looks_like_password(value: str) -> bool:
    """A token that reads as a password wherever it stands near a cue."""
    if not 4 <= len(value) <= 64 or _NOT_SECRET.match(value) or REFERENCE.match(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_letter = any(c.isalpha() for c in value)
    has_symbol = bool(_SYMBOLS.search(value)) or "-" in value.strip("-")
    if has_digit:
        if value.isdigit():
            return len(value) <= 12
        return has_letter or has_symbol
    ascii_letters = sum(c.isascii() and c.isalpha() for c in value)
    return ascii_letters >= 3 and bool(_PASSWORD_SYMBOLS.search(value)) and len(value) >= 6


def _tokens(text: str, start: int, end: int) -> list[tuple[int, str]]:
    return [(m.start(), m.group(0)) for m in re.finditer(r"\S+", text[start:end])]


_EN_VERB = re.compile(
    r"(?i)(?:'s|[ \t]+(?:is|was|=|:|-|is now|is set to|will be|would be|should be)"
    r"|[ \t]*[:=：])(?!//)[ \t]*"
)
_KO_MARK = re.compile(r"(?:은|는|이|가|:|=|：)?[ \t]*(?:[:=：][ \t]*)?")
_EN_GAP = re.compile(r"(?:[ \t]+[A-Za-z0-9'\-]{1,40}){0,5}?(?='s|[ \t]+(?:is|was)\b|[ \t]*[:=])")
# A request to remember or a note before a colon: "비밀번호 기억해줘: X", "비번 까먹을까봐
# 적어둠: X". The colon labels the value as if it followed the cue.
_KO_NOTE = re.compile(
    r"[ \t]*(?:[가-힣]+[ \t]+){0,2}?"
    r"(?:기억|적어|적음|메모|저장|까먹|잊어|잊지|써 ?둠|써 ?둘|써놓|써놔)[가-힣]*[ \t]*[:=：][ \t]*"
)
_QUOTED = re.compile(r"[\"“‘'「『]([^\"”’'」』\n]{1,80})[\"”’'」』]")


class _Cue(NamedTuple):
    start: int
    end: int
    text: str


def _frame_start(text: str, cue: _Cue) -> tuple[int, bool] | None:
    """Where a stated value begins after the cue (after "is", ":", "은"), if it is stated,
    and whether a colon or an equals sign states it (then one word is enough)."""
    position = cue.end
    korean = bool(_HANGUL.search(cue.text))
    if korean or text[position : position + 1] in "은는이가":
        mark = _KO_MARK.match(text, position)
        if mark and mark.end() > position and mark.group(0).strip():
            return mark.end(), bool(re.search("[:=：]", mark.group(0)))
        note = _KO_NOTE.match(text, position)
        if note:
            return note.end(), True
        if korean:
            return None
    gap = _EN_GAP.match(text, position)
    if gap:
        verb = _EN_VERB.match(text, gap.end())
        if verb and verb.group(0).startswith("'") and gap.end() > position:
            return None  # "changed my password to grandma's street name": a possessive
        if verb:
            return verb.end(), bool(re.search("[:=：]", verb.group(0)))
    return None


def _stated_value(text: str, start: int, line_end: int, *, labelled: bool) -> Span | None:
    """The value stated at `start`: a quoted string, or words up to a natural boundary
    (after a colon, "label: value", the first word is a value by itself)."""
    quoted = _QUOTED.match(text, start)
    if quoted and quoted.end() <= line_end:
        return quoted.start(1), quoted.end(1), PASSWORD
    words: list[tuple[int, int, str]] = []
    closed = False
    named = ""  # another number's name that ended the value: "우리집 전화번호"
    tokens = _tokens(text, start, line_end)[:11]
    for index, (offset, raw) in enumerate(tokens[:10]):
        token_start = start + offset
        lower = raw.lower()
        if not words and lower in _FILLERS:
            continue
        if words and re.search(r"\w[=:]", raw):
            closed = True  # the next key of a "key=value key=value" string
            break
        bare = raw.rstrip(_TRAILING)
        if bare in _KO_CLOSERS or bare.lower() in _EN_STOPS or _OTHER_NUMBER_CUE.match(raw):
            named = _strip(raw, token_start)[2] if _OTHER_NUMBER_CUE.match(raw) else ""
            closed = True
            break
        next_word = tokens[index + 1][1] if index + 1 < len(tokens) else ""
        if words and _EMOJI_ONLY.fullmatch(raw) and _continues_value(next_word):
            continue  # "blue 🐳 whale": an emoji between the words of a passphrase is part of it
        if words and (
            not _WORDLIKE.search(raw) or raw[:1] in "([{" or _REMARK.match(text, token_start)
        ):
            # "sea shell lantern 😂", "해바라기농장 ㅋㅋ", "river stone mint (no caps)", "...
            # all lowercase", "푸른바다 띄어쓰기 없이": a remark about the value, no word of it
            closed = True
            break
        if words and (_asks_to_keep(bare, next_word) or _KO_VERBAL_END.search(bare)):
            # "비번은 해바라기농장 기억해", "password is blue moon river remember it": the
            # request is no part of the value, nor an adverb before it ("절대 잊지마")
            while len(words) > 1 and words[-1][2].lower() in _FUNCTION_WORDS:
                words.pop()
            if _KO_SUBJECT_END.search(words[-1][2]):
                return None  # "비번은 엄마가 기억해": who remembers it, not the value
            closed = True
            break
        if REFERENCE.match(raw):
            return None  # "<your password>", "${PASSWORD}": where the value would go
        s, e, core = _strip(raw, token_start)
        if not core:
            break
        words.append((s, e, core))
        if e < token_start + len(raw) or len(words) >= 7:
            closed = True  # punctuation or a glued ending ends the value
            break
        if len(words) == 1 and looks_like_password(core) and not _unit_follows(text, e):
            # a token that is a password by itself is the whole value: the words after it
            # ("Tr0ub4dor&3 remember it", "qwer!234 thanks") are talk
            closed = True
            break
        if len(words) == 1 and not _HANGUL.search(text[e : e + 2]):
            following = text[e:line_end].split(None, 1)
            ends = following and following[0][:1] in "([-—/|"
            if (labelled and (not following or ends)) or (ends and _strongly_latin(core)):
                closed = True  # "비번: 봄비내리는날 (띄어쓰기 없음)"
                break
            if following and _HANGUL.search(following[0]) and _strongly_latin(core):
                closed = True  # "password: moon77cat 이렇게 쳤어": Korean talk goes on
                break
    else:
        closed = True  # the line ends
    if not words or not closed:
        return None
    first = words[0][2].lower()
    if first in _FUNCTION_WORDS or first.rstrip("?!") in _FUNCTION_WORDS:
        return None
    if any(w[2].lower() in _FUNCTION_WORDS for w in words[1:]):
        return None
    if any(w[2].startswith(_KO_TALK_STEMS) for w in words) or _NOT_SECRET.match(words[0][2]):
        return None  # "8자 이상이어야", "뭐였더라": talk about the password
    if any(_KO_PARTICLE_END.search(w[2]) for w in words[:-1]):
        return None  # a sentence about the password, not a passphrase: "iptime 기본값에서 ..."
    if first in _PREDICATES and len(words) < 3:
        return None
    if len(words) == 1 and _PARTICIPLE.fullmatch(first) and _PLACE_AFTER.match(text, words[0][1]):
        return None  # "the password is printed on the router": where it is, not what
    if len(words) > 1 and _POSSESSIVE.search(words[0][2]):
        return None  # "my password is mom's maiden name": a possessive marks a description
    if described_in_korean([w[2] for w in words] + ([named] if named else [])):
        return None  # "비밀번호는 생일이야": what the password is made of (secret_descriptions)
    if len(words) == 1 and (_NOT_SECRET.match(words[0][2]) or REFERENCE.match(words[0][2])):
        return None
    if any(_UNIT_WORD.match(w[2]) for w in words[1:2]) and words[0][2].isdigit():
        return None  # "14 characters"
    return words[0][0], words[-1][1], PASSWORD


_WINDOW = 160

_EMOJI_ONLY = re.compile("[\u2600-\u27bf\ufe0f\u200d\U0001f000-\U0001faff]+")


def _continues_value(word: str) -> bool:
    """True for a word after an emoji that goes on with a passphrase, not talk about it."""
    bare = word.rstrip(_TRAILING)
    lower = bare.lower()
    return bool(
        bare
        and _WORDLIKE.search(bare)
        and lower not in _FUNCTION_WORDS
        and lower not in _EN_STOPS
        and bare not in _KO_CLOSERS
        and not _OTHER_NUMBER_CUE.match(bare)
        and not _asks_to_keep(bare)
        and not _KO_VERBAL_END.search(bare)
        and not _REMARK.match(bare)
        and not bare.startswith(_KO_TALK_STEMS)
        and not _glued_ending(bare)
    )


# A participle followed by where: "printed on the router", "taped under the desk".
_PARTICIPLE = re.compile(r"[a-z]{3,}(?:ed|en|ing)")
_PLACE_AFTER = re.compile(
    r"(?i)[ \t]+(?:on|in|at|under|inside|behind|above|below|beside|next|near|by|with|from|into|"
    r"onto|somewhere|everywhere|there|here)(?![A-Za-z])"
)

# A remark after a value: how it is typed, until when, whether it is right.
_REMARK = re.compile(
    r"(?i)(?:now|right\?|fyi|just fyi|btw|as of|from now on|starting|for the record|"
    r"all (?:lower ?case|upper ?case|caps|small|one word|together)|all lowercase|all caps|"
    r"in (?:lower ?case|upper ?case|caps|small letters|capitals?|one word)|(?:one|1|a single) word|"
    r"with(?:out)? (?:no )?(?:spaces?|caps|capitals)|no (?:spaces?|caps|capitals))(?![A-Za-z])|"
    r"(?:맞아|맞지|맞음|맞나|띄어쓰기|띄어 ?쓰기|붙여서|붙여 ?써|다 ?붙여|전부 ?붙여|전부 ?소문자|"
    r"소문자|대문자|대소문자|공백|한 ?단어|영타로|한영 ?전환|그대로)"
)
_POSSESSIVE = re.compile(r"^[A-Za-z]+(?:'s|’s|s'|s’)$")

# A request to keep the value in mind, which ends it: "기억해", "잊지 마", "remember it".
_KEEP_REQUEST_KO = ("기억", "잊", "까먹", "외워", "외우", "메모", "적어", "알아둬", "알아 둬")
_KEEP_REQUEST_EN = frozenset(
    "remember remembered forget forgot memorize memorise thanks thank thx ty".split()  # noqa: SIM905
)
# Verbs that are a request only with their object: "keep it safe", "note that", not the words
# of a passphrase ("blue note jazz").
_KEEP_REQUEST_EN_WITH_OBJECT = frozenset("note save write jot keep".split())  # noqa: SIM905
_REQUEST_OBJECTS = frozenset("it that this down somewhere safe".split())  # noqa: SIM905
# A Korean word that is the subject or object of the request: "엄마가 기억해", "그걸 적어".
_KO_SUBJECT_END = re.compile(r"[가-힣](?:가|는|은|를|을|에서|한테|에게|께서)$")


# A Korean word that is a verb said to the listener ("말하지마", "알지?", "비밀로 해줘"): it
# ends a value, never a passphrase's noun ("푸른 바다" stays one value).
_KO_VERBAL_END = re.compile(
    r"^[가-힣]*(?:지 ?마|지마라|말고|말자|해|해줘|해요|줘|줘요|세요|하셈|둬|둬요|놔|"
    r"했어|있어|없어|알지|"
    r"맞지|알겠지)$"
)
_WORDLIKE = re.compile(r"[0-9A-Za-z가-힣]")


def _asks_to_keep(word: str, following: str = "") -> bool:
    """True for a word that asks to keep a value in mind (`following` is the next word)."""
    lower = word.lower()
    if lower in _KEEP_REQUEST_EN_WITH_OBJECT:
        return following.lower().rstrip(_TRAILING) in _REQUEST_OBJECTS
    return word.startswith(_KEEP_REQUEST_KO) or lower in _KEEP_REQUEST_EN


# Labels that often carry a password but as often a user name: only a value with letters,
# digits and symbols together counts after them ("login: Pa$$w0rd-2024", not "login: admin").
_WEAK_CUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:login|log-in|sign-in|credentials?|creds|accounts?|user ?names?|"
    r"로그인|접속 ?정보|계정|아이디)(?![A-Za-z])"
)


# "login is sam@carter.com / Netflix4ever": a user name or e-mail, a slash, the password.
_LOGIN_PAIR = re.compile(
    r"(?<!\S)(?:[\w.+\-]+@[\w\-]+\.[\w.]+|[\w.\-]{3,32})[ \t]*/[ \t]*(?P<value>[^\s/]{4,64})(?!\S)"
)


# "user seomyeon_kj / pass Jjigae2024!?", "ID kim01, PW qwer1234": a user's name and the
# password labelled as such, side by side.
_USER_PASS = re.compile(
    r"(?i)(?<![A-Za-z])(?:user(?: ?name)?|login|id|아이디)[ \t]*[:=]?[ \t]*[^\s/,;|]{2,64}[ \t]*"
    r"[/,;|][ \t]*(?:pass(?:word)?|pw|pwd|비번|비밀 ?번호)(?![A-Za-z])[ \t]*[:=]?[ \t]*"
    r"(?P<value>[^\s;=][^\s]{2,63})"
)
# "비번 서윤이 도윤이 사랑해 띄어쓰기 포함이에요", "passphrase blue river song (with spaces)":
# a value of several words, said to hold its spaces.
_WITH_SPACES = re.compile(
    r"(?i)[ \t]*[,(]?[ \t]*(?:띄어 ?쓰기|공백|스페이스)(?:도|는|까지)? ?(?:포함|있|넣|들어가)|"
    r"[ \t]*[,(]?[ \t]*(?:with|including|incl\.?) (?:the )?spaces"
)


_QUERY = re.compile(r"[?&][A-Za-z0-9_\-]+=")
# "password=Hunter22!" in a log line: the key stays, its value is found by the key's own cue.
_KEYED_PASSWORD = re.compile(r"(?i)[\w.\-]*(?:passw(?:or)?d|pwd|pass|secret|token)[\w.\-]*=")


def _strongly_latin(value: str) -> bool:
    """A value of Latin letters with digits or symbols, which no Korean word continues."""
    return value.isascii() and looks_like_password(value)


def _strongly_password(value: str) -> bool:
    classes = (
        any(c.isdigit() for c in value),
        any(c.isascii() and c.isalpha() for c in value),
        bool(_PASSWORD_SYMBOLS.search(value)),
    )
    return looks_like_password(value) and all(classes)


# Every cue holds one of these (lower-cased): text without any is skipped at once.
_CUE_NEEDLES = (
    "비밀",
    "비번",
    "패스",
    "암호",
    "핀",
    "잠금",
    "도어",
    "현관",
    "출입",
    "금고",
    "다이얼",
    "자물쇠",
    "암구호",
    "자녀",
    "word",
    "parental",
    "child",
    "lock",
    "key",
    "키",
    "pass",
    "pin",
    "pw",
    "code",
    "combo",
    "combination",
    "pattern",
    "패턴",
    "와이파이",
    "wifi",
    "wi-fi",
    "wlan",
    "공유기",
    "router",
    "관리자",
    "admin",
    "login",
    "log-in",
    "sign-in",
    "cred",
    "로그인",
    "접속",
    "계정",
    "아이디",
    "account",
    "user",
)


_LIST_SEPARATOR = re.compile(r"(?:^|[,/;·|(]) *$", re.MULTILINE)


def _listed_value(text: str, cue: _Cue, line_end: int) -> Span | None:
    """The one word after a cue that starts an item of a list: "network Home, password
    maplesyrup", "user: kim / pw hunter"."""
    line_start = text.rfind("\n", max(0, cue.start - 40), cue.start) + 1
    if not _LIST_SEPARATOR.search(text, max(line_start, cue.start - 40), cue.start):
        return None
    tokens = _tokens(text, cue.end, line_end)
    if not tokens or (len(tokens) > 1 and tokens[0][1][-1:] not in ",.;)"):
        return None
    start, end, core = _strip(tokens[0][1], cue.end + tokens[0][0])
    lower = core.lower()
    if len(core) < 3 or lower in _FUNCTION_WORDS or lower in _PREDICATES or lower in _EN_STOPS:
        return None
    if REFERENCE.match(core) or core.startswith(_KO_TALK_STEMS):
        return None
    if not text[line_start : cue.start].strip() and _KO_PREDICATE_END.search(core):
        return None  # a line that opens with "비번 해킹당함": talk, not an item of a list
    return start, end, PASSWORD


def password_spans(text: str) -> list[Span]:
    """Spans of the passwords, passphrases and PINs stated after a cue in `text`."""
    lower = text.lower()
    if not any(needle in lower for needle in _CUE_NEEDLES):
        return []
    spans: list[Span] = []
    for weak in _WEAK_CUE.finditer(text):
        for offset, raw in _tokens(text, weak.end(), min(len(text), weak.end() + 80))[:6]:
            start, end, core = _strip(raw, weak.end() + offset)
            if (
                "://" in core
                or core.startswith("@")
                or _QUERY.search(core)
                or HOST_PASSWORD.match(core)
                or _KEYED_PASSWORD.match(core)
            ):
                # a connection string, its host after a redacted password, or a URL's query
                # string: only the password is a secret (secret_rules)
                continue
            if _strongly_password(core):
                spans.append((start, end, PASSWORD))
        pair = _LOGIN_PAIR.search(text, weak.end(), min(len(text), weak.end() + 80))
        if pair:
            start, end, core = _strip(pair.group("value"), pair.start("value"))
            if looks_like_password(core) and not core.isdigit():
                spans.append((start, end, PASSWORD))
    for pair in _USER_PASS.finditer(text):
        start, end, core = _strip_punctuation(pair.group("value"), pair.start("value"))
        if looks_like_password(core) or (len(core) >= 4 and not core.isalpha()):
            spans.append((pair.start("value"), pair.end("value"), PASSWORD))
    for pair in _PAIR.finditer(text) if _PAIR_CONTEXT.search(text) else ():
        start, end, core = _strip(pair.group("value"), pair.start("value"))
        wifi = bool(pair.group("wifi"))
        if _strongly_password(core) or (wifi and _wifi_password(core)):
            spans.append((start, end, PASSWORD))
    cues = [_Cue(m.start(), m.end(), m.group(0)) for m in _CUE.finditer(text)]
    cues += [_Cue(m.start("cue"), m.end("cue"), m.group("cue")) for m in _WIFI_KEY.finditer(text)]
    scanned = 0  # windows of nearby cues overlap: each token is judged once
    for cue in sorted(cues):
        scanned = _cue_spans(text, cue, scanned, spans)
    for cue in cues:
        spaced = _spaced_value(text, cue)
        if spaced:
            spans.append(spaced)
    for phrase_cue in _PHRASE_CUE.finditer(text) if "암호문" in text else ():
        quoted = _agreed_phrase(text, phrase_cue)
        if quoted:
            spans.append(quoted)
    spans += changed_to_spans(text)
    return [_before_next_parameter(text, span) for span in spans]


# Talk about passwords with spaces, not one: "설정할 때 띄어쓰기 포함 가능한지", "can it have
# spaces".
_SPACES_TALK = re.compile(
    r"(?i)(?:할|하는|만들|설정|변경|바꿀|바꾸|정할)\s*(?:때|거|건|데)|\b(?:when|if|can|should|does|do)\b"
)
_ASKS_ABOUT_SPACES = re.compile(
    r"[가-힣 \t]{0,4}(?:가능|되나|돼요\?|되는지|해도|해야|하나요|할까|\?)"
)


def _spaced_value(text: str, cue: _Cue) -> Span | None:
    """The words after `cue` up to a remark that they hold spaces, on the cue's line."""
    line_end = text.find("\n", cue.end)
    line_end = len(text) if line_end == -1 else line_end
    start = _EN_VERB.match(text, cue.end, line_end) or _KO_MARK.match(text, cue.end, line_end)
    begin = start.end() if start else cue.end
    while begin < line_end and text[begin] in " \t\"'“‘":
        begin += 1
    remark = _WITH_SPACES.search(text, begin, min(line_end, begin + 80))
    if remark is None or remark.start() <= begin:
        return None
    end = remark.start()
    while end > begin and text[end - 1] in "\"'”’ \t":
        end -= 1
    if " " not in text[begin:end].strip() or _SPACES_TALK.search(text[begin:end]):
        return None
    if _ASKS_ABOUT_SPACES.match(text, remark.end(), line_end):
        return None
    return begin, end, PASSWORD


def _before_next_parameter(text: str, span: Span) -> Span:
    """A value of a URL's query string ends where the next parameter starts:
    "?password=Tulip!2024&next=/cart" keeps "&next=/cart"."""
    start, end, kind = span
    following = _QUERY.search(text, start + 1, end)
    if following and text[following.start()] == "&":
        return start, following.start(), kind
    # "Password=abc;Server=x": the next key of a connection string, "pw Secr3t@db.internal"
    return start, password_end(text, start, end), kind


# "wifi at the cabin is LakeLoon / loon-call-kschs", "공유기 관리자 페이지 admin / Ru!ta9":
# a network's or an admin page's name and its password, written as a pair. After a router's
# admin page only a value of letters, digits and symbols counts (a model name is none); after
# a Wi-Fi network also a dashed passphrase.
_PAIR_CONTEXT = re.compile(
    r"(?i)wi-?fi|wlan|와이파이|공유기|router|관리자 ?페이지|admin (?:page|panel)"
)
_PAIR = re.compile(
    r"(?i)(?:(?P<wifi>wi-?fi|wlan|와이파이)|공유기|router|관리자 ?페이지|admin (?:page|panel))"
    r"[^\n/]{0,40}?(?<!\S)[^\s/]{2,32} / (?P<value>[^\s/]{6,64})(?!\S)"
)
_DASHED_PHRASE = re.compile(r"[a-z]{3,}(?:-[a-z]{3,}){2,4}")


def _wifi_password(value: str) -> bool:
    return looks_like_password(value) or bool(_DASHED_PHRASE.fullmatch(value))


_CLOSING_QUOTES = frozenset("\"'”’」』")
# The next key of a "key: value" or "key=value" text (JSON, YAML, env, flags' image:tag).
_NEXT_KEY = re.compile(r"[\"']?[^\W\d_][\w\-.]*[\"']?[:=]")


def _cue_spans(text: str, cue: _Cue, scanned: int, spans: list[Span]) -> int:
    """Add to `spans` the values stated after `cue`; return how far tokens were judged."""
    # The window: the rest of the line, at most _WINDOW characters (linear time).
    line_end = text.find("\n", cue.end, cue.end + _WINDOW)
    line_end = min(len(text), cue.end + _WINDOW) if line_end == -1 else line_end
    if _postal_pin(text, cue, line_end):
        return scanned
    following = text[cue.end : line_end].split(None, 1)
    head = following[0].lower().rstrip(".,:;") if following else ""
    # A hint describes the password ("비번 힌트: 첫 강아지 이름") but may give it away
    # ("비번 힌트: 강아지 이름 뭉치1990"): only a token that looks like a password counts.
    hint = head in _HINT_HEADS
    if head in _COMPOUND_HEADS and not hint:
        return scanned
    stated = None
    if not hint:
        listed = _listed_value(text, cue, line_end)
        if listed:
            spans.append(listed)
        frame = _frame_start(text, cue)
        stated = (
            _stated_value(text, frame[0], line_end, labelled=frame[1])
            if frame is not None
            else _quoted_after(text, cue.end, line_end) or _bare_value(text, cue, line_end)
        )
    if stated:
        spans.append(stated)
    spelled = spelled_digits(text, cue.end, line_end, within=24)
    if spelled:  # "도어락 번호 7 2 9 5 0 3", "PIN is four one one nine"
        spans.append((spelled.start("value"), spelled.end("value"), PASSWORD))
    combination = bool(_COMBINATION_CUE.search(cue.text))
    if stated and text[stated[1] : stated[1] + 1] in _CLOSING_QUOTES:
        # `PASSWORD='x' -p 5432:5432 postgres:16`: a quoted value ends at its closing quote
        line_end = stated[1]
    found = bool(stated)
    for offset, raw in _tokens(text, cue.end, line_end)[:9]:
        position = cue.end + offset
        if _OTHER_NUMBER_CUE.match(raw) and not hint:
            break  # (a hint names what the password is made of: "이름 뭉치1990")
        if found and _NEXT_KEY.match(raw):
            break  # `"password": "x", "port": 8080`: the next key's value is no password
        if position < scanned or not _CANDIDATE.search(raw):
            continue
        start, end, core = _strip(raw, position)
        value = looks_like_password(core) or (combination and bool(_THREE_DIGITS.fullmatch(core)))
        if value and not _unit_follows(text, end):
            spans.append((start, end, PASSWORD))
            found = True
        scanned = position + len(raw)
    return scanned


_HINT_HEADS = frozenset({"hint", "hints", "힌트", "힌트는", "힌트가"})

# "PIN code" is also a postal code (India's Postal Index Number), and "the pin for the zip" a
# zip code: a PIN named on a line about a place (an address, a delivery, a town) and about no
# card, bank, phone or lock is a postal code, which is public. A PIN of a card, an account or
# a device stays a secret wherever a place is named beside it.
_PIN_CUE_TEXT = re.compile(r"(?i)^(?:pin|핀)")
_PLACE_TALK = re.compile(
    r"(?i)(?<![A-Za-z])(?:zip(?![ \t]*(?:file|archive|folder|password|pass|pw))|zipcode|"
    r"postal|postcode|post ?office|address|area|city|town|village|district|locality|"
    r"neighbou?rhood|road|street|lane|nagar|colony|mailing|deliver(?:y|ies|ed)?|shipping|"
    r"shipped|courier|parcel|package|india|indian|"
    r"lives?[ \t]+(?:in|at)|living[ \t]+in|located|moved[ \t]+to)(?![A-Za-z])|"
    r"(?<![A-Za-z])(?-i:(?:in|at)[ \t]+[A-Z][a-z]+)|"  # "our office in Pune"
    r"주소|우편|동네|지역|배송|배달|택배|인도|사는|살아|살고|이사|마을|도시"
)
_PIN_OWNER = re.compile(
    r"(?i)(?<![A-Za-z])(?:cards?|debit|credit|atm|bank(?:ing)?|account|phone|sim|iphone|android|"
    r"apps?|wallet|laptop|door|lock|safe|alarm|locker|login|sign[ \t-]?in)(?![A-Za-z])|"
    r"카드|은행|통장|계좌|폰|유심|앱|지갑|현관|도어락|금고|잠금|로그인"
)


def _postal_pin(text: str, cue: _Cue, line_end: int) -> bool:
    """True when `cue` names a PIN that is a place's postal code: "my pin code for the zip is
    97201", "PIN code 560034 is our Bengaluru address"."""
    if not _PIN_CUE_TEXT.match(cue.text):
        return False
    number = _FIRST_NUMBER.search(text, cue.end, line_end)
    if not number or not _POSTAL_SHAPE.fullmatch(number.group(0)):
        return False  # "my pin is 4821, I'm in the city": four digits are a PIN's, not a place's
    line_start = text.rfind("\n", max(0, cue.start - _WINDOW), cue.start) + 1
    line_start = max(line_start, cue.start - _WINDOW)
    return bool(_PLACE_TALK.search(text, line_start, line_end)) and not _PIN_OWNER.search(
        text, line_start, line_end
    )


# A postal code has five digits (a US zip, a Korean 우편번호, optionally +4) or six (India's).
_FIRST_NUMBER = re.compile(r"(?<![0-9])[0-9][0-9 \-]*[0-9](?![0-9])")
_POSTAL_SHAPE = re.compile(r"[0-9]{5}(?:-[0-9]{4})?|[1-9][0-9]{5}|[1-9][0-9]{2} [0-9]{3}")


def _agreed_phrase(text: str, cue: re.Match[str]) -> Span | None:
    """The quoted phrase after 암호문, unless its line is about decrypting."""
    # the cue's line, at most _WINDOW characters either side (linear time)
    line_start = text.rfind("\n", max(0, cue.start() - _WINDOW), cue.start()) + 1
    line_start = max(line_start, cue.start() - _WINDOW)
    line_end = text.find("\n", cue.end(), cue.end() + _WINDOW)
    line_end = min(len(text), cue.end() + _WINDOW) if line_end == -1 else line_end
    if _CIPHER_TALK.search(text, line_start, line_end):
        return None
    return _quoted_after(text, cue.end(), line_end)


# "Wi-Fi: HarborNet / key: ...", "network key is ...", "와이파이 키는 ...": a Wi-Fi password
# labelled as a key, which after anything but Wi-Fi is no password ("primary key: id").
_WIFI_KEY = re.compile(
    r"(?i)(?:wi-?fi|wlan|wireless|ssid|network|wpa[23]?|와이파이|무선|네트워크)[^\n]{0,60}?"
    r"(?<![A-Za-z0-9])(?P<cue>key|키|psk)(?=[ \t]*[:=：]|[ \t]+(?:is|was)\b|는|은|"
    # "네트워크 키 bluebird77!": a value of letters and digits right after the key
    r"[ \t]+(?=[^\s]*[0-9])(?=[^\s]*[A-Za-z]))"
)
# "가족 확인용 암호문 '...'": an agreed phrase, though 암호문 is also a ciphertext ("암호문
# 해독 과제"): only a quoted value counts, and not on a line about decrypting.
_PHRASE_CUE = re.compile(r"암호문")
_CIPHER_TALK = re.compile(r"(?i)해독|복호|풀어|풀이|암호화|시저|decrypt|decode|cipher")
_QUOTE_MARK = re.compile(r"[ \t]*(?:은|는|이|가|을|를)?[ \t]*(?:[:=：][ \t]*)?")


def _quoted_after(text: str, start: int, line_end: int) -> Span | None:
    """A quoted value right after a cue, with no "is" between: `비번 "blue sky 7"`, `code word
    'lemon rocket'`. A quoted word about passwords (`password "reset" link`) is none."""
    mark = _QUOTE_MARK.match(text, start, line_end)
    quoted = _QUOTED.match(text, mark.end() if mark else start, line_end)
    if not quoted:
        return None
    value = quoted.group(1).strip()
    lower = value.lower()
    if len(value) < 3 or REFERENCE.match(value) or _NOT_SECRET.match(value):
        return None
    if lower in _COMPOUND_HEADS or lower in _FUNCTION_WORDS or lower in _PREDICATES:
        return None
    return quoted.start(1), quoted.end(1), PASSWORD


# A lock's combination may be three digits (a suitcase's): "자물쇠 번호 482", "combo 0-4-7".
_COMBINATION_CUE = re.compile(r"(?i)다이얼|자물쇠|조합|combo|combination|dial")
_THREE_DIGITS = re.compile(r"[0-9](?:-?[0-9]){2}")


# A token can look like a password only with a digit or an ASCII letter in it.
_CANDIDATE = re.compile(r"[0-9A-Za-z]")


def _unit_follows(text: str, end: int) -> bool:
    rest = text[end : end + 12].lstrip(" ")
    return bool(rest) and bool(_UNIT_WORD.match(rest)) and text[end : end + 1] in " "


# A password changed to a value: "비밀번호 사과나무열매로 바꿨어", "I changed my bank password
# to bluebird". What it was changed to may be a description ("생일로", "영문숫자 조합으로",
# "to something longer"): only a value that is neither a description nor talk counts.
_KO_CHANGED = re.compile(
    r"(?:비밀 ?번호|비번|패스 ?워드|암호|pin|PIN)[ \t]*(?:을|를|도|는|은)?[ \t]*"
    r"(?:(?:오늘|어제|방금|이번에|드디어|결국|새로|다시)[ \t]+)?"
    r"(?P<value>[^\s\"'“‘]{2,40}?)(?:으로|로)[ \t]*(?:다시[ \t]*)?"
    r"(?:바꿨|바꿈|바꿔|바꾼|변경|설정|해놨|해뒀|해 ?놓|해 ?뒀|정했)"
)
_EN_CHANGED = re.compile(
    r"(?i)(?:(?:changed?|set|reset|updated?|switched)[ \t]+(?:my|the|our|his|her)[ \t]+"
    r"(?:[A-Za-z0-9'\-]+[ \t]+){0,3}?(?:pass ?words?|passcode|pin|pwd)"
    r"|(?:pass ?word|passcode|pin|pwd|(?:door|gate|garage|alarm|lock|safe|entry|keypad|building)"
    r" ?code|combination|combo)[ \t]+(?:is[ \t]+now|was|got|has been|is)?[ \t]*"
    r"(?:changed|set|reset|updated|switched))"
    r"[ \t]+to[ \t]+"
)
# What a password was changed to may be pointed at, not given: "이걸로", "저거로".
_KO_DEMONSTRATIVES = frozenset("이거 그거 저거 이걸 그걸 저걸 뭘 요거 요걸".split())  # noqa: SIM905
_EN_AFTER_VALUE = re.compile(
    r"(?i)[ \t]*(?:$|[.,;!?)\n]|(?:and|but|so|yesterday|today|tonight|last|this|earlier|now|"
    r"again|lol|btw|please|pls)\b)"
)


def changed_to_spans(text: str) -> list[Span]:
    """Spans of the values a password was changed to in `text`."""
    spans: list[Span] = []
    for match in _KO_CHANGED.finditer(text):
        value = match.group("value")
        if (
            value.lower() in _FUNCTION_WORDS
            or value.startswith(_KO_TALK_STEMS)
            or described_in_korean([value])
            or value in _KO_DEMONSTRATIVES
            or _NOT_SECRET.match(value)
            or REFERENCE.match(value)
            or (len(value) < 4 and not _CANDIDATE.search(value))
        ):
            continue
        spans.append((match.start("value"), match.end("value"), PASSWORD))
    for match in _EN_CHANGED.finditer(text):
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end == -1 else line_end
        quoted = _QUOTED.match(text, match.end(), line_end)
        if quoted:
            spans.append((quoted.start(1), quoted.end(1), PASSWORD))
            continue
        value = _changed_to_value(text, match.end(), line_end)
        if value:
            spans.append(value)
    return spans


# "changed my password to protect the account", "... to stop the spam": what for, not what to.
_PURPOSE_VERBS = frozenset(
    """be get keep stop make avoid protect prevent secure lock block fix test
    check comply meet match satisfy improve increase boost log access
    celebrate""".split()  # noqa: SIM905
)


def _changed_to_value(text: str, start: int, line_end: int) -> Span | None:
    """The value after "changed my password to": one token that looks like a password, or up
    to five plain words that end where the sentence goes on ("blue moon river yesterday")."""
    words: list[tuple[int, int, str]] = []
    for offset, raw in _tokens(text, start, line_end)[:5]:
        s, e, core = _strip(raw, start + offset)
        lower = core.lower()
        if (
            not core
            or lower in _FUNCTION_WORDS
            or lower in _EN_STOPS
            or REFERENCE.match(core)
            or _NOT_SECRET.match(core)
            or _unit_follows(text, e)
            or (not words and (len(core) < 3 or lower in _PURPOSE_VERBS))
            or (not words and _POSSESSIVE.search(core) and e < line_end)
        ):
            return None
        words.append((s, e, core))
        if len(words) == 1 and looks_like_password(core):
            return s, e, PASSWORD
        if e < start + offset + len(raw) or _EN_AFTER_VALUE.match(text, e):
            break
    else:
        return None
    if (len(words) == 1 and words[0][2].lower() in _PREDICATES) or words[-1][2].lower() in {
        "one",
        "ones",
    }:
        return None  # "to stronger", "to a longer one": what it is like; "to new beginnings" is one
    return words[0][0], words[-1][1], PASSWORD


# Endings of Korean words that are a predicate or carry a sentence on, not a value's end:
# "비번 해킹당함", "비번 틀렸어", "비번 공유금지".
_KO_PREDICATE_END = re.compile(
    r"(?:다|요|어|아|해|했|함|음|됨|지|네|까|니|게|줘|자|죠|군|냐|래|고|서|며|면|는|은|을|를|에|의|도|만|"
    r"금지|불가|필요|변경|공유|해제|오류|에러|실패|성공|완료|확인|문제|안됨|안돼)$"
)
_ITS_QUOTED = re.compile(r"(?i)(?<![A-Za-z])(?:it'?s|it is|it was|that's|that is)[ \t]+(?=[\"“‘'])")


def _bare_value(text: str, cue: _Cue, line_end: int) -> Span | None:
    """A value with no "is" before it: a Korean cue and one word that ends the line
    ("와이파이 비번 하늘색고양이"), or a quoted value after "it's" on the cue's line
    ("the password for the drive? it's \"tulips in april\"")."""
    its = _ITS_QUOTED.search(text, cue.end, min(line_end, cue.end + 80))
    if its:
        return _quoted_after(text, its.end(), line_end)
    tokens = _tokens(text, cue.end, line_end)
    if not _HANGUL.search(cue.text) and not (
        # "wifi pw 달빛정원 (all Korean)": a Korean word after an English cue, before a remark
        len(tokens) > 1 and _HANGUL.search(tokens[0][1]) and tokens[1][1][:1] in "([（【"
    ):
        return None
    # "비밀번호 해바라기농장 (꼭) 잊지 마": a request after the word is no part of it
    after = 1
    while after < len(tokens) - 1 and tokens[after][1].lower() in _FUNCTION_WORDS:
        after += 1
    # "와이파이 비번 달빛정원 (전부 한글) 손님용": a remark in brackets closes the one word,
    # and so do a comma after it ("초록대문집, 한글로 치면 됨") and a closing word ("... 이래")
    remark = len(tokens) > 1 and tokens[1][1][:1] in "([（【"
    closed = len(tokens) > 1 and (
        tokens[0][1].endswith(",") or tokens[1][1].rstrip(_TRAILING) in _KO_CLOSERS
    )
    if len(tokens) > 1 and (
        remark
        or closed
        or _asks_to_keep(tokens[after][1], tokens[after + 1][1] if len(tokens) > after + 1 else "")
        or _KO_VERBAL_END.search(tokens[after][1].rstrip(_TRAILING))
        or not _WORDLIKE.search(tokens[1][1])
    ):
        tokens = tokens[:1]
    if len(tokens) != 1 or tokens[0][0] == 0:
        return None
    start, end, core = _strip(tokens[0][1], cue.end + tokens[0][0])
    if remark and _HANGUL.search(core):
        # before a bracket no Korean ending is glued on: the word is whole ("우리집최고")
        start, end, core = _strip_punctuation(tokens[0][1], cue.end + tokens[0][0])
    if (
        len(core) < 4
        or core.lower() in _FUNCTION_WORDS
        or core.lower() in _COMPOUND_HEADS
        or core.startswith(_KO_TALK_STEMS)
        or (_KO_PREDICATE_END.search(core) and not (remark and _NOUN_END.search(core)))
        or _NOT_SECRET.match(core)
        or REFERENCE.match(core)
    ):
        return None
    return start, end, PASSWORD
