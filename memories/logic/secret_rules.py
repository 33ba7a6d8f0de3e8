"""The detectors behind `redaction.redact`: pure functions, no Django.

Each detector takes folded text (full-width forms as ASCII, zero-width characters removed,
earlier placeholders turned into line breaks) and returns `(start, end, kind)` spans in it.
Vendor keys and private keys are found by shape; numbers by their checksums (Luhn for cards,
the check digit of a 주민등록번호) or by a cue that says what they are (계좌, 인증번호, CVC);
passwords by a cue (비번, password, PIN ...) followed by a value. All patterns are linear:
no nested quantifiers over the same characters.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections import Counter
from collections.abc import Iterator

from memories.logic.secret_spelled import spelled_digits

Span = tuple[int, int, str]

API_KEY = "api key"
PRIVATE_KEY = "private key"
JWT = "jwt"
TOKEN = "token"
CARD_NUMBER = "card number"
CARD_CODE = "card code"
CARD_EXPIRY = "card expiry"
PASSWORD = "password"
RESIDENT_NUMBER = "resident registration number"
BANK_ACCOUNT = "bank account"
VERIFICATION_CODE = "verification code"

_B = r"(?<![A-Za-z0-9_\-])"  # start of a token
_E = r"(?![A-Za-z0-9_\-])"  # end of a token

# (kind, needles, pattern) found by shape alone; a pattern runs only on text that holds one
# of its needles, which keeps a long message fast.
_SHAPES: list[tuple[str, tuple[str, ...], re.Pattern[str]]] = [
    (
        PRIVATE_KEY,
        ("PRIVATE KEY",),
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*\Z)",
            re.DOTALL,
        ),
    ),
    (API_KEY, ("sk-ant-",), re.compile(_B + r"sk-ant-[A-Za-z0-9_\-]{16,}" + _E)),
    (API_KEY, ("sk-",), re.compile(_B + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}" + _E)),
    (
        API_KEY,
        ("AKIA", "ASIA", "AGPA", "AIDA", "AROA"),
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}(?![A-Z0-9])"),
    ),
    (API_KEY, ("gh",), re.compile(_B + r"gh[pousr]_[A-Za-z0-9]{30,}" + _E)),
    (API_KEY, ("github_pat_",), re.compile(_B + r"github_pat_[A-Za-z0-9_]{22,}" + _E)),
    (API_KEY, ("glpat-",), re.compile(_B + r"glpat-[A-Za-z0-9_\-]{20,}" + _E)),
    (API_KEY, ("xox",), re.compile(_B + r"xox[abposre]-[A-Za-z0-9\-]{10,}" + _E)),
    (API_KEY, ("xapp-",), re.compile(_B + r"xapp-[0-9]-[A-Za-z0-9\-]{10,}" + _E)),
    # a webhook's path is its secret; the host says what it is and stays
    (API_KEY, ("hooks.slack",), re.compile(r"(?<=hooks\.slack\.com/services/)[A-Za-z0-9/_\-]+")),
    (
        API_KEY,
        ("/api/webhooks/",),
        re.compile(r"(?<=discord\.com/api/webhooks/)[0-9]{15,20}/[A-Za-z0-9_\-]{30,}"),
    ),
    (API_KEY, ("AIza",), re.compile(_B + r"AIza[0-9A-Za-z_\-]{30,}" + _E)),
    (API_KEY, ("ya29.",), re.compile(_B + r"ya29\.[0-9A-Za-z_\-]{20,}" + _E)),
    (API_KEY, ("GOCSPX-",), re.compile(_B + r"GOCSPX-[0-9A-Za-z_\-]{20,}" + _E)),
    (
        API_KEY,
        ("_live_", "_test_"),
        re.compile(_B + r"(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}" + _E),
    ),
    # Toss Payments and others put the environment first: live_sk_..., test_gsk_...
    (
        API_KEY,
        ("live_", "test_"),
        re.compile(_B + r"(?:live|test)_(?:sk|gsk)_(?=[0-9A-Za-z]*[0-9])[0-9A-Za-z]{16,}" + _E),
    ),
    (API_KEY, ("whsec_",), re.compile(_B + r"whsec_[0-9A-Za-z]{24,}" + _E)),
    (API_KEY, ("hf_",), re.compile(_B + r"hf_[A-Za-z0-9]{30,}" + _E)),
    (API_KEY, ("npm_",), re.compile(_B + r"npm_[A-Za-z0-9]{36}" + _E)),
    (API_KEY, ("pypi-",), re.compile(_B + r"pypi-[A-Za-z0-9_\-]{50,}" + _E)),
    (
        API_KEY,
        ("SG.",),
        re.compile(_B + r"SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}" + _E),
    ),
    (API_KEY, ("shp",), re.compile(_B + r"(?:shpat|shpss|shpca|shppa)_[a-fA-F0-9]{32}" + _E)),
    (API_KEY, ("dop_v1_",), re.compile(_B + r"dop_v1_[a-f0-9]{64}" + _E)),
    (
        API_KEY,
        ("lin_api_", "ntn_", "secret_"),
        re.compile(_B + r"(?:lin_api|ntn|secret)_[A-Za-z0-9]{32,}" + _E),
    ),
    # DeepL: a UUID and ":fx" (the free plan's keys)
    (
        API_KEY,
        (":fx",),
        re.compile(
            r"(?<![A-Za-z0-9\-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
            r"[0-9a-fA-F]{12}:fx(?![A-Za-z0-9])"
        ),
    ),
    # Telegram bot tokens: the bot's id, a colon, 35 characters.
    (API_KEY, (":",), re.compile(r"(?<![0-9])[0-9]{6,12}:[A-Za-z0-9_\-]{30,}" + _E)),
    (
        JWT,
        ("eyJ",),
        re.compile(_B + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}" + _E),
    ),
    (TOKEN, ("earer ", "EARER "), re.compile(r"(?i)(?<=bearer )[A-Za-z0-9._\-+/=]{20,}")),
    (
        TOKEN,
        ("asic ", "ASIC "),
        re.compile(r"(?i)(?<=authorization: basic )[A-Za-z0-9+/=]{12,}"),
    ),
]

# "api_key = value", `apiKey: "value"`, AWS_SECRET_ACCESS_KEY=value and the like.
_ASSIGNMENT = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?P<name>[A-Za-z_]{0,24}?"
    r"(?:api[_\-]?key|access[_\-]?key|secret|token|auth|credential|passw(?:or)?d|pwd))"
    r"[A-Za-z_]{0,12}[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<value>[^\s\"',;]+)"
)
_PASSWORD_NAME = re.compile(r"(?i)passw(?:or)?d|pwd")
# A line of a pasted .env file or shell profile whose name ends in _KEY: "STRIPE_KEY=...",
# "export MAPS_API_KEY=...". Upper case only: "sort_key=name" in code is no secret's name.
_ENV_KEY = re.compile(
    r"(?m)^[ \t]*(?:export[ \t]+)?[A-Z][A-Z0-9_]*_KEY[ \t]*=[ \t]*[\"']?(?P<value>[^\s\"']+)"
)
# "twilio api key SKbc8e...", "access token is 7f3a...", "REST 키 6293f9...": a key named as
# one without a colon, of a vendor no shape lists. The value has letters and digits and does
# not read as words, so "key user_id_2" or "키 180" is none.
_NAMED_KEY = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:api[ _\-]?(?:key|token|secret)|access[ _\-]?(?:key|token)|"
    r"secret[ _\-]?key|auth[ _\-]?token|bearer|(?:api|액세스|시크릿) ?(?:키|토큰)|토큰|"
    # any key named as one: "REST 키", "네이티브 앱 키", "admin key", "카카오 키"
    r"key|키)"
    r"(?:[ _\-]?id(?![A-Za-z0-9]))?"  # "Access Key ID ...": the key's public half
    r"(?:[ \t]+(?:is|was|=|:))?(?:은|는|이|가)?[ \t]*[:=]?[ \t]*"
    r"(?P<value>(?=[A-Za-z0-9_\-]*[0-9])(?=[A-Za-z0-9_\-]*[A-Za-z])[A-Za-z0-9_\-]{16,})"
    r"(?![A-Za-z0-9_\-])"
)
# A key named as one, its value a few words later in the same clause: "API 키는 DeepL 것으로
# a7c3e1f9-...", "the license key for Figma is ...". The value is one token of 20 or more
# letters and digits with hyphens (a UUID, a vendor's key), maybe with a short suffix (":fx").
_KEY_LATER = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:api[ _\-]?(?:key|token)|access[ _\-]?(?:key|token)|license[ _\-]?key|"
    r"(?:api|액세스|시크릿|인증|라이선스|라이센스) ?(?:키|토큰))"
    r"[^\n.;:=]{1,40}?(?<![A-Za-z0-9_\-])"
    r"(?P<value>(?=[A-Za-z0-9_\-]*[0-9])(?=[A-Za-z0-9_\-]*[A-Za-z])[A-Za-z0-9_\-]{20,}"
    r"(?::[A-Za-z]{1,4})?)(?![A-Za-z0-9_\-])"
)
# "클라이언트 시크릿 Ab3...", "app secret: ...": an OAuth client's or an app's secret, which may
# be as short as ten letters (Naver's) and need not hold a digit.
_NAMED_SECRET = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:(?:client|app|consumer|oauth|api)[ _\-]?secret|"
    r"(?:클라이언트|앱|컨슈머|api) ?시크릿|시크릿 ?(?:키|값|코드)|secret[ _\-]?(?:key|value))"
    r"(?:[ \t]+(?:is|was|=|:))?(?:은|는|이|가)?[ \t]*[:=]?[ \t]*"
    r"(?P<value>[A-Za-z0-9_\-]{8,64})(?![A-Za-z0-9_\-])"
)
# A secret named by the word alone, its value after it on the line, after an arrow or a colon,
# or alone on the next line: "secret → Xy8kQ...", "시크릿은 ZtR4...", "client secret\nXy8k...".
_BARE_SECRET = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:(?:client|app|consumer|oauth|api|webhook|signing|shared|jwt|hmac|"
    r"session)[ _\-]?)?(?:secret|시크릿)(?:[ _\-]?(?:key|value|키|값))?(?![A-Za-z0-9_])"
    r"(?:[ \t]+(?:is|was))?(?:[ \t]*(?:은|는|이|가)(?![가-힣]))?[ \t]*"
    # "시크릿 이거 ...", "secret here: ...": a word that points at the value
    r"(?:(?:이거(?:야|임|예요|에요)?|요거|여기|here(?: it is)?)(?![가-힣A-Za-z])[ \t]*)?"
    r"(?P<mark>(?:[:=：→➔➜⇒]|->|=>|—|-)[ \t]*)?(?:\n[ \t]*){0,2}"
    r"(?P<next_mark>(?<=\n)(?:[ \t]*(?:[:=：→➔➜⇒]|->|=>))[ \t]*)?"
    r"(?P<value>[A-Za-z0-9_\-+/]{8,128}=*)(?![A-Za-z0-9_\-+/=])"
)

# postgres://user:pass@host, redis://:pass@host; the password may hold an unescaped @.
_URL_PASSWORD = re.compile(
    r"(?i)(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]{0,20}://[^\s:/@]{0,64}:(?P<value>[^\s/]{1,128})@[^\s/@]+",
    re.ASCII,
)
# Password=...; in ADO/JDBC/libpq strings and command lines. In a connection string the value
# runs to the ";" before the next key, spaces and all ("Password=my pass word;Initial Catalog").
_KEY_VALUE_PASSWORD = re.compile(
    r"(?i)(?<![A-Za-z])(?:password|passwd|pwd|pass)[ \t]*=[ \t]*"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|"
    r"[^\s;=\"'][^;\n=\"']{0,126}(?=;[ \t]*(?:[A-Za-z][A-Za-z0-9_ ]{0,30}=|[\"']|$))|"
    r"[^\s;,\"']+)",
    re.MULTILINE,
)
# A host after a password: "Secr3t!x@db.internal", "...@10.0.0.3:3306", "...@localhost".
_HOST = (
    r"(?:localhost|[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,})"
    r"(?::[0-9]{2,5})?"
)
_AT_HOST = re.compile(r"@" + _HOST + r"(?=[/;?,\s\"')]|$)")
# "root:Passw0rd!@10.0.0.3:3306": a user, a password and a host with no scheme before them.
HOST_PASSWORD = re.compile(
    r"(?<![\w/:@.\-])(?P<user>[A-Za-z0-9_.\-]{1,32}):(?P<value>[^\s:/@]{3,64}(?:@[^\s:/@]+)*?)"
    r"(?=" + _AT_HOST.pattern + r")"
)
# Names before a colon that make "name:someone@host" an address, not a login.
_ADDRESS_LABEL = re.compile(
    r"(?i)e-?mail|mail|mailto|to|from|cc|bcc|reply-to|contact|id|user(?:name)?|sender|address"
)


def password_end(text: str, start: int, end: int) -> int:
    """Where a password found at `start:end` really ends: before the next key of a connection
    string ("abc;Server=x") and before "@host" ("Secr3t@db.internal:5432")."""
    following = _NEXT_CONNECTION_KEY.search(text, start + 1, end)
    if following:
        end = following.start()
    for at in _AT_HOST.finditer(text, start + 1, end):
        if at.end() == end or text[at.end() : end].startswith((":", "/", ";", "?")):
            return at.start()
    return end


_NEXT_CONNECTION_KEY = re.compile(r";[ \t]*[A-Za-z][A-Za-z0-9_ ]{0,30}=")

# The text of a Wi-Fi QR code, WIFI:T:WPA;S:<network>;P:<password>;; (fields in any order,
# "\;" escapes a semicolon): the P field is the password, the network's name stays.
_WIFI_QR = re.compile(
    r"(?i)(?<![A-Za-z])WIFI:(?:[A-Z0-9]{1,3}:(?:\\.|[^;\\\n])*;)*?P:(?P<value>(?:\\.|[^;\\\n])+)"
)

# A 40-character AWS secret key after a cue; the cue may be a few words away (시크릿 키는 ...).
_AWS_SECRET = re.compile(
    r"(?i)(?:secret|시크릿)[^\n]{0,24}?(?<![A-Za-z0-9/+=])(?P<value>[A-Za-z0-9/+=]{40})"
    r"(?![A-Za-z0-9/+=])"
)
# Discord bot tokens: the bot's id in base64, a timestamp and an HMAC, joined by dots; the
# HMAC must look random ("Quarterly_Report_2024_Final.backup.Q3_..." is a file name).
_DOTTED_TOKEN = re.compile(
    _B + r"[A-Za-z0-9_\-]{23,28}\.[A-Za-z0-9_\-]{6,7}\.(?P<mac>[A-Za-z0-9_\-]{27,})" + _E
)
# A long run of key characters: a key of a vendor nobody listed, when it looks random.
_LONG_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-.:@])[A-Za-z0-9+/_\-]{32,}={0,2}(?![A-Za-z0-9+/=_\-])")
_WORDISH = re.compile(r"[A-Z]?[a-z]{3,}")


def _looks_random(value: str) -> bool:
    if not (re.search(r"[a-z]", value) and re.search(r"[A-Z]", value)):
        return False
    if sum(c.isdigit() for c in value) < 2:
        return False
    if sum(len(m) for m in _WORDISH.findall(value)) > len(value) // 2:
        return False  # an identifier or a path made of words
    counts = Counter(value)
    entropy = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    return entropy >= 4.0


# What makes decoded text hold a secret: a password's, a key's or a PIN's name, or a run of
# letters with digits.
_SECRET_TALK = re.compile(
    r"(?i)pass|pw|pin|key|token|secret|auth|login|비번|비밀|암호|키|토큰|[:=@]|"
    r"[A-Za-z]+[0-9]+[A-Za-z0-9]*|[0-9]{4,}"
)


def _encodes_plain_words(run: str) -> bool:
    """A base64 run that decodes to a sentence of plain words with no secret in it
    ("aWdub3JlIHlvdXIg..." is "ignore your ..."): no key, and left for the injection
    detector to read."""
    padded = run + "=" * (-len(run) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            decoded = decode(padded).decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        words = decoded.split()
        letters = sum(c.isalpha() or c.isspace() for c in decoded)
        if (
            len(words) >= 3
            and decoded.isprintable()
            and letters >= 0.85 * len(decoded)
            and not _SECRET_TALK.search(decoded)
        ):
            return True
    return False


def _shape_spans(text: str) -> Iterator[Span]:
    for kind, needles, pattern in _SHAPES:
        if not any(needle in text for needle in needles):
            continue
        for match in pattern.finditer(text):
            yield match.start(), match.end(), kind
    for match in _AWS_SECRET.finditer(text):
        value = match.group("value")
        if (
            re.search(r"[a-z]", value)
            and re.search(r"[A-Z]", value)
            and re.search(r"[0-9/+]", value)
        ):
            yield match.start("value"), match.end("value"), API_KEY
    for match in _LONG_RUN.finditer(text):
        if _looks_random(match.group(0)) and not _encodes_plain_words(match.group(0)):
            yield match.start(), match.end(), TOKEN
    for match in _DOTTED_TOKEN.finditer(text) if "." in text else ():
        if _looks_random(match.group("mac")):
            yield match.start(), match.end(), TOKEN
    for match in _WIFI_QR.finditer(text) if mentions(text, ("wifi:",)) else ():
        yield match.start("value"), match.end("value"), PASSWORD


# A reference to a value kept elsewhere, not the value: $DB_PASSWORD, ${X}, <your key>, ***.
REFERENCE = re.compile(
    r"^(?:\$\{\w+\}|\$[A-Z_][A-Z0-9_]*|%\w+%|\{\{.*|<.*|\*+|x+|os\.environ.*|env\(.*|"
    r"None|null|true|false)$"
)


def mentions(text: str, needles: tuple[str, ...]) -> bool:
    """True when the lower-cased text holds one of the needles: a cheap test that lets a
    detector skip a long message that cannot hold what it looks for."""
    lower = text.lower()
    return any(needle in lower for needle in needles)


_ASSIGNMENT_NEEDLES = ("key", "secret", "token", "auth", "credential", "passw", "pwd")


def _assignment_spans(text: str) -> Iterator[Span]:
    names = mentions(text, _ASSIGNMENT_NEEDLES)
    for match in _ASSIGNMENT.finditer(text) if names else ():
        match_end = _value_end(text, match)
        value = text[match.start("value") : match_end]
        if REFERENCE.match(value):
            continue
        if _PASSWORD_NAME.search(match.group("name")):
            if len(value) >= 3:
                yield match.start("value"), password_end(text, match.start(), match_end), PASSWORD
        elif (any(c.isdigit() for c in value) and len(value) >= 12) or len(value) >= 24:
            yield match.start("value"), match_end, TOKEN
    for match in _NAMED_KEY.finditer(text) if names or "키" in text or "토큰" in text else ():
        value = match.group("value")
        if (
            not _WORDISH.fullmatch(value)
            and sum(len(m) for m in _WORDISH.findall(value)) < len(value) // 2
        ):
            yield match.start("value"), match.end("value"), TOKEN
    for match in _KEY_LATER.finditer(text) if names or "키" in text or "토큰" in text else ():
        value = match.group("value")
        if sum(len(m) for m in _WORDISH.findall(value)) < len(value) // 2:
            yield match.start("value"), match.end("value"), TOKEN
    for match in _NAMED_SECRET.finditer(text) if names or "시크릿" in text else ():
        value = match.group("value")
        classes = sum(bool(re.search(pattern, value)) for pattern in ("[a-z]", "[A-Z]", "[0-9]"))
        if classes >= 2 and sum(len(m) for m in _WORDISH.findall(value)) < len(value) // 2:
            yield match.start("value"), match.end("value"), TOKEN
    for match in _ENV_KEY.finditer(text) if "_KEY" in text else ():
        value = match.group("value")
        if not REFERENCE.match(value) and (
            (any(c.isdigit() for c in value) and len(value) >= 12) or len(value) >= 24
        ):
            yield match.start("value"), match.end("value"), TOKEN
    for match in _BARE_SECRET.finditer(text) if names or "시크릿" in text else ():
        value = match.group("value")
        marked = bool(match.group("mark") or match.group("next_mark"))
        if _secret_value(value, marked=marked):
            yield match.start("value"), match.end("value"), TOKEN
    for match in _URL_PASSWORD.finditer(text) if "://" in text else ():
        yield match.start("value"), match.end("value"), PASSWORD
    for match in HOST_PASSWORD.finditer(text) if "@" in text else ():
        value = match.group("value")
        if _ADDRESS_LABEL.fullmatch(match.group("user")) or REFERENCE.match(value):
            continue
        if any(c.isdigit() for c in value) or re.search(r"[!#$%^&*?~+=]", value):
            yield match.start("value"), match.end("value"), PASSWORD
    for match in _KEY_VALUE_PASSWORD.finditer(text) if names else ():
        end = password_end(text, match.start("value"), _value_end(text, match))
        value = text[match.start("value") : end].strip("\"' \t")
        if value and not REFERENCE.match(value):
            yield match.start("value"), end, PASSWORD


def _secret_value(value: str, *, marked: bool) -> bool:
    """A value given as a secret: letters with digits that do not read as words ("Xy8kQ2mPz9"),
    or after a colon or an arrow any letters with digits ("secret → mysecretkey123")."""
    if REFERENCE.match(value) or not any(c.isdigit() for c in value):
        return False
    if not any(c.isalpha() for c in value):
        return False
    if marked:
        return True
    return sum(len(m) for m in _WORDISH.findall(value)) < len(value) // 2


def _value_end(text: str, match: re.Match[str]) -> int:
    """Where an assigned value ends: a URL's query parameter ends at the next one
    ("?access_key=...&query=Seoul"), any other value where the pattern ends it."""
    if match.start() > 0 and text[match.start() - 1] in "?&":
        value = re.split(r"[&#]", match.group("value"), maxsplit=1)[0]
        return match.start("value") + len(value)
    return match.end("value")


# ---------------------------------------------------------------------------------------
# Numbers: cards, 주민등록번호, bank accounts, one-time codes.

_CARD = re.compile(r"(?<![0-9])[0-9](?:[ .\-]?[0-9]){12,18}(?![0-9])")
_CARD_CUE = re.compile(
    r"(?i)카드|card|visa|비자|master|마스터|amex|아멕스|discover|diners|jcb|결제|cc\b|credit|debit"
)
# "주문번호 2024...", "tracking no. 4000...": a number labelled as another kind right before it.
_OTHER_NUMBER_LABEL = re.compile(
    r"(?i)(?:주문|송장|운송장|등기|예약|접수|사업자|회원|거래|시리얼|order|invoice|tracking|booking|"
    r"reservation|reference|ref|ticket|case|serial|member(?:ship)?)"
    r"[ \t]*(?:번호|no\.?|number|#|id)?[ \t]*(?:은|는|이|가)?[ \t]*[:：#]?[ \t]*$"
)
# Groupings printed on cards: 4-4-4-4(-3), 4-6-5 (Amex), 4-6-4 (Diners).
_CARD_GROUPS = frozenset({(4, 4, 4, 4), (4, 4, 4, 4, 3), (4, 6, 5), (4, 6, 4), (4, 4, 4, 3)})


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum card numbers carry."""
    if not digits.isdigit() or not 13 <= len(digits) <= 19:
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _near(
    pattern: re.Pattern[str], text: str, start: int, end: int, *, before: int = 40, after: int = 40
) -> bool:
    """True when `pattern` occurs on the span's line, from `before` characters before it to
    `after` characters after it."""
    window_start = max(0, start - before)
    line_start = text.rfind("\n", window_start, start) + 1
    window_end = min(len(text), end + after)
    line_end = text.find("\n", end, window_end)
    window = text[max(line_start, window_start) : line_end if line_end != -1 else window_end]
    return bool(pattern.search(window))


