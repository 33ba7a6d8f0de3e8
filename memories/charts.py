"""Small bar charts as SVG rectangles, drawn by templates; plain functions, no Django."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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
