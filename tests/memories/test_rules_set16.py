"""Standing requests set 16 found unextracted: the formal endings ("주시기 바랍니다",
"주십시오") and the blunt ones ("불러라"), with one-off requests in the same endings: pure."""

from __future__ import annotations

import pytest

from memories.logic import rules, write_policy
from memories.logic.injection import detect
from memories.logic.write_policy import Candidate, Decision, Origin

STANDING = [
    "번역 결과는 항상 원문-번역문 대조표 형식으로 주시기 바랍니다",
    "답변 시 외래어 표기법은 국립국어원 기준을 따라 주십시오",
    "날 부를 땐 그냥 김사장이라 불러라",
    "요약은 세 줄 이내로 해 주시기 바랍니다",
    "코드 예시는 파이썬으로 작성해 주십시오",
    "나 부를땐 걍 대장이라고 불러라 ㅋㅋ",
]
ONE_OFF = [
    "금일 회의 자료를 첨부해 주시기 바랍니다",
    "내일 오전까지 보고서 제출해 주십시오",
    "회의록을 표로 정리해 주시기 바랍니다",
]


@pytest.mark.parametrize("text", STANDING)
def test_a_formal_or_blunt_standing_request_is_kept_as_a_preference(text: str) -> None:
    assert rules.standing_request(text)
    assert detect(text) is None
    for item in rules.extract_statements(text):
        candidate = Candidate(
            content=item.content, type=item.type, origin=Origin.USER, source_text=text
        )
        assert write_policy.decide(candidate, volatile_expiry_hours=24).decision is not (
            Decision.QUARANTINE
        )


@pytest.mark.parametrize("text", ONE_OFF)
def test_a_one_off_request_in_the_same_ending_is_not_standing(text: str) -> None:
    assert not rules.standing_request(text)