_CARD_DETAIL_NEEDLES = (
    "cvc",
    "cvv",
    "ccv",
    "cvn",
    "cav",
    "cid",
    "csc",
    "security",
    "보안",
    "카드",
    "card",
    "브이",
    "씨비",
    "시비",
)


def _luhn_prefix(number: str) -> str | None:
    """`number`, or the longest part of it before a space that passes Luhn: "4111 ... 1111 12"
    is a card number with its expiry's month after it."""
    if luhn_valid(re.sub(r"[^0-9]", "", number)):
        return number
    cut = number.rfind(" ")
    while cut > 0:
        prefix = number[:cut]
        if luhn_valid(re.sub(r"[^0-9]", "", prefix)):
            return prefix
        cut = number.rfind(" ", 0, cut)
    return None


def _card_spans(text: str) -> Iterator[Span]:
    for match in _CARD.finditer(text):
        number = _luhn_prefix(match.group(0))
        if number is None:
            continue
        digits = re.sub(r"[^0-9]", "", number)
        end = match.start() + len(number)
        card_named = _near(_CARD_CUE, text, match.start(), end)
        groups = tuple(len(g) for g in re.split(r"[ .\-]", number))
        printed = len(groups) > 1 and groups in _CARD_GROUPS  # grouped as a card prints it
        if (
            not card_named
            and not printed
            and _OTHER_NUMBER_LABEL.search(text, max(0, match.start() - 24), match.start())
        ):
            continue  # "주문번호 2024112514328807": an order number that happens to pass Luhn
        shaped = len(groups) == 1 or groups in _CARD_GROUPS
        if (shaped and digits[0] in "234569") or card_named:
            yield match.start(), end, CARD_NUMBER


