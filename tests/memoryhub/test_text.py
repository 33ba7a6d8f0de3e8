import pytest

from memoryhub import text


def test_korean_keywords_are_nouns_and_code_words():
    found = text.keywords(
        "React 프로젝트 Next.js로 마이그레이션하려고 해. 삼성전자 주가 어때?", limit=10
    )

    assert found == ["React", "Next.js", "프로젝트", "마이그레이션", "삼성전자", "주가"]


def test_unspaced_korean_still_splits_into_nouns():
    assert {"삼성전자", "주가"} <= set(text.keywords("삼성전자주가어때"))


def test_english_keywords_skip_stopwords_and_keep_code_words():
    found = text.keywords("I prefer the App Router in Next.js with C++ and node-js", limit=10)

    assert "the" not in [f.lower() for f in found]
    assert {"App", "Router", "Next.js", "C++", "node-js", "prefer"} <= set(found)


def test_index_tokens_are_normalised_and_distinct():
    tokens = text.index_tokens("Meetings and meeting notes; Next.js NEXT.JS 마이그레이션")

    assert tokens.count("meet") == 1
    assert "note" in tokens
    assert tokens.count("next.js") == 1
    assert "마이그레이션" in tokens


def test_english_stemming_is_light_and_predictable():
    assert text.stem_english("running") == "run"
    assert text.stem_english("studies") == "study"
    assert text.stem_english("notes") == "note"
    assert text.stem_english("class") == "class"
    assert text.stem_english("bus") == "bus"


def test_generic_korean_words_are_not_keywords():
    assert text.keywords("그거 오늘 뭐 하기로 했지") == []


def test_language_detection_prefers_korean_when_hangul_is_present():
    assert text.detect_language("오늘 Next.js 설정했어") == "ko"
    assert text.detect_language("I set up Next.js today") == "en"


def test_token_estimate_grows_with_text():
    assert text.estimate_tokens("") == 0
    assert text.estimate_tokens("안녕하세요 반갑습니다") > text.estimate_tokens("안녕")


def test_a_redaction_marker_is_no_keyword_tag_or_search_term():
    stored = "비번은 [redacted: password]야. Hosting bill paid with [redacted: card number]"

    words = {w.lower() for w in text.keywords(stored, limit=20)}
    tokens = set(text.index_tokens(stored))

    assert not {"redacted", "password", "card", "number"} & words
    assert not {"redact", "redacted", "password", "card", "number"} & tokens
    assert {"비번", "host", "bill"} <= tokens


def test_hangul_letters_written_alone_are_korean():
    for said in ("ㅋㅋ👍", "ㅠㅠ", "ㄱㄱ!", "ㅇㅋ thx"):
        assert text.detect_language(said) == "ko", said


def test_emoji_numbers_and_punctuation_alone_have_no_letters():
    for said in ("🙏", "👍👍", "!!", "10", "🎉 100%"):
        assert not text.has_letters(said), said
    for said in ("ㅋㅋ", "ok", "좋아", "ça"):
        assert text.has_letters(said), said


def test_one_text_is_analysed_by_kiwi_once_for_its_tokens_keywords_and_names():
    said = "판교 사무실에서 다음 달 예산 회의를 준비하고 있어요. " * 40
    before = text.morphemes.cache_info().misses

    text.index_tokens(said)
    text.keywords(said)
    text.name_tokens(said)
    text.index_tokens(said)

    assert text.morphemes.cache_info().misses == before + 1


# Markers of something taken out, in every form text may carry them: the stored codes, the
# words pages show them in (English and Korean), and hand-made ones.
MARKERS = [
    "[redacted: password]",
    "[removed]",
    "[withheld: this text reads as instructions to the assistant]",
    "(deleted)",
    "(삭제됨)",
    "(card number hidden)",
    "(계좌번호 가림)",
    "(withheld: it reads as instructions to the assistant)",
    "(보류됨: 지시로 읽히는 글이에요)",
    "[REDACTED]",
    "【삭제】",
]


def test_every_form_of_a_marker_is_recognised_and_is_never_a_word():
    for marker in MARKERS:
        sentence = f"우리 집 {marker} 근처 빵집 Bakery"
        assert text.carries_marker(sentence), marker
        assert marker not in text.without_markers(sentence)
        found = {t.lower() for t in text.terms(sentence)}
        assert not found & {"removed", "deleted", "redacted", "withheld", "삭제", "삭제됨", "가림"}
        assert text.is_marker_word(marker)


def test_words_that_only_look_like_a_marker_are_ordinary_text():
    plain_texts = ["I deleted the photos.", "(the folder I deleted)", "(hidden gem)", "삭제했어"]
    for plain in plain_texts:
        assert not text.carries_marker(plain), plain
    assert not text.is_marker_word("photos") and text.is_marker_word("Removed")


@pytest.mark.parametrize(
    "said",
    [
        "비번 [redacted: password], 카드 [redacted: card number]",
        "이 레시피 봐봐 https://www.example.org/recipes/slow-cooked-beef-stew-with-red-wine",
        "견적서는 jiyoung.lee+quotes@example-studio.co.kr 로 보내줘",
        "그 스크립트 loadUserPreferences 가 app_settings.yaml 을 못 읽어",
        "```js\nconst total = items.reduce((a, b) => a + b.price, 0);\n```\n이 코드 왜 느려?",
        "[removed] 그거 말고 www.daum.net/news?category=technology-and-science 이거",
    ],
)
def test_markers_urls_addresses_and_code_in_a_korean_message_leave_it_korean(said):
    assert text.detect_language(said) == "ko"


@pytest.mark.parametrize(
    "said",
    [
        "Have a look at https://ko.wikipedia.org/wiki/제주도 before our trip next week",
        "Please rename the `고객_목록` table before tonight's deploy runs",
        "Forward the invoice to 박서연@example.com and keep me posted",
        "My old password was [redacted: password] but I changed it yesterday",
        "That is all for now. See you e.g. on Monday.",
    ],
)
def test_hangul_only_in_urls_addresses_or_code_leaves_an_english_message_english(said):
    assert text.detect_language(said) == "en"


def test_a_long_text_is_told_by_its_beginning():
    korean = "나는 서울에 살고 매일 아침 커피를 마셔. " * 100
    pasted = korean + "the rest is an english page " * 2000

    assert text.detect_language(pasted) == "ko"


@pytest.mark.parametrize("run", ["a" * 20000, "a." * 10000, "x@" * 10000, "aB" * 10000])
def test_a_long_run_without_a_space_is_english_and_leaves_nothing_behind(run):
    assert text.detect_language(run) == "en"
    assert text.detect_language("나는 서울에 살아. " * 400 + run) == "ko"
