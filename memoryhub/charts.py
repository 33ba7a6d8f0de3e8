"""Small charts as SVG coordinates, drawn by templates; plain functions, no Django: line
charts over days (the tags page) and bar charts (the admin dashboard).

Data space has y growing upwards; SVG space has y growing downwards from the box's top-left
corner, so `scale` flips y.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal, NamedTuple


class Point(NamedTuple):
    x: float
    y: float


@dataclass(frozen=True)
class Box:
    """An SVG viewBox of `width` x `height`, with `padding` kept clear on every side."""

    width: float
    height: float
    padding: float = 0.0

    @property
    def left(self) -> float:
        return self.padding

    @property
    def right(self) -> float:
        return self.width - self.padding

    @property
    def top(self) -> float:
        return self.padding

    @property
    def bottom(self) -> float:
        return self.height - self.padding


def _fraction(value: float, low: float, high: float) -> float:
    """Where `value` lies between `low` (0.0) and `high` (1.0), clamped; 0.0 for an empty range."""
    if high <= low:
        return 0.0
    return min(1.0, max(0.0, (value - low) / (high - low)))


def scale(
    points: Sequence[tuple[float, float]],
    *,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    box: Box,
) -> list[Point]:
    """Map data points into `box`: x_range onto left..right, y_range onto bottom..top.

    Values outside a range are clamped to the box's edge; an empty range (low == high) maps
    every value to the left or bottom edge.
    """
    return [
        Point(
            box.left + _fraction(x, *x_range) * (box.right - box.left),
            box.bottom - _fraction(y, *y_range) * (box.bottom - box.top),
        )
        for x, y in points
    ]


def polyline_points(points: Sequence[Point]) -> str:
    """The `points` attribute of an SVG <polyline>: "x,y x,y …" with one decimal."""
    return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in points)


@dataclass(frozen=True)
class LineChart:
    """One series, ready for a template: the polyline, its last point, and the box."""

    box: Box
    points: list[Point]

    @property
    def polyline(self) -> str:
        return polyline_points(self.points)

    @property
    def last(self) -> Point | None:
        return self.points[-1] if self.points else None

    @property
    def view_box(self) -> str:
        return f"0 0 {self.box.width:g} {self.box.height:g}"


def daily_line_chart(
    series: Sequence[tuple[date, float]], *, start: date, end: date, y_max: float, box: Box
) -> LineChart:
    """A chart of daily values from `start` (left edge) to `end` (right edge), 0 to `y_max`.

    Points are sorted by day; days outside start..end are dropped, not clamped, so the line
    never runs along an edge.
    """
    days = (end - start).days
    inside = sorted((day, value) for day, value in series if start <= day <= end)
    return LineChart(
        box=box,
        points=scale(
            [((day - start).days, value) for day, value in inside],
            x_range=(0, days),
            y_range=(0.0, y_max),
            box=box,
        ),
    )


# --- bar charts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    """One bar in SVG space (y grows downwards from the top-left corner)."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class BarChart:
    width: float
    height: float
    bars: list[Bar]
    top: float  # the value the full height stands for

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width:g} {self.height:g}"


def bar_chart(
    values: Sequence[float], *, width: float = 300, height: float = 60, gap: float = 1.0
) -> BarChart:
    """One bar per value, left to right, scaled so the largest fills the height.

    A zero gets a hairline (so an empty day is still a visible, clickable slot) and every
    bar of an all-zero series is a hairline.
    """
    top = max((v for v in values if v > 0), default=0.0)
    slot = width / len(values) if values else width
    bars = []
    for index, value in enumerate(values):
        size = height * (value / top) if top > 0 and value > 0 else 0.0
        size = max(size, 1.0)
        bars.append(
            Bar(
                x=round(index * slot + gap / 2, 2),
                y=round(height - size, 2),
                width=round(max(slot - gap, 0.5), 2),
                height=round(size, 2),
            )
        )
    return BarChart(width=width, height=height, bars=bars, top=top)


# --- axes of the daily line charts: room for labels, and where the ticks go -----------------
# The template writes the labels (dates and numbers in the reader's language) at the positions
# given here.

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