# The card's code by any of its names, misspelt ("ccv", "cvn") or written in Hangul as it is
# said ("씨브이씨", "씨비씨", "시브이브이").
_CVC_NAME = (
    r"(?:cvc2?|cvv2?|ccv2?|cvn2?|cav2?|cid|csc|security code|보안 ?코드|카드 ?뒤 ?3자리|"
    r"(?:씨|시) ?(?:브이|비) ?(?:씨|시|브이|비)|씨 ?씨 ?브이)"
)
_CVC = re.compile(
    r"(?i)(?<![A-Za-z])(?P<name>"
    + _CVC_NAME
    # "보안코드 3자리 417", "the 4 digit security code 9120": the length may come first
    + r")(?:[^0-9\n]|[34] ?(?:자리|digits?)){0,14}?(?<![0-9])(?P<value>[0-9]{3,4})(?![0-9])"
)
# "씨비씨" is also a broadcaster (CBC): a name in Hangul counts on a card's line only.
_CARD_CONTEXT = re.compile(_CARD_CUE.pattern + "|" + r"유효 ?기간|(?i:exp(?:iry|ires)?)\b")
# A card's expiry date after its cue ("exp 11/26", "유효기간 08/27", "만료 2026년 5월") or before
# one ("28년 12월 만료", "12/27까지 유효"): MM/YY, MM/YYYY, YYYY-MM, "26년 5월", "May 2026".
_EXPIRY_VALUE = (
    r"(?<![0-9/.\-])(?P<value>(?:0?[1-9]|1[0-2]) ?[/\-.] ?(?:20)?[0-9]{2}"
    r"|20[0-9]{2} ?[/\-.] ?(?:0?[1-9]|1[0-2])"
    r"|(?:20)?[0-9]{2} ?년 ?(?:0?[1-9]|1[0-2]) ?월"
    r"|(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? (?:20)?[0-9]{2})"
    r"(?![0-9]|[/.\-][0-9])"
)
_EXPIRY_CUE = (
    r"(?i:exp(?:iry|iration|ires|ired|\.)?(?: date)?|valid (?:thru|through|until)|good thru|"
    r"유효 ?기간|유효|만료 ?(?:일|기간|날짜)?)"
)
_EXPIRY = re.compile(
    r"(?<![A-Za-z])"
    + _EXPIRY_CUE
    + r"(?:[ \t]*(?:은|는|이|가|:|=|is))?[^0-9\n]{0,8}?"
    + _EXPIRY_VALUE
)
# After its cue the expiry may lose its slash, as the card's face prints it without one:
# "유효기간 0828", "exp 1127", "유효 08 28" (MMYY; a year first, "2611", is no month).
_EXPIRY_MMYY = re.compile(
    r"(?<![A-Za-z])"
    + _EXPIRY_CUE
    + r"(?:[ \t]*(?:은|는|이|가|:|=|is))?[^0-9\n]{0,8}?"
    + r"(?<![0-9/.\-])(?P<value>(?:0[1-9]|1[0-2]) ?[0-9]{2})(?![0-9]|[/.\-][0-9])"
)
_EXPIRY_BEFORE_CUE = re.compile(_EXPIRY_VALUE + r"[ \t]*(?:에|까지|이|로)?[ \t]*" + _EXPIRY_CUE)
# Things other than a card that expire: their dates stay.
_OTHER_EXPIRY = re.compile(
    r"(?i)여권|passport|면허|licen[cs]e|신분증|비자 ?(?:만료|유효)|멤버십|membership|쿠폰|coupon|"
    r"보증|warranty|계약|contract|도메인|domain|인증서|certificate|구독|subscription|포인트|points?"
)
# An expiry written right after the card number, without a cue: "4111 ... 1111 12/26 123".
_EXPIRY_AFTER_NUMBER = re.compile(
    r"[ \t,/|]{1,3}(?P<value>(?:0[1-9]|1[0-2]) ?/ ?(?:20)?[0-9]{2})(?![0-9]|[/.\-][0-9])"
)


