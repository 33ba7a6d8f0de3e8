"""The cues of each question about the user, as patterns over the folded text."""

from __future__ import annotations

import re

from memories.logic.slots.vocab import EN_JOBS

EN_OTHER_SUBJECT = re.compile(
    r"^(?:and\s+|also\s+|oh\s+)?(?:(?:my|our)\s+(?:\w+\s+)?(?:wife|husband|partner|girlfriend|"
    r"boyfriend|son|daughter|kids?|children|mom|mum|mother|dad|father|parents|brother|sister|"
    r"friend|friends|colleague|coworker|co-worker|boss|manager|roommate|family|cousin|uncle|aunt|"
    r"grandma|grandpa|grandmother|grandfather|neighbou?r)|he|she|they|his|her)\b(?!'s\s+name)|"
    # a clean note with "my" left out: "Brother still lives in Cardiff", "Wife is a teacher"
    r"^(?:older\s+|younger\s+|little\s+|big\s+)?(?:wife|husband|partner|girlfriend|boyfriend|son|"
    r"daughter|kids?|children|mom|mum|mother|dad|father|parents|brother|sister|roommate|cousin|"
    r"uncle|aunt|grandma|grandpa|grandmother|grandfather)(?:'s\s+(?!name\b)[\w-]+)?"
    r"\s+(?:(?:still|also|now|just|recently|finally|already)\s+)?(?:is|are|"
    r"was|were|lives?|works?|has|have|got|moved|teaches|studies|"
    # irregular pasts: "Grandma just bought an Avante" is her car, not the user's
    r"bought|sold|drove|took|went|left|became|began|quit|gave|made|found|"
    # any verb of the third person or of the past: "Wife drives a rav4", "Son started school"
    r"(?!(?:is|was|has|does)\b)[a-z]{2,}(?:s|ed))\b",
    re.IGNORECASE,
)

ANSWER_WORDS = re.compile(
    r"답변|대답|응답|답장|답을|답은|답해|답할|설명|말투|어조|톤|말해|말할|말하|얘기해|얘기하|이야기하|"
    r"대화하|글을|써\s*줘|"
    r"작성|정리해|\b(?:answers?|responses?|repl(?:y|ies)|respond|responding|explanations?|explain|"
    r"talk|talking|speak|speaking|speech|tone|write|writing|formatt?(?:ed|ing)?|chat|chatting|"
    r"messages?\s+to\s+me|"
    r"to\s+me|with\s+me)\b",
    re.IGNORECASE,
)

FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|my|me|user)\b|(?:^|\s)(?:나는|난|저는|전|내가|제가|나|저|내|제)(?:\s|$)",
    re.IGNORECASE,
)
IN_A_LANGUAGE = re.compile(r"(?:로|으로)(?:\s|$|[.!~])|\bin\s+[a-z]+", re.IGNORECASE)

REQUEST = re.compile(
    r"[가-힣]\s*(?:줘|주세요|줘요|주라|줄래|주면|줬으면)(?=$|[\s.!~,])|(?:하지|쓰지|붙이지|달지)\s*"
    r"(?:마|말아)|^(?:앞으로|이제부터|지금부터|항상|늘)|(?:해|하세요|해요|써|말해)\s*[.!~]*$|"
    r"^(?:please\s+)?(?:always\s+|never\s+|just\s+)?(?:use|answer|switch|change|go|reply|respond|write|keep|give|"
    r"be|format|talk|speak|address|stick|avoid|don't|do\s+not|stop)\b|"
    r"\b(?:from\s+now\s+on|going\s+forward|by\s+default|please)\b|\bmake\s+(?:it|them|answers?)\b",
    re.IGNORECASE,
)

SELF_DOES = re.compile(
    r"\b(?:i|user)\s+(?:can\s+|also\s+|mostly\s+)?(?:speak|talk|write|explain|chat)\b|"
    r"(?:나는|난|저는|전)\s+\S*(?:를|을)?\s*(?:할\s*줄|말할\s*줄)"
)

CODE_WORDS = re.compile(r"코드|주석|변수명|커밋|\b(?:code|comments?|variable|commit)\b", re.I)

