"""Small line charts as SVG coordinates, drawn by templates; plain functions, no Django.

Data space has y growing upwards; SVG space has y growing downwards from the box's top-left
corner, so `scale` flips y.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple


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