def _card_detail_spans(
    text: str, *, card_found: bool, card_ends: tuple[int, ...] = ()
) -> Iterator[Span]:
    if not card_found and not mentions(text, _CARD_DETAIL_NEEDLES):
        return
    codes = [
        (m.start("value"), m.end("value"), CARD_CODE)
        for m in _CVC.finditer(text)
        if m.group("name").isascii()
        or card_found
        or _near(_CARD_CONTEXT, text, m.start(), m.end(), before=60, after=60)
    ]
    yield from codes
    # The expiry date counts only beside the card's number or code: alone it opens nothing,
    # and people ask about it ("유효기간 11/27 인데 해외결제 되나요?"); with them it completes
    # what a thief needs.
    if not (card_found or codes):
        return
    for pattern in (_EXPIRY, _EXPIRY_MMYY, _EXPIRY_BEFORE_CUE):
        for match in pattern.finditer(text):
            if _OTHER_EXPIRY.search(text, max(0, match.start() - 12), match.start() + 1):
                continue  # "여권 만료일 2031년 3월": another document's date
            yield match.start("value"), match.end("value"), CARD_EXPIRY
            # the code written after the expiry: "exp 11/26 code 093", "유효기간 08/29 코드 771"
            yield from _beside_number(text, match.end())
    for end in card_ends:
        yield from _beside_number(text, end)


