"""`memoryhub.validation.visible_text`: the invisible characters that reorder or hide what
text says are dropped; the joiners that are part of what is written stay."""

from __future__ import annotations

import pytest

from memoryhub.validation import InvalidText, clean_message_text, visible_text

RLO, PDF, LRI, PDI = "\u202e", "\u202c", "\u2066", "\u2069"
ZWSP, ZWNJ, ZWJ, WJ, BOM = "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        pytest.param(
            f"My office is in {RLO}notsoB{PDF} now", "My office is in notsoB now", id="override"
        ),
        pytest.param(f"a\u202ab\u202bc\u202dd{PDF}", "abcd", id="embeddings"),
        pytest.param(f"{LRI}회의{PDI}는 \u2067월요일{PDI}\u2068", "회의는 월요일", id="isolates"),
        pytest.param(f"나는{ZWSP} 대전{ZWJ}에서 일{ZWNJ}해", "나는 대전에서 일해", id="zero-width"),
        pytest.param(f"{BOM}coffee{WJ} beans{BOM}", "coffee beans", id="joiner-and-bom"),
        pytest.param(
            "left\u200e right\u200f\u061c 부산\u200e", "left right 부산", id="marks-no-rtl"
        ),
        pytest.param("pass\u00adword", "password", id="soft-hyphen"),
        pytest.param("ok\U000e0069\U000e0067\U000e006e done", "ok done", id="tag-letters"),
    ],
)
def test_invisible_reordering_and_hiding_characters_are_dropped(text, visible):
    assert visible_text(text) == visible


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f"개발자 👩{ZWJ}💻 입니다", id="emoji-zwj-sequence"),
        pytest.param(f"family 👨{ZWJ}👩{ZWJ}👧{ZWJ}👦", id="family"),
        pytest.param(f"❤\ufe0f{ZWJ}🔥 좋아", id="emoji-with-variation-selector"),
        pytest.param(f"👍🏽{ZWJ}🤝", id="skin-tone-then-joiner"),
        pytest.param(f"می{ZWNJ}خواهم", id="persian-non-joiner"),
        pytest.param(
            "🏴\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f", id="flag-tags"
        ),
        pytest.param("plain text, 한국어도 그대로", id="nothing-hidden"),
        pytest.param("שלום \u200f(עולם)\u200f ok", id="direction-marks-beside-rtl-text"),
    ],
)
def test_joiners_that_are_part_of_what_is_written_are_kept(text):
    assert visible_text(text) == text


def test_a_joiner_between_letters_or_after_an_emoji_before_a_letter_is_dropped():
    assert visible_text(f"서울{ZWJ}시") == "서울시"
    assert visible_text(f"🙂{ZWJ}a") == "🙂a"


def test_visible_text_is_idempotent():
    text = f"{RLO}x{PDF}{ZWSP}👩{ZWJ}💻{ZWJ}{ZWJ}y"
    assert visible_text(visible_text(text)) == visible_text(text)


def test_message_text_is_returned_visible_and_text_of_hidden_characters_alone_is_blank():
    assert clean_message_text(f"나는{ZWSP} 부산{ZWJ}") == "나는 부산"
    with pytest.raises(InvalidText) as raised:
        clean_message_text(f"{ZWSP}{RLO} {BOM}")
    assert raised.value.code == "blank"
