"""Axes for the daily line charts of `charts`: room for labels, and where the ticks go.

Plain functions, no Django: the template writes the labels (dates and numbers in the reader's
language) at the positions given here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal, NamedTuple

from conversations.logic.charts import Box, Point

Anchor = Literal["start", "middle", "end"]
# Label layout in SVG units: the space between a label and the plot, and a line of text.
_GAP = 4.0
_LINE = 11.0


@dataclass(frozen=True)
class PlotBox(Box):
    """A Box that keeps room left of the plot for value labels and below it for dates."""

    label_left: float = 0.0
    label_bottom: float = 0.0

    @property
    def left(self) -> float:
        return self.padding + self.label_left

    @property
    def bottom(self) -> float:
        return self.height - self.padding - self.label_bottom


_NICE_STEPS = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def nice_top(value: float) -> float:
    """The smallest round number (1, 2, 3, 4, 5, 6 or 8 times a power of ten) at or above
    `value`, so a scale's top and middle read as plain numbers (2.4 -> 3, 0.07 -> 0.08)."""
    if not math.isfinite(value) or value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in _NICE_STEPS:
        top = round(step * power, 12)  # 3 * 0.1 is 0.30000000000000004
        if top >= value:
            return top
    return 10.0 * power  # unreachable: the last step is 10


class DayTick(NamedTuple):
    day: date
    x: float
    anchor: Anchor  # SVG text-anchor, so the first and last labels stay inside the box


class ValueTick(NamedTuple):
    value: float
    y: float


@dataclass(frozen=True)
class DailyAxes:
    """The ticks, and where the labels go: value labels end just left of the plot, dates sit
    under it, the date axis's title under them, the weight axis's title turned up the side."""

    days: list[DayTick]
    values: list[ValueTick]
    value_label_x: float
    day_label_y: float
    day_title: Point
    value_title: Point


def daily_axes(
    *, start: date, end: date, y_max: float, box: Box, day_ticks: int = 3, value_ticks: int = 3
) -> DailyAxes:
    """Ticks for a chart of days `start`..`end` (left to right) and values 0..`y_max`.

    The first and last day are always ticks; the others are spread evenly, on whole days,
    without repeats (a range of two days has two ticks whatever `day_ticks` asks).
    """
    if end < start or day_ticks < 2 or value_ticks < 2:
        raise ValueError("a chart needs start <= end and at least two ticks on each axis")
    span = (end - start).days
    width = box.right - box.left
    offsets = sorted({round(i * span / (day_ticks - 1)) for i in range(day_ticks)})
    days = []
    for index, offset in enumerate(offsets):
        anchor: Anchor = "middle"
        if index == 0:
            anchor = "start"
        elif index == len(offsets) - 1:
            anchor = "end"
        x = box.left + (offset / span * width if span else 0.0)
        days.append(DayTick(start + timedelta(days=offset), x, anchor))
    height = box.bottom - box.top
    values = [
        ValueTick(y_max * i / (value_ticks - 1), box.bottom - height * i / (value_ticks - 1))
        for i in range(value_ticks)
    ]
    return DailyAxes(
        days=days,
        values=values,
        value_label_x=box.left - _GAP,
        day_label_y=box.bottom + _GAP + _LINE,
        day_title=Point((box.left + box.right) / 2, box.bottom + _GAP + 2 * _LINE + _GAP),
        value_title=Point(box.padding + _LINE / 2, (box.top + box.bottom) / 2),
    )