# An amount or a term right after a number: "120 만원", "250 dollars", "3개월 할부".
_AMOUNT_AFTER = (
    r" ?(?:원|만 ?원|천 ?원|달러|개월|년|%|할부|포인트|마일|"
    r"(?i:won|usd|krw|dollars?|points?|miles?))"
)


# The card's code right after its number or its expiry, without a cue:
# "3530 1113 3330 0000 / 05/30 / 481", "4111 ... 1111 12/26 123", "... / 481 / 05/30".
# "... exp 11/26 code 093", "... 코드 512": a bare "code" there names the card's code.
_CODE_AFTER_NUMBER = re.compile(
    r"[ \t,/|]{1,3}(?:(?:(?i:code)|코드)(?:[ \t]*(?:[:=]|은|는|(?i:is)))?[ \t]*)?"
    r"(?P<value>[0-9]{3,4})(?![0-9]|[/.\-:, ][0-9])(?!" + _AMOUNT_AFTER + r")"
)


# An expiry without its slash, before the code: "4532... / 1226 / 123".
_MMYY_BEFORE_CODE = re.compile(
    r"[ \t,/|]{1,3}(?P<value>(?:0[1-9]|1[0-2])[0-9]{2})(?=[ \t,/|]{1,3}[0-9]{3,4}(?![0-9/.\-]))"
)


def _beside_number(text: str, end: int) -> Iterator[Span]:
    """The expiry and the code written right after a card number ending at `end`, in either
    order. A price, a count or a date after the number ("/ 3개월 할부", "/ 2025/09/27") stays."""
    found: set[str] = set()
    for _ in range(2):
        expiry = (
            None
            if CARD_EXPIRY in found
            else _EXPIRY_AFTER_NUMBER.match(text, end) or _MMYY_BEFORE_CODE.match(text, end)
        )
        code = None if CARD_CODE in found else _CODE_AFTER_NUMBER.match(text, end)
        beside, kind = (expiry, CARD_EXPIRY) if expiry else (code, CARD_CODE)
        if beside is None:
            return
        found.add(kind)
        yield beside.start("value"), beside.end("value"), kind
        end = beside.end()


_RRN = re.compile(r"(?<![0-9])(?P<front>[0-9]{6})[ \-]?(?P<back>[0-9]{7})(?![0-9])")
_RRN_WEIGHTS = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_NOT_RRN_CUE = re.compile(r"(?i)주문|예약|송장|운송장|등기|order|invoice|tracking|사업자")


def _rrn_shaped(digits: str) -> bool:
    """13 digits that open with a real birth date and a known 7th digit."""
    if len(digits) != 13 or not digits.isdigit():
        return False
    month, day = int(digits[2:4]), int(digits[4:6])
    return 1 <= month <= 12 and 1 <= day <= _DAYS[month - 1] and digits[6] != "0"


def rrn_valid(digits: str) -> bool:
    """A 13-digit 주민등록번호 with a real birth date, a known 7th digit and its check digit."""
    if not _rrn_shaped(digits):
        return False
    total = sum(int(d) * w for d, w in zip(digits[:12], _RRN_WEIGHTS, strict=True))
    return (11 - total % 11) % 10 == int(digits[12])


# A 주민등록번호 stated in halves: "주민번호 앞자리는 ... 뒷자리는 ...", "RRN first six digits ...".
_RRN_NAMED = r"(?i)(?:주민 ?(?:등록)? ?번호|resident (?:registration )?number|RRN)[^\n]{0,24}?"
# words may come between the half's name and its digits: "뒷자리만 불러달래서 1282577"
_RRN_HALF_END = r"[^0-9\n]{0,16}?(?<![0-9])"
_RRN_FRONT = re.compile(
    _RRN_NAMED
    + r"(?:앞 ?(?:6 ?)?자리|앞 ?번호|(?:first|front) (?:six|6) digits|front (?:half|part))"
    + _RRN_HALF_END
    + r"(?P<value>[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01]))(?![0-9])"
)
_RRN_BACK = re.compile(
    _RRN_NAMED + r"(?:(?:뒷|뒤) ?(?:7 ?)?자리|뒷 ?번호|(?:last|back) (?:seven|7) digits|"
    r"(?:back|second) (?:half|part))" + _RRN_HALF_END + r"(?P<value>[1-8][0-9]{6})(?![0-9])"
)


# Numbers issued since October 2020 carry no check digit: one stated as a 주민등록번호 is one.
_RRN_CUE = re.compile(
    r"(?i)주민|외국인 ?등록|resident (?:registration )?(?:number|no)|(?<![A-Za-z])RRN(?![A-Za-z])"
)


# A US Social Security number stated as one: "my social is 123-45-6789", "SSN 123456789".
# It is the same kind of secret as a 주민등록번호 (a national id), and shares its kind.
_SSN = re.compile(
    r"(?<![0-9\-])(?P<area>[0-9]{3})([ \-]?)(?P<group>[0-9]{2})\2(?P<serial>[0-9]{4})(?![0-9\-])"
)
# the cue right before the number: "social club dues 150-25-3000" is no SSN
_SSN_CUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:ssn|social(?: security)?|사회 ?보장 ?번호)"
    r"(?:[ \t]+(?:is|was|number|no\.?|#))*(?:은|는|이|가)?[ \t]*[:#=]?[ \t]*$"
)
_SSN_NEEDLES = ("ssn", "social", "사회")


def _labelled_otherwise(text: str, start: int) -> bool:
    """A number whose nearest label before it is another kind ("주문번호 880512-1234567 ...
    주민번호 모양이라"): a 주민등록번호 mentioned elsewhere on the line does not name it."""
    line_start = text.rfind("\n", 0, start) + 1
    window = text[max(line_start, start - 24) : start]
    other = [m.end() for m in _NOT_RRN_CUE.finditer(window)]
    named = [m.end() for m in _RRN_CUE.finditer(window)]
    return bool(other) and (not named or other[-1] > named[-1])


def _rrn_spans(text: str) -> Iterator[Span]:
    for match in _RRN.finditer(text):
        digits = match.group("front") + match.group("back")
        start = match.start()
        if (rrn_valid(digits) and not _near(_NOT_RRN_CUE, text, start, start, before=16)) or (
            _rrn_shaped(digits)
            and _near(_RRN_CUE, text, start, start, before=24)
            and not _labelled_otherwise(text, start)
        ):
            yield match.start(), match.end(), RESIDENT_NUMBER
    for match in _SSN.finditer(text) if mentions(text, _SSN_NEEDLES) else ():
        area, group, serial = match.group("area", "group", "serial")
        if area in {"000", "666"} or area[0] == "9" or group == "00" or serial == "0000":
            continue
        if _SSN_CUE.search(text, max(0, match.start() - 40), match.start()):
            yield match.start(), match.end(), RESIDENT_NUMBER
    for match in (*_RRN_FRONT.finditer(text), *_RRN_BACK.finditer(text)):
        value = match.group("value")
        if len(value) == 7 or int(value[4:6]) <= _DAYS[int(value[2:4]) - 1]:
            yield match.start("value"), match.end("value"), RESIDENT_NUMBER