FACETS: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    # (slot, cue, whether the cue alone says it is about answers)
    (
        "answer_language",
        re.compile(
            r"(?:한국어|영어|일본어|중국어|한글|스페인어|프랑스어|독일어|베트남어|모국어)|"
            r"\b(?:english|korean|japanese|chinese|spanish|french|german|vietnamese)\b",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        "answer_formality",
        re.compile(
            r"존댓말|존대|반말|높임말|경어|말\s*(?:을\s*)?(?:놓|높여|편하게|편히)|\bhonorifics?\b"
        ),
        True,
    ),
    (
        "answer_formality",
        re.compile(
            r"편하게|격식|친근하게|정중하게|공손하게|\b(?:formal(?:ly)?|informal(?:ly)?|casual(?:ly)?|"
            r"polite(?:ly)?|politeness|friendly)\b",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        "answer_format",
        re.compile(
            r"글머리|불릿|블릿|목록|리스트|번호\s*(?:매|붙)|표로|표\s*형식|표를|테이블|마크다운|문단|단락|"
            r"줄글|산문|서술형|\b(?:bullet[-\s]points?|bullets?|bulleted|lists?|numbered|tables?|"
            r"tabular|prose|plain|paragraphs?|markdown|headings?)\b",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        "answer_length",
        re.compile(
            r"짧게|짧은|짧았|간결|간단|간략|길게|긴\s|자세|상세|한\s*줄|요약|핵심만|요점만|결론만|장황|"
            r"\b(?:short(?:er)?|brief(?:ly)?|concise(?:ly)?|succinct(?:ly)?|detailed|long(?:er)?|"
            r"lengthy|verbose|in[-\s]depth|thorough(?:ly)?|one[-\s]line(?:rs?)?|to\s+the\s+point|"
            r"tl;?dr|length|\d+\s*(?:words?|sentences?|lines?|paragraphs?))\b|"
            r"(?:\d+|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*(?:단어|줄|문장|글자|자)\s*"
            r"(?:이내|이하|안|정도|로|만)",
            re.IGNORECASE,
        ),
        False,
    ),
    ("emoji", re.compile(r"이모지|이모티콘|\bemojis?\b|\bemoticons?\b", re.IGNORECASE), True),
    (
        "units",
        re.compile(
            r"미터법|야드파운드|섭씨|화씨|단위|\b(?:metric|imperial|celsius|fahrenheit|units?)\b",
            re.IGNORECASE,
        ),
        True,
    ),
    (
        "units",
        re.compile(
            r"킬로미터|마일|킬로그램|파운드|피트|인치|미터|거리|온도|무게|길이|"
            r"\b(?:km|kms|kilomet(?:er|re)s?|miles?|kg|kgs|kilograms?|pounds?|lbs?|feet|foot|"
            r"inch(?:es)?|met(?:er|re)s?|distances?|temperatures?|weights?|heights?)\b",
            re.IGNORECASE,
        ),
        False,
    ),
)

FUTURE = re.compile(
    r"예정|계획|할\s*거|갈\s*거|할지도|하려고|려고|싶어|싶다|다음\s*(?:주|달|해)|담주|내년|다다음|"
    r"\b(?:will|going\s+to|plan(?:ning)?\s+to|might|may|want\s+to|hope\s+to|"
    r"thinking\s+(?:of|about)|next\s+(?:week|month|year|spring|summer|fall|autumn|winter)|"
    r"moving)\b",
    re.IGNORECASE,
)

PAST_ONLY = re.compile(
    r"예전에|옛날에|전에는|어릴\s*때|때는|\b(?:used\s+to|previously|formerly|once|as\s+a\s+kid|"
    r"when\s+i\s+was)\b",
    re.IGNORECASE,
)

# "call me at 010-..., "call me back", "call me tomorrow": how or when to reach the user by phone,
# no name to call them by.
_CALL_ME_BY_PHONE = (
    r"(?!\s+(?:at|on|in|when|whenever|if|after|before|around|every|once|first)\s|"
    r"\s+(?:back|later|tomorrow|tonight|today|now|asap|any\s*time)\b|\s*[+(\d])"
)

NAME = re.compile(
    r"\bcall\s+me\b" + _CALL_ME_BY_PHONE + r"|\bgo\s+with\s+[a-z][a-z-]*\s+instead\b|"
    r"\bgo(?:es)?\s+by\b|\bbe\s+called\b|"
    # a note of "call me Dee" in the third person: "Call them Dee, they hate Deborah"
    r"^(?:actually\s+|please\s+)?call\s+them\s+(?!(?:back|later|tomorrow|tonight|today|now|"
    r"again|first|soon|asap|sometime|anytime|once|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b)"
    r"[a-z]+(?:\s*[,.!]|\s+(?:instead|from\s+now|please)\b|\s*$)|\baddress\s+me\s+as\b|\bnick\s*name\b|"
    r"라고\s*(?:불러|부르|불리)|(?:으로|로)\s*(?:불러|불리)|호칭|닉네임|별명",
    re.IGNORECASE,
)

EN_OWN_NAME = re.compile(r"(?:^|\b(?:my|user'?s)\s+)(?:full\s+|first\s+)?name\b")

EN_RELATION_NAME = re.compile(r"\bmy\s+([a-z]+(?:\s+[a-z]+)?)'s\s+name\b")

KO_NAME = re.compile(r"(?:^|(\S+?)\s*)이름")

EN_RESIDENCE = re.compile(
    r"\b(?:live|lives|living|reside|resides|residing|based|stay(?:s|ing)?)\s+(?:in|at|near)\b|"
    r"\b(?:moved|relocated|move|moves|relocate)\s+(?:back\s+)?(?:(?:from|out\s+of)\s+[\w\s,.-]{1,40}?\s+)?"
    r"(?:to|into)\b|\b(?:rent|renting|rents|own|owns)\s+(?:a|an|my|our)\s+[\w\s-]{1,30}?\s+in\b|"
    r"\b(?:home|address|apartment|flat)\s+is\s+in\b|\bresidence\b|"
    # "moved flats this weekend, I'm in Jung-gu now", "moved house last month"
    r"\bmov(?:ed|ing)\s+(?:flats?|house|houses|apartments?|homes?|places?)\b",
    re.IGNORECASE,
)

EN_HOUSEHOLD = re.compile(
    r"\b(?:live|lives|living)\s+(?:alone|by\s+myself|on\s+my\s+own|with)\b", re.IGNORECASE
)

EN_HOMETOWN = re.compile(
    r"\b(?:i'm|i\s+am|user\s+is|come|comes|originally)\s+from\b|^(?:originally\s+)?from\s(?!now\b|then\b|today\b|tomorrow\b|here\b)|"
    r"\bhometown\b|\bborn\s+(?:and\s+raised\s+)?in\s+(?![12]\d{3})|\bgrew\s+up\s+in\b",
    re.IGNORECASE,
)

# "이제 광명 주민임", "마포구민 됐어요": a resident of a place.
KO_RESIDENT = re.compile(
    r"[가-힣]+\s*(?:주민|시민|구민|군민|도민)(?:이|임|입니다|이에요|이야|됐|\s|$)"
)

# "해운대 우동 산다", "수성구 삼", "상남동 살아예", "대구 수성구 산데이": a district named
# right before 살다 with no particle, in plain speech or dialect (Kiwi reads "산다" as 사다).
KO_LIVES_IN_DISTRICT = re.compile(
    r"(?<![가-힣])[가-힣]{1,6}(?:동|구|시|군|읍|면|리)\s*(?:에\s*)?"
    r"(?:산다|삼|산데이|산다이|산대이|산다카이|살아예|산당께|살제|사는\s*중|살고\s*있)"
    r"(?![가-힣A-Za-z0-9])"
)
KO_HOMETOWN = re.compile(r"고향|출신|태어났|태어난|태어나|자랐")

AGE = re.compile(
    r"(?<!\d)\d{1,3}\s*(?:살|세)(?:이야|야|예요|이에요|입니다|임|이다|다|요)?(?![가-힣])|나이|"
    r"\b\d{1,3}\s*(?:years?\s+old|yo|y/o)\b|\baged?\s+\d{1,3}\b|\bturn(?:ed|ing)?\s+\d{1,3}\b|"
    r"\bi(?:'?m|\s+am)\s+\d{1,3}(?:\s+now)?\s*[.!]*$|\bborn\s+in\s+[12]\d{3}\b|[12]\d{3}\s*년생|"
    r"[1-9]0\s*대|\bin\s+(?:my|their)\s+(?:[1-9]0s|twenties|thirties|forties|fifties|sixties|"
    r"seventies|eighties)\b|"
    # Korean native numbers ("스물다섯 살") and English number words ("twenty-five years old").
    r"(?:열|스물|서른|마흔|쉰|예순|일흔|여든|아흔)\s*(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉)?\s*살|"
    r"\b(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\s][a-z]+)?|ten|eleven|"
    r"twelve|[a-z]+teen)\s+years?\s+old\b",
    re.IGNORECASE,
)

BIRTHDAY = re.compile(
    r"(?:^|내|제|나의|저의|사용자의?)\s*생일|생일(?:은|이)\s|생년월일|"
    r"(?:^|\bmy\s+|user'?s\s+)birthday\b|\bbirthday\s+is\b|\bborn\s+on\b|\bdate\s+of\s+birth\b",
    re.IGNORECASE,
)

DIET = re.compile(
    r"채식|비건|페스코|락토|오보|육식|\b(?:vegan|vegetarian|pescatarian|pescetarian|"
    r"plant-based|carnivore|keto|paleo|low-carb|atkins|whole30|intermittent\s+fasting)\b|"
    r"\b(?:on|doing|following|started|switched\s+to)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}diet\b|"
    r"저탄고지|키토|팔레오|저탄수|간헐적\s*단식|고기를?\s*안\s*먹|\b(?:don't|do\s+not|doesn't|no\s+longer)\s+"
    r"eat\s+meat\b|\beats?\s+meat\b",
    re.IGNORECASE,
)

ALLERGY = re.compile(r"알레르기|알러지|\ballerg(?:y|ies|ic)\b", re.IGNORECASE)

EN_WORK_MODE = re.compile(
    r"\bwork(?:s|ing)?\s+(?:from\s+home|remotely|remote|hybrid|(?:in|at|from)\s+(?:the\s+)?office|"
    r"on[-\s]site)\b|"
    r"\b(?:remote|hybrid)\s+work\b|재택|원격\s*근무|하이브리드\s*근무|사무실\s*(?:로\s*)?출근",
    re.IGNORECASE,
)

EN_MAJOR = re.compile(r"\bmajor(?:s|ed|ing)?\s+in\b|\bmy\s+major\b|\bmajor\s+is\b|전공", re.I)

EN_SCHOOL = re.compile(
    r"\b(?:university|college|school|grad\s+school|academy|campus|alma\s+mater)\b|"
    r"\bstud(?:y|ies|ying)\s+(?:[\w-]+\s+){0,2}at\b|\battend(?:s|ing)?\b|\bgraduated?\s+from\b|\benrolled\b|"
    r"\bstudent\s+at\b|\b(?:freshman|sophomore|junior|senior)\s+at\b|"
    # leaving school answers the same question: "graduated! not a student anymore"
    r"\bgraduated\b|\bnot\s+a\s+student\b|\bdropped\s+out\b|"
    # a degree under way or just finished: "second year of a PhD", "finished my master's"
    r"\b(?:phd|ph\.d|doctorate|master's|masters|bachelor's|mba|undergrad|grad\s+student|"
    r"thesis|dissertation)\b",
    re.IGNORECASE,
)

KO_SCHOOL = re.compile(
    r"재학|입학|휴학|복학|편입|졸업(?:했|함|생)|\d\s*학년|"
    r"(?:학교|대학|대학교|대학원)(?:에|을|를)?\s*(?:다니|다녀|다님|가|졸업|들어갔|들어감|들어가|붙었|합격)"
)

EN_JOB_TITLE = re.compile(r"\b(?:" + EN_JOBS + r")\b", re.IGNORECASE)

EN_JOB = re.compile(
    r"\bwork(?:s|ing|ed)?\s+as\b|\b(?:job(?!\s+(?:at|with|in)\b)|profession|occupation|career)\b|"
    r"\b(?:became|become|becoming)\s+(?:a|an)\b|\bpromoted\s+to\b|\bquit\s+(?:my|their)\s+job\b|"
    r"\b(?:retired|unemployed|jobless|self-employed|between\s+jobs|freelanc(?:e|ing))\b|"
    # leaving a job or school says what the user does now: "left the bank", "quit teaching"
    # "left design, I'm doing product management now": one line of work for another
    r"\b(?:left|quit)\s+[\w-]+(?:\s+[\w-]+)?\s*,\s*(?:i'm\s+|i\s+am\s+|now\s+)?(?:doing|working)\s+"
    r"(?!(?:much\s+|so\s+|a\s+lot\s+|way\s+)?(?:better|well|fine|great|ok|okay|good|worse)\b)|"
    r"\b(?:left|leaving|quit|quitting|resigned\s+from)\s+(?:my\s+job|(?:my|the|a)\s+(?:[\w-]+\s+)?"
    r"(?:company|firm|bank|hospital|startup|agency|lab|office|school|university|college|"
    r"grad\s+school|program|corporate\s+job|day\s+job)\b|teaching|nursing|coding|consulting|"
    r"engineering|law|medicine|academia|corporate)|"
    r"\b(?:i'm|i\s+am|is|am|now)\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:" + EN_JOBS + r")s?\b|"
    r"^(?:a|an)?\s*(?:[\w-]+\s+){0,3}?(?:" + EN_JOBS + r")s?\s+(?:by\s+profession|at\b|for\b)",
    re.IGNORECASE,
)

EN_WORKPLACE = re.compile(
    r"\b(?:work|teach)(?:s|es|ing|ed)?\s+(?:at|for)\b|\bemployed\s+(?:at|by)\b|\bstarted\s+(?:working\s+)?at\b|"
    r"\bfirst\s+(?:day|week)\s+at\b|"
    r"\b(?:employer|company|workplace|firm|startup)\b|\bhired\s+(?:at|by)\b|\bjob\s+at\b|"
    # "joined Samsung": an employer named (a club or a class is joined with an article)
    r"\bjoined\s+(?!a\b|an\b|the\b|my\b|us\b|them\b|in\b)[a-z]",
    re.IGNORECASE,
)

KO_JOB_CUE = re.compile(
    r"직업|승진|퇴사|은퇴|백수|취준|무직|일을?\s*그만|인사\s*발령|"
    # a rank taken: "과장 달았어"
    r"(?:사원|주임|대리|과장|차장|부장|팀장|실장|이사|상무|전무)\s*(?:을|를)?\s*달(?:았|음|고|게)|"
    r"(?:회사|직장|일|학교|대학|대학원|알바|직업|은행|공장|가게|매장|식당|카페|로펌|[가-힣]사|[가-힣]원)"
    r"(?:을|를|은|는|도)?\s*"
    r"(?:그만두|그만뒀|그만둠|관두|관뒀|때려치|나왔|나오고|졸업)|"
    # "약국 그만두고 요즘 유튜브 해요": left one thing and does another for a living now
    r"(?:그만두|그만뒀|관두|관뒀|때려치)\S*\s+(?:\S+\s+){0,3}?\S*"
    r"(?:해요|해|함|한다|하고\s*있|다녀|다님|일해|일함|시작했)(?:\s|$|[.!~])"
)

KO_WORKPLACE_CUE = re.compile(
    r"입사|재직|취직|취업|이직|근무지|(?:회사|직장)(?:은|는|이|가)\s|(?:회사|직장)(?:를|을)?\s*(?:옮|바꿨|바꿈)"
)

FAVOURITE = re.compile(
    # "좋아하는 배우는 송강호", "좋아하는 감독 봉준호": the one liked, named
    r"(?:^|\s)좋아하는\s+[가-힣a-z]+(?:은|는)\s|^좋아하는\s+[가-힣a-z]+\s+[가-힣a-z0-9]+\s*$|"
    r"(?:제일|가장|젤)\s*좋아|최애|1\s*순위|1위|넘버\s*원|#\s*1(?!\d)|\bnumber\s+one\b|\btop\s+pick\b|\bfavou?rites?\b|\bfav\b|\bthe\s+most\b|\bmost\s+of\s+all\b",
    re.I,
)

EN_FAVOURITE_CATEGORY = re.compile(
    r"\bfavou?rite\s+((?:[a-z-]+\s+){0,2}?[a-z-]+)\s*(?:is|are|was|:|would|=|$|,|\.)",
    re.IGNORECASE,
)

KO_FAVOURITE_CATEGORY = re.compile(
    r"(?:(?P<before>[가-힣a-z]+)\s+)?최애(?:는|은|가)\s|최애\s*(?!바뀌|바뀜|바꿨|바꿈|갈아)"
    r"(?P<after>[가-힣a-z]+?)(?:은|는|이|가)?\s*[:：]?\s"
)

# "라면은 짜파게티가 최고": the best of a kind, the kind as the topic.
KO_BEST_OF_KIND = re.compile(
    r"(?P<kind>[가-힣a-z]+?)(?:은|는)\s+\S+?(?:이|가)\s*(?:최고|짱|제일이)"
)

EN_FAVOURITE_AFTER = re.compile(r"\b(?:is|are)\s+(?:my|the\s+user'?s|their)\s+favou?rite\s+(\w+)")

MOMENTARY = re.compile(
    r"오늘|어제|방금|지금\s*(?:이|막)|이번\s*(?:주|에)|\b(?:today|tonight|yesterday|right\s+now|"
    r"this\s+(?:morning|evening|time|one))\b",
    re.IGNORECASE,
)

PREFER = re.compile(
    r"선호|더\s*좋|"
    # what suits one best: "잡는 게 편해요", "읽기 편하더라", "works best for me"
    r"(?:는\s*게|기)\s*(?:더\s*|제일\s*)?편(?:하|해|함)|"
    r"\b(?:prefer(?:s|red|ring)?|preference|rather|would\s+sooner|works?\s+(?:best|better)|"
    r"suits?\s+me)\b",
    re.IGNORECASE,
)

# An aim: what the user wants to reach, not what they are ("올해 목표 정보처리기사", "my goal is
# to become a nurse").
AIM = re.compile(r"목표|버킷\s*리스트|\b(?:goal|goals|aim|dream|bucket\s+list)\b", re.IGNORECASE)

# Whether the user has a partner: single, dating, engaged, married, separated.
RELATIONSHIP = re.compile(
    r"(?:여자\s*친구|남자\s*친구|여친|남친|애인)\s*(?:가|이)?\s*(?:있|없|생겼|생김)|솔로|싱글|모태솔로|"
    r"결혼\s*(?:했|함|한\s*지|해서|했어|했어요|안\s*했)|미혼|기혼|약혼|파혼|이혼|헤어졌|헤어짐|사귀|연애\s*중|"
    r"\b(?:single|engaged|married|divorced|separated|widowed|dating|broke\s+up|"
    r"(?:have|got)\s+a\s+(?:girlfriend|boyfriend|partner)|(?:girlfriend|boyfriend|partner)\s+and\s+i|"
    # a break-up ends the partner's answer: "Sarah and I split up", "we broke up"
    r"split\s+up|broken\s+up|break\s+up\s+with|(?:and\s+i|we)\s+(?:separated|split))\b",
    re.IGNORECASE,
)
# Who the user's partner is, by name: "my boyfriend is Minho", "남친은 준호야" (a job or a
# trait of the partner, "my boyfriend is a nurse", answers no question of the user's).
PARTNER_NAMED = re.compile(
    r"^(?:my\s+)?(?:girlfriend|boyfriend|partner|bf|gf|fianc[ée]e?)\s+(?:is|'s)\s+"
    r"(?!(?:a|an|the|so|very|really|super|from|in|at|on|not|my|also|still|away|out|home|"
    r"busy|tall|short|sick|here|there|back)\b)[a-z][a-z-]+(?:\s+[a-z][a-z-]+)?\s*[.!]*$|"
    r"^(?:내\s*|제\s*)?(?:여자\s*친구|남자\s*친구|여친|남친|애인)\s*(?:은|는|이름은)\s*\S{1,6}"
    r"(?:이야|야|예요|이에요|임|입니다)\s*[.!~]*$",
    re.IGNORECASE,
)
# A degree held, not one under way: "I have a bachelor's in physics", "학사 학위 있어".
DEGREE_HELD = re.compile(
    r"\b(?:have|has|hold|holds|got|earned|with)\s+(?:a|an|my|two)\s+(?:[\w-]+\s+)?"
    r"(?:bachelor'?s|master'?s|masters|phd|ph\.d|doctorate|mba|degree|ba|bs|bsc|ma|ms|msc)\b|"
    r"학위\s*(?:가|를)?\s*(?:있|가지|땄|받았)",
    re.IGNORECASE,
)
# A degree under way, in Korean: "석사 과정 밟고 있어", "박사 과정 들어갔어", "대학원 진학함".
KO_DEGREE_UNDER_WAY = re.compile(
    r"(?:석사|박사|석박사|석박|학사|MBA|대학원)\s*(?:과정|통합\s*과정)?\s*(?:을|를|에|은|는)?\s*"
    r"(?:밟|다니|다녀|다님|들어갔|들어감|들어가|시작|하고|하는\s*중|중|진학|입학|준비\s*중)",
    re.IGNORECASE,
)
# A phone number and whose line it is: "work phone is 010-...", "회사 번호는 02-...".
PHONE_NUMBER = re.compile(
    r"(?<![\d-])(?:\+?\d{1,3}[-.\s]?)?(?:\(?\d{2,4}\)?[-.\s]?)?\d{3,4}[-.\s]\d{4}(?![\d-])|"
    r"(?<!\d)0\d{9,10}(?!\d)"
)
PHONE_LINE = re.compile(
    r"\b(?:phone|cell|mobile|extension|ext)\b|"
    r"\b(?:my|work|office|personal|private|home|contact|new|direct)\s+(?:number|line)\b|"
    # "주문번호", "계좌번호" are no line to call
    r"(?:전화|폰|휴대폰|핸드폰|연락|회사|개인|업무용?|내|제|사무실|집|직통)\s*번호|^번호|연락처|내선",
    re.IGNORECASE,
)
WORK_LINE = re.compile(
    r"\b(?:work|office|business|company|desk|extension|ext)\b|회사|업무|사무실|직장|내선|회사용|업무용",
    re.IGNORECASE,
)

# The user's body weight: a number with a unit of weight ("72키로 나가요", "I weigh 70kg").
WEIGHT = re.compile(
    r"몸무게|체중|\d+(?:\.\d+)?\s*(?:키로|킬로|kg|KG)(?!\s*(?:미터|m\b))|"
    r"\bweigh(?:s|ed)?\b|\b\d+(?:\.\d+)?\s*(?:lbs?|pounds|kilos)\b|"
    # a bare number said with losing or gaining: "살빠져서 66됨", "좀 빠져서 68 나옴"
    r"(?=[^\n]*(?:살|빠져|빠졌|빠짐|쪄서|쪘|다이어트))[^\n]*?(?<![\d.:])\d{2,3}(?:\.\d)?\s*"
    r"(?:나옴|나와|나가|나감|됨|됐|찍)",
    re.IGNORECASE,
)

# "like" is a verb after its subject or at the start ("Likes tea"), a preposition elsewhere
# ("answer like a pirate").
LIKE = re.compile(
    r"좋아|좋다|좋음|좋아요|싫|별로|질색|극혐|극호|불호|못\s*먹|사랑|즐겨|즐기|"
    r"(?:^|\b(?:i|user|we|really|also|still|not|don't|doesn't|to|would|'d|and|but|always|"
    r"genuinely|kinda|actually)\s+)like[sd]?\b|\b(?:liking|love[sd]?|"
    r"loving|enjoy(?:s|ed|ing)?|hate[sd]?|hating|dislike[sd]?|detest(?:s|ed)?|adore[sd]?|"
    r"can't\s+stand|can\s*not\s+stand|fan\s+of|(?:'m|am|is|are|been|really|so|super|totally|"
    r"pretty|kinda|getting)\s+into|obsessed\s+with|hooked\s+on)\b|"
    # taken with something lately: "요즘 클라이밍에 빠졌어", "위스키에 꽂힘"
    r"[가-힣]에\s*(?:(?:완전|푹|제대로|요즘|또)\s*)*(?:빠졌|빠져\s*있|빠져\s*살|빠짐|꽂혔|꽂혀|꽂힘)",
    re.IGNORECASE,
)

EN_COMPARISON = re.compile(
    r"\b([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:over|more\s+than|rather\s+than|than|to|instead\s+of)"
    r"\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\b",
    re.IGNORECASE,
)

EN_LIKE_MY_X = re.compile(
    r"\b(?:like|likes|love|loves|want|wants)\s+(?:my|their|his|her|the)\s+(\w+)\s+(\w+)\b", re.I
)

TEACHES = re.compile(r"\bteach(?:es|ing)?\b|가르치|가르쳐|가르침")

# 살다/live said of how one feels, not where: "커피 없으면 못 살아", "살 것 같다", "살맛 나",
# "can't live without", "I live for weekends", "living the dream".
KO_LIVE_IDIOM = re.compile(
    r"못\s*살|살\s*(?:것|거)\s*같|살맛|살\s*수\s*(?:가\s*)?없|살\s*만하|살겠|죽겠|"
    r"없(?:으면|이는|인|이)\s+(?:\S+\s+)?(?:못\s*)?살|(?:위해|위해서)\s*살|"
    r"(?:맛에|낙으로|재미로|힘으로|희망으로|낙에)\s*(?:\S+\s+)?살|"
    # "거의 도서관에서 살아", "회사에서 살다시피 해": spends most of the time there
    r"살다시피|(?:거의|맨날|매일)\s+\S+에서\s*살|"
    # "뜨개질에 빠져 살아": taken with something, no place
    r"(?:빠져|묻혀|파묻혀)\s*(?:서\s*)?(?:살|삶)"
)

EN_LIVE_IDIOM = re.compile(
    r"\b(?:can't|cannot|couldn't|could\s+not)\s+live\s+without\b|\blive[sd]?\s+for\b|"
    r"\bliv(?:e|es|ing)\s+in\s+(?:the\s+moment|fear|hope|denial|the\s+past|my\s+head)\b|"
    r"\bliving\s+the\s+dream\b|\b(?:practically|basically|pretty\s+much|virtually)\s+live[sd]?\s+"
    r"(?:at|in)\b|\blive[sd]?\s+and\s+breathe[sd]?\b",
    re.IGNORECASE,
)

# When a statement holds, not what it is about: kept out of slot keys.
NOWADAYS = re.compile(
    r"\b(?:these\s+days|nowadays|lately|currently|right\s+now|at\s+the\s+moment|for\s+now|now)\b|"
    r"(?:^|\s)(?:요즘(?:은|에는|엔)?|이제(?:는)?|지금은|최근(?:에는|엔)?)(?=\s|$)",
    re.IGNORECASE,
)

# "moved to a Pixel", "moved from the gym to swimming": a move between things, not homes.
EN_MOVED_TO_A_THING = re.compile(
    r"\bmov(?:e|ed|ing)\s+(?:over\s+)?(?:from\s+(?:an?\s+|the\s+|my\s+)?[\w-]+\s+)?to\s+"
    r"(?:an?\s+|the\s+)?(?:iphone|android|galaxy|pixel|mac|windows|linux|tesla|"
    r"swimming|yoga|pilates|running|cycling|the\s+gym|gym|"
    r"(?:day|night|evening|swing|graveyard|morning|early|late|overnight)\s+shifts?|nights)\b",
    re.IGNORECASE,
)


# A limit the speaker sets on a kind of their own things, with its measure ("Meetings
# shouldn't go over 30 minutes", "calls should end by 5pm", "workouts should never run longer
# than an hour"): the plural bare noun is the speaker's own; `clock` is a time of day, else a
# length.
EN_LIMIT = re.compile(
    r"^(?:[a-z-]+\s+)?(?P<thing>[a-z-]+s)\s+(?:should(?:n't|\s+not)?|must(?:n't)?)\s+"
    r"(?:\w+\s+){0,3}?(?:over|under|longer\s+than|more\s+than|less\s+than|past|by|before|after|"
    r"beyond)\s+(?:an?\s+)?\d*\s*(?:(?P<clock>\d{1,2}(?::\d\d)?\s*(?:am|pm)|noon|midnight)|"
    r"min(?:ute)?s?|hours?|hrs?)\b",
    re.IGNORECASE,
)
