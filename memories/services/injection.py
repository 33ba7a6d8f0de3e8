"""Prompt-injection detection for memory candidates: pure functions, no Django.

A memory is data about the user. Text that reads as instructions *to the assistant* (override
its instructions, reveal its prompt, switch to a jailbreak persona, run or send something) is
an attack stored for later, the "저장된 프롬프트 인젝션" of seed 003: such a candidate is
quarantined, never made an active procedure. Instructions the user gives about their own
answers ("앞으로 답변은 짧게 해줘", "I prefer you ignore typos") are preferences and pass.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class InjectionFinding:
    kind: str
    reason: str


_ZERO_WIDTH = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\u00ad]")

_OVERRIDE = "override"
_REVEAL = "reveal"
_PERSONA = "persona"
_DIRECTIVE = "directive"
_TOOL = "tool"
_EXFILTRATION = "exfiltration"
_MARKUP = "markup"

REASONS = {
    _OVERRIDE: "tries to override the assistant's instructions",
    _REVEAL: "asks the assistant to reveal its system prompt or instructions",
    _PERSONA: "tries to switch the assistant into an unrestricted persona (jailbreak)",
    _DIRECTIVE: "gives the assistant standing orders to obey, hide or never refuse",
    _TOOL: "tells the assistant to run destructive commands or tools",
    _EXFILTRATION: "tells the assistant to send data somewhere",
    _MARKUP: "imitates system or role markup to pose as instructions",
}

_EN_TARGETS = (
    r"(?:instructions?|prompts?|rules?|directions?|guidelines?|commands?|context|guardrails?|"
    r"polic(?:y|ies)|constraints?|restrictions?|programming|directives?|orders)"
)
_EN_DETERMINERS = (
    r"(?:previous|prior|above|earlier|preceding|all|any|your|system|original|initial|"
    r"developer|existing|those|these|every|former)"
)

# (kind, pattern), matched against NFKC-normalised, lower-cased text.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # --- override -------------------------------------------------------------------------
    (
        _OVERRIDE,
        re.compile(
            r"\b(?:ignore|disregard|forget|override|bypass|discard|abandon|drop)\b[^.\n]{0,40}?\b"
            + _EN_DETERMINERS
            + r"\b[^.\n]{0,30}?\b"
            + _EN_TARGETS
            + r"\b"
        ),
    ),
    (
        _OVERRIDE,
        re.compile(
            r"\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:above|"
            r"everything\s+(?:above|before|you\s+(?:were|have\s+been|'ve\s+been)\s+told)|"
            r"what\s+(?:was|you\s+were|you've\s+been)\s+(?:said|told))"
        ),
    ),
    (_OVERRIDE, re.compile(r"\bdo\s+not\s+follow\s+(?:your|the|any)\s+" + _EN_TARGETS)),
    (
        _OVERRIDE,
        re.compile(
            r"(?:이전|앞의|앞선|위의|위에서\s*말한|기존의?|모든|지금까지의?|원래의?|시스템|"
            r"개발자의?|너의?|당신의?)\s*(?:의\s*)?"
            r"(?:지시|지시\s*사항|지침|명령|명령어|규칙|프롬프트|설정|제약|안내|가이드라인|룰)"
            r"[가-힣]{0,2}\s*(?:을|를|은|는|들은|들을|이랑)?\s*(?:모두|전부|다|싹|전부\s*다)?\s*"
            r"(?:무시|잊어|잊고|잊으|무효|따르지\s*마|따르지\s*말|지워|취소|폐기|해제|버려)"
        ),
    ),
    (
        _OVERRIDE,
        re.compile(
            r"(?:위|앞|이전)(?:의|에)?\s*(?:내용|말|것|대화)\s*(?:은|을|는|를|들은)?\s*"
            r"(?:모두|전부|다)?\s*무시"
        ),
    ),
    # --- reveal -----------------------------------------------------------------------------
    (
        _REVEAL,
        re.compile(
            r"\b(?:reveal|show|print|display|output|repeat|tell|give|leak|dump|share|expose|"
            r"recite|write\s+out|copy)\b[^.\n]{0,30}?\b(?:system|hidden|secret|initial|original|"
            r"developer|internal|full|exact)\s+(?:prompt|instructions?|message|rules|"
            r"configuration)"
        ),
    ),
    (
        _REVEAL,
        re.compile(
            r"\b(?:repeat|print|output)\s+(?:all\s+)?(?:the\s+)?(?:words|text|everything|"
            r"lines)\s+(?:above|before)"
        ),
    ),
    (
        _REVEAL,
        re.compile(r"\bwhat\s+(?:were|are)\s+your\s+(?:initial\s+|original\s+)?instructions\b"),
    ),
    (
        _REVEAL,
        re.compile(
            r"(?:시스템|숨겨진|내부|초기|원래|개발자)\s*(?:의\s*)?(?:프롬프트|지시|지침|설정|명령)"
            r"[가-힣]{0,2}\s*(?:을|를|도)?\s*(?:전부|모두|그대로|전체)?\s*"
            r"(?:보여|알려|출력|공개|말해|누설|복사|보내|읊어|적어)"
        ),
    ),
    (
        _REVEAL,
        re.compile(r"프롬프트\s*(?:를|을)?\s*(?:그대로|전부|전체)\s*(?:출력|보여|공개|알려|말해)"),
    ),
    # --- persona / jailbreak ----------------------------------------------------------------
    (
        _PERSONA,
        re.compile(
            r"\byou\s+are\s+(?:now\s+|no\s+longer\s+[^.\n]{0,20}?\s+but\s+)?(?:dan|"
            r"an?\s+(?:unrestricted|unfiltered|uncensored|evil|jailbroken|rogue|amoral))\b"
        ),
    ),
    (_PERSONA, re.compile(r"\bdo\s+anything\s+now\b|\bjailbr(?:eak|oken|eaking)\b")),
    (
        _PERSONA,
        re.compile(
            r"\b(?:enable|enter|activate|switch\s+to|you\s+are\s+in|you're\s+in|now\s+in)\s+"
            r"(?:developer|god|dan|jailbreak|unrestricted|sudo|admin)\s+mode\b"
        ),
    ),
    (_PERSONA, re.compile(r"\b(?:developer|dan|god)\s+mode\s+(?:enabled|on|activated)\b")),
    (
        _PERSONA,
        re.compile(
            r"\b(?:pretend|act|behave|roleplay|role-play|imagine)\b[^.\n]{0,40}?\b(?:no|without|"
            r"free\s+of|free\s+from)\s+(?:any\s+)?(?:restrictions?|rules|filters?|limits|"
            r"limitations|guidelines|censorship|ethics|morals|safety)\b"
        ),
    ),
    (
        _PERSONA,
        re.compile(
            r"\byou\s+(?:have|has)\s+(?:no|zero)\s+(?:restrictions|rules|limits|filters|"
            r"guidelines|content\s+policy)\b"
        ),
    ),
    (_PERSONA, re.compile(r"\b(?:unfiltered|uncensored)\s+(?:ai|assistant|mode|model|version)\b")),
    (_PERSONA, re.compile(r"탈옥")),
    (
        _PERSONA,
        re.compile(
            r"(?:제한|검열|필터|규칙|윤리|제약)\s*(?:이|가|을|를|도)?\s*(?:전혀\s*)?"
            r"(?:없는|없이|해제|풀린|풀어|무시하는)\s*(?:ai|인공지능|챗봇|어시스턴트|모드|상태|"
            r"버전|역할|캐릭터|너)"
        ),
    ),
    (
        _PERSONA,
        re.compile(r"(?:개발자|관리자|갓|dan)\s*모드\s*(?:를|을|로)?\s*(?:켜|활성|전환|진입|시작)"),
    ),
    (
        _PERSONA,
        re.compile(r"너는\s*이제(?:부터)?\s*[^.\n]{0,25}?(?:제한|검열|규칙|필터)[^.\n]{0,6}없"),
    ),
    # --- standing orders to the assistant ---------------------------------------------------
    (
        _DIRECTIVE,
        re.compile(
            r"\bfrom\s+now\s+on\b[^.\n]{0,40}?\byou\s+(?:must|will|shall|are\s+to|should)\s+"
            r"(?:always\s+)?(?:obey|comply|ignore|disregard|reveal|never\s+refuse|not\s+refuse|"
            r"only\s+(?:listen|obey|follow))"
        ),
    ),
    (_DIRECTIVE, re.compile(r"\b(?:always|must|will|you\s+shall)\s+(?:obey|comply\s+with)\b")),
    (_DIRECTIVE, re.compile(r"\bnever\s+refuse\b|\bdo\s+not\s+refuse\s+any\b")),
    (
        _DIRECTIVE,
        re.compile(
            r"\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|warn|"
            r"let)\s+(?:the\s+)?user\b"
        ),
    ),
    (
        _DIRECTIVE,
        re.compile(
            r"\bfollow\s+(?:any|all|the)\s+(?:instructions|commands)\s+(?:in|from|inside|found\s+"
            r"in)\s+(?:this|the|these|retrieved|stored|any)\b"
        ),
    ),
    (
        _DIRECTIVE,
        re.compile(
            r"(?:사용자|유저|주인)(?:에게|한테|에겐)\s*(?:절대\s*)?(?:알리지|말하지|숨기|들키지)"
        ),
    ),
    (_DIRECTIVE, re.compile(r"(?:무조건|반드시|항상)\s*(?:복종|나한테만\s*복종|명령에\s*따라)")),
    (
        _DIRECTIVE,
        re.compile(
            r"(?:어떤|모든)\s*(?:요청|질문|명령)(?:에|을|를|도)?\s*(?:절대\s*)?(?:거절|거부)\s*하지\s*(?:마|말|않)"
        ),
    ),
    (
        _DIRECTIVE,
        re.compile(
            r"(?:기억|메모리|문서|검색\s*결과)(?:의|에\s*있는|속|안의)\s*(?:지시|명령)\w*\s*(?:을|를)?\s*(?:그대로\s*)?(?:따라|실행|수행)"
        ),
    ),
    # --- tools ------------------------------------------------------------------------------
    (_TOOL, re.compile(r"\brm\s+-(?:rf|fr|r)\b|\bmkfs\b|\bdd\s+if=|:\(\)\s*\{\s*:\|:&\s*\};:")),
    (_TOOL, re.compile(r"\b(?:curl|wget)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|k)?sh\b")),
    (_TOOL, re.compile(r"\bdrop\s+(?:table|database|schema)\b|\btruncate\s+table\b")),
    (
        _TOOL,
        re.compile(
            r"\bexecute\s+(?:the\s+)?following\b|\brun\s+(?:the\s+)?following\s+(?:shell|bash|command|code|script)"
        ),
    ),
    (
        _TOOL,
        re.compile(
            r"\b(?:call|invoke|use|trigger)\s+(?:the\s+)?[\w\-]+\s+tool\b[^.\n]{0,40}?\b(?:delete|"
            r"drop|send|transfer|email|post|upload|wipe|erase|purchase|pay)\b"
        ),
    ),
    (
        _TOOL,
        re.compile(
            r"\b(?:delete|drop|wipe|erase|destroy|remove)\s+(?:all|every|the\s+entire|everything"
            r"\s+in)\s+(?:the\s+|my\s+|of\s+the\s+)?(?:files|data|database|tables|memories|"
            r"records|repos?|repositories|emails|backups)\b"
        ),
    ),
    (_TOOL, re.compile(r"\btransfer\b[^.\n]{0,30}?(?:money|funds|\$|usd|btc|bitcoin|eth)")),
    (
        _TOOL,
        re.compile(
            r"(?:다음|아래|이)\s*(?:명령어?|코드|스크립트|셸|쉘)\s*(?:를|을)?\s*(?:즉시|바로|몰래)?\s*(?:실행|수행)"
        ),
    ),
    (
        _TOOL,
        re.compile(
            r"(?:모든|전체|전부)\s*(?:파일|데이터|기억|메모리|데이터베이스|db|기록|백업)\s*(?:를|을)?"
            r"\s*(?:다\s*|전부\s*)?(?:삭제|지워|지우|날려|초기화|포맷)"
        ),
    ),
    (_TOOL, re.compile(r"(?:송금|이체|결제)\s*(?:해|하라|할\s*것)")),
    # --- exfiltration -----------------------------------------------------------------------
    (
        _EXFILTRATION,
        re.compile(
            r"\b(?:send|email|e-mail|post|upload|forward|exfiltrate|transmit|leak)\b[^.\n]{0,40}?"
            r"\b(?:passwords?|api\s+keys?|credentials|tokens?|secrets?|system\s+prompt|"
            r"conversations?|chat\s+history|memories|personal\s+data|user\s+data|"
            r"everything)\b[^.\n]{0,40}?\b(?:to|at)\b"
        ),
    ),
    (_EXFILTRATION, re.compile(r"!\[[^\]]*\]\(https?://[^)\s]*\?[^)\s]*=")),
    (
        _EXFILTRATION,
        re.compile(
            r"(?:비밀\s*번호|비번|api\s*키|토큰|대화\s*내용|대화\s*기록|개인\s*정보|시스템\s*프롬프트|"
            r"기억|메모리|데이터)\w*\s*(?:를|을|도)?\s*[^.\n]{0,30}?(?:https?://\S+|\S+@\S+|서버|주소)"
            r"\s*(?:으로|로|에|에게|한테)?\s*(?:보내|전송|유출|업로드|포스트|공유)"
        ),
    ),
    # --- markup -----------------------------------------------------------------------------
    (
        _MARKUP,
        re.compile(
            r"<\|?\s*/?\s*(?:system|im_start|im_end|instructions?|sys)\s*\|?>|\[/?(?:system|inst)\]"
            r"|^\s*#{2,}\s*(?:system|instruction)|(?:^|\n)\s*(?:system|assistant)\s*:\s*\S"
        ),
    ),
    (
        _MARKUP,
        re.compile(
            r"\b(?:new|updated|real|actual|true|additional)\s+(?:system\s+)?instructions?\s*:"
        ),
    ),
    (
        _MARKUP,
        re.compile(r"(?:새로운|새|진짜|추가)\s*(?:시스템\s*)?(?:지시|지침|명령)\s*(?:사항)?\s*:"),
    ),
]


def normalise(text: str) -> str:
    """Fold the tricks that hide words from a pattern: width, zero-width marks, case, spaces."""
    folded = unicodedata.normalize("NFKC", text)
    folded = _ZERO_WIDTH.sub("", folded).lower()
    folded = folded.replace("’", "'").replace("‘", "'")
    return re.sub(r"[ \t\r\f\v]+", " ", folded)


def detect(text: str) -> InjectionFinding | None:
    """The first injection pattern `text` matches, or None."""
    folded = normalise(text)
    for kind, pattern in _PATTERNS:
        if pattern.search(folded):
            return InjectionFinding(kind=kind, reason=REASONS[kind])
    return None


def is_injection(text: str) -> bool:
    return detect(text) is not None