_ACCOUNT_CUE = re.compile(
    r"(?i)(?:계좌|통장|입금|송금|이체|은행|뱅크|신한|농협|카뱅|새마을금고|수협|"
    r"우체국(?! ?(?:택배|소포|등기|우편))|"
    r"account ?(?:number|no\.?|num|#)|acct\.? ?(?:no\.?|#)?|bank|"
    r"(?<![A-Za-z])(?:account|checking|savings):? (?=[0-9])|"
    # a routing number is given only with the account it routes to
    r"(?<![A-Za-z])routing(?![A-Za-z])|"
    r"checking account|savings account|bank account|routing and account)"
)
_ACCOUNT_NUMBER = re.compile(r"(?<![0-9\-])[0-9]{2,16}(?:[ \-][0-9]{2,8}){0,4}(?![0-9])")
_PHONE = re.compile(
    r"^(?:0[1-9][0-9]?[ \-]?[0-9]{3,4}[ \-]?[0-9]{4}|1[5-9][0-9]{2}[ \-][0-9]{4}"
    r"|82[ \-]?1[0-9][ \-]?[0-9]{3,4}[ \-]?[0-9]{4})$"
)
_IBAN = re.compile(
    r"(?<![A-Z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Z0-9])"
)


def _iban_valid(iban: str) -> bool:
    compact = iban.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


# Numbers named as public ones right before them: a business registration number, a tax id of a
# company, an order or tracking number.
_PUBLIC_NUMBER = re.compile(
    r"(?i)(?:사업자(?:\s*등록)?\s*번호|사업자|법인\s*번호|주문\s*번호|송장\s*번호|운송장|"
    r"등기\s*번호|등기|택배\s*번호|"
    r"business\s+(?:registration|reg\.?)\s*(?:no\.?|number)|order\s*(?:no\.?|number|#)|"
    r"tracking\s*(?:no\.?|number|#)?|"
    # a bank's own code, printed on every cheque: routing (ABA) number, sort code, SWIFT/BIC
    r"(?:routing|aba|transit)\s*(?:no\.?|number|#)?|sort\s*code|swift(?:\s*code)?|bic)"
    r"\s*[:#]?\s*$"
)


def _account_spans(text: str) -> Iterator[Span]:
    # The cue comes before the number (a bank's name or "is" may come between) or just
    # after it ("... 여기로 보내 계좌번호야").
    if _ACCOUNT_CUE.search(text):
        for match in _ACCOUNT_NUMBER.finditer(text):
            number = match.group(0)
            digits = re.sub(r"[^0-9]", "", number)
            if not 8 <= len(digits) <= 16 or _PHONE.match(number):
                continue
            if _PUBLIC_NUMBER.search(text[max(0, match.start() - 24) : match.start()]):
                continue  # "사업자번호 214-86-33019": a number published on every receipt
            if _near(_ACCOUNT_CUE, text, match.start(), match.end(), before=40, after=24):
                yield match.start(), match.end(), BANK_ACCOUNT
    for match in _IBAN.finditer(text):
        if _iban_valid(match.group(0)):
            yield match.start(), match.end(), BANK_ACCOUNT


_CODE_CUE = re.compile(
    r"(?i)(?:인증 ?번호|인증 ?코드|확인 ?코드|확인 ?번호|승인 ?번호|보안 ?(?:번호|코드)|"
    r"(?:백업|복구) ?코드|(?:backup|recovery) ?codes?|otp|로그인 ?(?:코드|번호)|"
    r"일회용 ?(?:비밀 ?)?(?:코드|번호)|"
    # a code that came by text: "간편인증 문자로 ...", "login text said ..."
    r"(?:간편|본인|휴대폰|휴대전화|문자|카톡|카카오톡?) ?인증(?: ?(?:문자|메시지|메세지|톡|알림))?|"
    r"인증 ?(?:문자|메시지|메세지|톡|알림)|(?:verification|login|sign-in|security) (?:text|sms)|"
    r"one[\s\-]?time ?(?:pass)?(?:code|password|pin)|verification ?code|confirmation ?code|"
    r"security ?code|(?:login|sign-?in) ?code|auth(?:entication)? ?code|"
    r"2fa(?: ?code)?|mfa(?: ?code)?|"
    r"sms ?code|(?<![A-Za-z])code(?: (?:from|for|in|on) (?:the |my |your )?[A-Za-z]+)?"
    r"(?: ?(?:is|was|:|=))?)"
)
# "zip code 94110", "error code 5003": codes that are not one-time codes.
_NOT_A_CODE = re.compile(
    r"(?i)(?:zip|postal|post|area|country|error|status|promo|discount|coupon|product|source|"
    r"qr|bar|exit|dress|country|language|airport|class|item|referral|invite|gift|"
    # door and gate codes are passwords (secret_passwords)
    r"door|gate|garage|alarm|lock|safe|locker|entry|keypad|building|sort|branch|bank|"
    # a PIN code is a password or a place's postal code (secret_passwords), never a one-time code
    r"pin) ?$"
)
# A code is a whole token: a part of a longer dashed number ("250301-4417260") is none.
_CODE = re.compile(
    r"(?<![0-9A-Za-z])(?<![0-9]-)(?P<value>"
    # a backup code of five-digit groups, "48213-90576" (a ZIP+4 "12345-6789" is 5-4)
    r"[0-9]{5}(?:([ \-])[0-9]{5}(?:\2[0-9]{5})?)|"
    r"[0-9]{3,4}(?:[ \-][0-9]{3,4}|-[0-9]{3,4}-[0-9]{3,4})|"
    r"[0-9]{4,8}|[A-Z]-[0-9]{4,8}|"
    # a backup code: groups of letters and digits, "8k2f-q91x-..."
    r"(?=[a-z0-9\-]*[0-9])(?=[a-z0-9\-]*[a-z])[a-z0-9]{4,5}(?:-[a-z0-9]{4,5}){1,3})"
    r"(?![0-9A-Za-z])(?![\-.][0-9])"  # nor a part of a dotted date, "2024.05.01"
)
# A code of capitals and digits, grouped or not: "K7P-29X", "7KD2XQ". Only after a cue that
# names a one-time code, in it or just before it ("Steam Guard code: ..."): a bare "code" may be
# a course or a product code, and a "confirmation code" of capitals a flight's booking reference.
_ONE_TIME_CUE = re.compile(
    r"(?i)인증|로그인|일회용|보안|otp|one[\s\-]?time|verification|verify|login|sign-?in|2fa|mfa|"
    r"sms|auth|guard|백업|복구|backup|recovery"
)
_LETTER_CODE = re.compile(
    r"(?<![0-9A-Za-z\-])(?P<value>(?=[A-Z0-9\-]*[0-9])(?=[A-Z0-9\-]*[A-Z])"
    r"(?:(?=[A-Z0-9\-]{6})[A-Z0-9]{2,5}(?:-[A-Z0-9]{2,5}){1,3}|[A-Z0-9]{5,8}))(?![0-9A-Za-z\-])"
)
# A code written in groups, to read it out or copy it: "4.8.2.9.1.7", "48 29 17", "4 8 2 - 9 1 7",
# "482.917". Two groups need three digits each ("12.30" is a time, "48 29" a pair of numbers);
# a group followed by a unit ("... 17 5분 안에") is none of the code.
_GROUPED_CODE = re.compile(
    r"(?<![0-9A-Za-z.\-])(?P<value>[0-9]{1,4}"
    r"(?:(?:[ \t]*[.\-·•][ \t]*|[ \t]{1,3})[0-9]{1,4}"
    r"(?![0-9]| ?(?:분|초|시간|번|회|자리|개|일|원|min|sec|digit|times|days)))+)"
    r"(?![0-9A-Za-z]|[.\-][0-9])"
)
# "2024.05.01", "2024 5 1": a date after the cue, not a code
_DATE_GROUPS = re.compile(r"(?:19|20)[0-9]{2}[ .\-·]+[01]?[0-9][ .\-·]+[0-3]?[0-9]")


def _short_date(value: str, groups: list[str]) -> bool:
    """ "12-05-24", "24.05.12": two digits three times, dashed or dotted, that read as a date
    (year, month and day in any common order)."""
    if " " in value or len(groups) != 3 or any(len(g) != 2 for g in groups):
        return False
    a, b, c = (int(g) for g in groups)

    def day_month(day: int, month: int) -> bool:
        return 1 <= month <= 12 and 1 <= day <= 31

    return day_month(c, b) or day_month(a, b) or day_month(b, a)


def _grouped_code(text: str, start: int, end: int, *, dotted: bool) -> re.Match[str] | None:
    """The first code in groups between `start` and `end`; with `dotted` False, only one
    grouped by spaces or hyphens (after a bare "code" a dotted number is a version)."""
    match = _GROUPED_CODE.search(text, start, end)
    if match is None or re.search(r"[0-9]", text[start : match.start()]):
        return None
    value = match.group("value")
    groups = re.findall(r"[0-9]+", value)
    digits = sum(len(g) for g in groups)
    if not 4 <= digits <= 8 or _DATE_GROUPS.fullmatch(value) or _short_date(value, groups):
        return None
    if len(groups) == 2 and min(len(g) for g in groups) < 3:
        return None
    if not dotted and re.search(r"[.·•]", value):
        return None
    return match


# A recovery code of letters only, in three groups or more: "ABCD-EFGH-IJKL" (after a cue that
# names backup or recovery codes; fewer groups may be a word pair, "READ-ONLY").
_LETTERS_CODE = re.compile(
    r"(?<![0-9A-Za-z\-])(?P<value>[A-Z]{4,5}(?:-[A-Z]{4,5}){2,4}|[a-z]{4,5}(?:-[a-z]{4,5}){2,4})"
    r"(?![0-9A-Za-z\-])"
)
_CUSTOMER_LINE = re.compile(r"1[5-9][0-9]{2}[ \-][0-9]{4}")
_UNIT_AFTER = re.compile(
    r" ?(?:분|초|시간|번|회|자|자리|개|일|원|년|개월|명|건|%|min|sec|digit|times|days)"
)


_CODE_NEEDLES = (
    "인증",
    "로그인",
    "일회용",
    "확인",
    "승인",
    "보안",
    "백업",
    "복구",
    "backup",
    "recovery",
    "otp",
    "time",
    "verif",
    "confirm",
    "security",
    "login",
    "auth",
    "2fa",
    "mfa",
    "sms",
    "code",
)


# "G-482910 is your Google verification code", "482913 이게 인증번호야": the code first.
_CODE_BEFORE_CUE = re.compile(
    r"(?i)(?<![0-9A-Za-z\-])(?P<value>[0-9]{4,8}|[0-9]{3} [0-9]{3}|[A-Z]-[0-9]{4,8}|"
    r"[0-9](?: [0-9]){3,9}+|[0-9](?:-[0-9]){3,9}+)"  # read out digit by digit: "5 8 2 7 1 4"
    r"(?![0-9A-Za-z\-])[ )\]]?"
    r"(?:is (?:your|the|my) (?:[A-Za-z]+ ){0,2}|(?:이|가|은|는|이게|이거|가 내)? ?)"
    r"(?:verification|one-time|(?:login|security|confirmation|sign-in|auth) code|2fa|otp|"
    r"인증|확인 ?(?:코드|번호))"
)


# "enter 551 903 when the app asks for the OTP": an instruction to type the code.
_CODE_TO_ENTER = re.compile(
    r"(?i)(?<![A-Za-z])(?:enter|type|input|use) (?P<value>[0-9]{4,8}|[0-9]{3} [0-9]{3})"
    r"(?![0-9A-Za-z\-])(?=[^\n]{0,40}(?:otp|verification|one-time|2fa|code))"
)


# The rest of a cue's line when it heads a list: "backup codes for 2FA:", "복구 코드 (10개):"
_HEADING_END = re.compile(r"[^\n0-9]{0,16}:[ \t]*")


_PHONE_AHEAD = re.compile(r"0[1-9][0-9]?([ \-.])[0-9]{3,4}\1[0-9]{4}(?![0-9])")


# Cues that head a list of codes, which may start on the next line with no label of its own.
_LIST_CUE = re.compile(r"(?i)(?:백업|복구) ?코드|(?:backup|recovery) ?codes?")
_BULLET = re.compile(r"[ \t]*(?:[-*•][ \t]+|[0-9]{1,2}[.)][ \t]+)?")


def _code_on_next_line(text: str, newline: int) -> re.Match[str] | None:
    """A code that is the whole of the first line after `newline` that is not blank (a bullet
    before it is fine): digits, or groups of letters and digits ("ABCD-EFGH")."""
    start = newline + 1
    while text.startswith("\n", start) or text[start : start + 1] in (" ", "\t"):
        if text.startswith("\n", start):
            newline = start
        start += 1
    line_end = text.find("\n", newline + 1)
    line_end = len(text) if line_end == -1 else line_end
    bullet = _BULLET.match(text, newline + 1, line_end)
    start = bullet.end() if bullet else newline + 1
    for pattern in (_CODE, _LETTER_CODE):
        code = pattern.match(text, start, line_end)
        if code is not None and not text[code.end() : line_end].strip():
            return code
    return None


def _code_spans(text: str) -> Iterator[Span]:
    if not mentions(text, _CODE_NEEDLES):
        return
    for match in _CODE_TO_ENTER.finditer(text):
        yield match.start("value"), match.end("value"), VERIFICATION_CODE
    for match in _CODE_BEFORE_CUE.finditer(text):
        yield match.start("value"), match.end("value"), VERIFICATION_CODE
    for cue in _CODE_CUE.finditer(text):
        if re.match(r"-[0-9A-Za-z]", text[cue.end() : cue.end() + 2]):
            continue  # "OTP-88-120394": the cue is part of a serial or model name
        bare_code = cue.group(0).lower().startswith("code")
        if bare_code and _NOT_A_CODE.search(text, max(0, cue.start() - 12), cue.start()):
            continue
        window_end = min(len(text), cue.end() + (16 if bare_code else 30))
        newline = text.find("\n", cue.end(), window_end)
        window_end = newline if newline != -1 else window_end
        if newline != -1 and _HEADING_END.fullmatch(text, cue.end(), newline):
            # "backup codes for 2FA:" heads a list on the next lines: read the first of them
            next_end = text.find("\n", newline + 1)
            window_end = min(len(text) if next_end == -1 else next_end, newline + 30)
        candidates = [*_CODE.finditer(text, cue.end(), window_end)]
        one_time = _ONE_TIME_CUE.search(text, max(0, cue.start() - 20), cue.end())
        if one_time:
            candidates += _LETTER_CODE.finditer(text, cue.end(), window_end)
        line_end = text.find("\n", cue.end())
        line_end = len(text) if line_end == -1 else line_end
        spelled = spelled_digits(text, cue.end(), line_end, within=window_end - cue.end())
        if spelled:
            candidates.append(spelled)
        if _LIST_CUE.match(cue.group(0)):
            candidates += _LETTERS_CODE.finditer(text, cue.end(), window_end)
        grouped = _grouped_code(text, cue.end(), window_end, dotted=not bare_code or bool(one_time))
        if grouped:
            candidates.append(grouped)
        found = False
        for match in sorted(candidates, key=lambda m: (m.start(), -m.end())):
            if _UNIT_AFTER.match(text, match.end()) or _CUSTOMER_LINE.fullmatch(match.group(0)):
                continue
            if _PHONE_AHEAD.match(text, match.start()):
                break  # "인증번호 오면 010 2345 6789 로 보내줘": where to send it
            yield match.start("value"), match.end("value"), VERIFICATION_CODE
            if match is not spelled and match is not grouped:
                yield from _listed_codes(text, match.group("value"), match.end())
            found = True
            break
        if not found and newline != -1 and _LIST_CUE.match(cue.group(0)):
            # "구글 백업코드 저장해둠" and the codes one to a line below it
            first = _code_on_next_line(text, newline)
            if first:
                yield first.start("value"), first.end("value"), VERIFICATION_CODE
                yield from _listed_codes(text, first.group("value"), first.end(), heading=True)


# Codes given as a list after one cue ("backup codes: 8f3k-2m9q, 7xw1-p4ld ..."): each item
# has the first one's shape and only separators come between them.
_LIST_GAP = re.compile(
    r"[ \t]*(?:[,;/|·][ \t]*|\n[ \t]*(?:[-*•][ \t]+|[0-9]{1,2}[.)][ \t]+)?)|[ \t]+"
)
_LIST_ITEM = re.compile(r"[0-9A-Za-z]+(?:[ \-][0-9A-Za-z]+){0,3}")


def _code_shape(value: str) -> str:
    """ "8f3k-2m9q" -> "xxxx-xxxx", "4829 1037" -> "9999 9999": the grouping and, for digits
    only, that every character is a digit."""
    digits_only = value.replace("-", "").replace(" ", "").isdigit()
    return re.sub(r"[0-9A-Za-z]", "9" if digits_only else "x", value)


def _listed_codes(text: str, first: str, end: int, *, heading: bool = False) -> Iterator[Span]:
    shape = _code_shape(first)
    letters_only = not any(c.isdigit() for c in first)  # "ABCD-EFGH-IJKL, MNOP-QRST-UVWX"
    plain = "-" not in shape and " " not in shape and not any(c.isalpha() for c in first)
    if plain and not heading:
        return  # a plain number: "인증번호 482913, 10분 안에" lists nothing (under a heading
        # of backup codes, one to a line, it is the first of them)
    while gap := _LIST_GAP.match(text, end):
        item = _LIST_ITEM.match(text, gap.end())
        if item is None:
            return
        value = item.group(0)[: len(first)]
        if _code_shape(value) != shape or not (_code_like(value) or letters_only):
            return
        after = gap.end() + len(value)
        if after < len(text) and (text[after].isalnum() or text[after] == "-"):
            return
        yield gap.end(), after, VERIFICATION_CODE
        end = after


def _code_like(value: str) -> bool:
    letters = sum(c.isalpha() for c in value)
    return letters == 0 or sum(c.isdigit() for c in value) > 0


# A few digits stated by their count: "비번 앞2자리 46", "카드 앞면 네자리 5291". They count only
# when the count is the value's length, after a password's name or on a card's face (the last
# digits of a card are printed on every receipt, the first name its issuer: both stay).
_COUNTED = re.compile(
    r"(?P<count>[1-6]|두|세|네|다섯|여섯) ?자리(?:는|은|가|만|:)?[ \t]*"
    r"(?P<value>[0-9]{2,6})(?![0-9])"
)
_COUNTS = {"두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "two": 2, "three": 3, "four": 4}
# "the first two digits of my PIN are 46"
_COUNTED_EN = re.compile(
    r"(?i)(?<![A-Za-z])(?:first|last) (?P<count>two|three|four|[2-4]) (?:digits|numbers) of "
    r"(?:my|the|your|our) (?:[A-Za-z]+ )?(?:pin|password|passcode)"
    r"(?: (?:is|are|were|was))?:? (?P<value>[0-9]{2,4})(?![0-9])"
)
_PIN_CUE = re.compile(r"(?i)비번|비밀 ?번호|핀 ?번호|(?<![A-Za-z])(?:pin|password|passcode)")
# The code printed on a card's face (Amex's four digits): "앞면에 있는 네자리", not "앞 네 자리"
# (the number's first digits, which name only the issuer).
_CARD_FACE = re.compile(r"(?i)앞면|앞에 ?있는|앞쪽에 ?있는|on the front")
# The code printed on a card's back: "뒷면 세자리 802", "뒤에 세자리". A plain "뒤 네자리" is
# the number's last four, printed on every receipt: it stays.
_CARD_BACK = re.compile(r"뒷 ?면|뒤 ?쪽|뒤에 ?있는|뒤에 ?적힌|뒤에 ?찍힌")
_CARD_BACK_PLAIN = re.compile(r"뒤(?:에)? ?$")
# "the 3 digits on the back are 802", "back of the card: 802"
_CARD_BACK_EN = re.compile(
    r"(?i)(?<![A-Za-z])(?:(?:three|four|[34])[ \-]digits? on the back(?: of (?:the|my|your) card)?|"
    r"back of (?:the|my|your) card)(?: (?:is|are|says|reads))?[ \t]*:?[ \t]*"
    r"(?P<value>[0-9]{3,4})(?![0-9])"
)


def _fragment_spans(text: str, *, card_found: bool) -> Iterator[Span]:
    for match in _COUNTED_EN.finditer(text) if mentions(text, ("digits", "numbers")) else ():
        count = match.group("count").lower()
        if _COUNTS.get(count, int(count) if count.isdigit() else 0) == len(match.group("value")):
            yield match.start("value"), match.end("value"), PASSWORD
    for match in _COUNTED.finditer(text) if "자리" in text else ():
        count = match.group("count")
        if _COUNTS.get(count, int(count) if count.isdigit() else 0) != len(match.group("value")):
            continue
        if _near(_PIN_CUE, text, match.start(), match.start(), before=16, after=0):
            yield match.start("value"), match.end("value"), PASSWORD
            continue
        card = card_found or _near(_CARD_CUE, text, match.start(), match.start(), after=0)
        on_card = _CARD_FACE.search(text, max(0, match.start() - 16), match.start()) or _card_back(
            text, match.start(), len(match.group("value"))
        )
        if card and on_card:
            yield match.start("value"), match.end("value"), CARD_CODE
    if card_found or mentions(text, ("card",)):
        for match in _CARD_BACK_EN.finditer(text) if "back" in text.lower() else ():
            yield match.start("value"), match.end("value"), CARD_CODE


def _card_back(text: str, start: int, length: int) -> bool:
    """True when the counted digits at `start` are read off the card's back."""
    before = text[max(0, start - 16) : start]
    if _CARD_BACK.search(before):
        return True
    return length == 3 and bool(_CARD_BACK_PLAIN.search(before))


def number_spans(text: str, *, card_placeholder: bool = False) -> list[Span]:
    """Card numbers with their CVC and expiry, 주민등록번호, bank accounts, one-time codes."""
    spans = list(_card_spans(text))
    card_found = bool(spans) or card_placeholder
    card_ends = tuple(end for _, end, _ in spans)
    spans += _card_detail_spans(text, card_found=card_found, card_ends=card_ends)
    spans += _rrn_spans(text)
    spans += _account_spans(text)
    spans += _code_spans(text)
    spans += _fragment_spans(text, card_found=card_found)
    return spans


def shape_spans(text: str) -> list[Span]:
    """Vendor keys, private keys, tokens, and values assigned to secret-named keys."""
    return [*_shape_spans(text), *_assignment_spans(text)]
