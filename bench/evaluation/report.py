"""The evaluation table: per-row pass rates with and without memory, cost and latency.

Pure: takes verdicts and measurements, returns text (a plain table for the terminal, Markdown
for the README) and rewrites only the marked block of the README.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.evaluation.scenarios import ROW_LABELS, SCENARIO_ROWS, Row
from bench.evaluation.verdicts import Verdict

# Context assembly may add at most this much at p95 for memory to be worth it: half a second
# is a delay people notice before a reply starts.
LATENCY_BUDGET_MS = 500.0
README_START = "<!-- eval_memory:start -->"
README_END = "<!-- eval_memory:end -->"
README_HEADING = "## Memory evaluation"


@dataclass(frozen=True)
class ScenarioResult:
    scenario_id: str
    row: Row
    lang: str
    with_memory: Verdict
    without_memory: Verdict


@dataclass(frozen=True)
class Usage:
    """LLM calls and latencies of one condition (with or without memory)."""

    exchanges: int = 0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    context_ms: tuple[float, ...] = ()  # context assembly per probe question
    exchange_ms: tuple[float, ...] = ()  # whole chat exchange per probe question

    @property
    def tokens_per_exchange(self) -> float:
        return (self.input_tokens + self.output_tokens) / self.exchanges if self.exchanges else 0.0

    @property
    def cost_per_exchange(self) -> float:
        return self.cost_usd / self.exchanges if self.exchanges else 0.0


@dataclass(frozen=True)
class TableRow:
    row: Row
    scenarios: str
    with_memory: str
    without_memory: str
    failure: str


@dataclass(frozen=True)
class Table:
    rows: list[TableRow]
    notes: list[str] = field(default_factory=list)
    header: str = ""


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _rate(passed: int, total: int) -> str:
    return f"{passed}/{total} ({round(100 * passed / total)}%)" if total else "-"


def _typical(verdicts: Sequence[Verdict]) -> str:
    failures = Counter(v.failure for v in verdicts if not v.passed)
    if not failures:
        return ""
    failure, count = failures.most_common(1)[0]
    return f"{failure} ({count})"


def _scenario_row(row: Row, results: Sequence[ScenarioResult]) -> TableRow:
    mine = [r for r in results if r.row is row]
    languages = Counter(r.lang for r in mine)
    count = f"{len(mine)} (" + ", ".join(f"{k} {v}" for k, v in sorted(languages.items())) + ")"
    with_memory = [r.with_memory for r in mine]
    without = [r.without_memory for r in mine]
    seen = _typical(with_memory) or "none"
    baseline = _typical(without)
    if baseline:
        seen += f"; without memory: {baseline}"
    return TableRow(
        row=row,
        scenarios=count if mine else "0",
        with_memory=_rate(sum(v.passed for v in with_memory), len(mine)),
        without_memory=_rate(sum(v.passed for v in without), len(mine)),
        failure=seen,
    )


def _p50_p95(values: Sequence[float]) -> str:
    return f"{percentile(values, 50):.0f}/{percentile(values, 95):.0f}"


def _usage_cell(usage: Usage) -> str:
    return (
        f"{usage.tokens_per_exchange:,.0f} tok/exchange, ${usage.cost_per_exchange:.4f}; "
        f"context p50/p95 {_p50_p95(usage.context_ms)} ms"
    )


def cost_verdict(
    results: Sequence[ScenarioResult], with_memory: Usage, without: Usage
) -> tuple[bool, str]:
    """Whether memory's gain outweighs its cost: it wins more scenarios than it loses, and
    context assembly adds at most LATENCY_BUDGET_MS at p95."""
    wins = sum(r.with_memory.passed and not r.without_memory.passed for r in results)
    losses = sum(r.without_memory.passed and not r.with_memory.passed for r in results)
    added_tokens = with_memory.tokens_per_exchange - without.tokens_per_exchange
    added_p95 = percentile(with_memory.context_ms, 95) - percentile(without.context_ms, 95)
    pays = wins > losses and added_p95 <= LATENCY_BUDGET_MS
    summary = (
        f"{wins} scenarios won, {losses} lost, for {added_tokens:+,.0f} tok and "
        f"${with_memory.cost_per_exchange - without.cost_per_exchange:+.4f} per exchange, "
        f"{added_p95:+.0f} ms context p95"
    )
    if pays:
        return True, summary
    reason = "no net gain" if wins <= losses else "context assembly too slow"
    return False, f"{reason}: {summary}"


def build_table(
    results: Sequence[ScenarioResult],
    with_memory: Usage,
    without: Usage,
    *,
    header: str = "",
) -> Table:
    rows = [_scenario_row(row, results) for row in SCENARIO_ROWS]
    pays, summary = cost_verdict(results, with_memory, without)
    rows.append(
        TableRow(
            row=Row.COST_LATENCY,
            scenarios=f"{with_memory.exchanges} / {without.exchanges} exchanges",
            with_memory=_usage_cell(with_memory),
            without_memory=_usage_cell(without),
            failure=("pays off: " if pays else "does not pay off: ") + summary,
        )
    )
    notes = _notes(results)
    notes.append(
        "cost and latency: tokens and $ from the LLM calls of each condition's users; "
        "context = assembly for the probe question (/api/v1/context/ path); reply p50/p95 "
        f"{_p50_p95(with_memory.exchange_ms)} ms with memory, "
        f"{_p50_p95(without.exchange_ms)} ms without (extraction runs after the reply)"
    )
    return Table(rows=rows, notes=notes, header=header)


def _notes(results: Sequence[ScenarioResult]) -> list[str]:
    """Observations that did not decide a verdict, counted per row (with memory)."""
    notes = []
    for row in SCENARIO_ROWS:
        counts = Counter(n for r in results if r.row is row for n in r.with_memory.notes)
        total = sum(1 for r in results if r.row is row)
        for note, count in sorted(counts.items()):
            notes.append(f"{ROW_LABELS[row]}: {note} in {count}/{total}")
    return notes


_COLUMNS = ("row", "scenarios", "with memory", "without memory", "typical failure seen")


def _cells(row: TableRow) -> tuple[str, ...]:
    return (ROW_LABELS[row.row], row.scenarios, row.with_memory, row.without_memory, row.failure)


def render_text(table: Table) -> str:
    """A fixed-width table for the terminal, one block per row."""
    lines = [table.header] if table.header else []
    width = max(len(c) for c in _COLUMNS)
    for row in table.rows:
        lines.append("")
        for name, cell in zip(_COLUMNS, _cells(row), strict=True):
            lines.append(f"{name:<{width}}  {cell}")
    if table.notes:
        lines += ["", "notes:", *(f"- {note}" for note in table.notes)]
    return "\n".join(lines)


def _md(cell: str) -> str:
    return cell.replace("|", "\\|")


def render_markdown(table: Table) -> str:
    lines = [table.header, ""] if table.header else []
    lines.append("| " + " | ".join(_COLUMNS) + " |")
    lines.append("|" + "---|" * len(_COLUMNS))
    for row in table.rows:
        lines.append("| " + " | ".join(_md(c) for c in _cells(row)) + " |")
    if table.notes:
        lines += ["", *(f"- {_md(note)}" for note in table.notes)]
    return "\n".join(lines)


def readme_with_block(readme: str, block: str) -> str:
    """`readme` with the text between the eval_memory markers replaced by `block`.

    Without markers, a "Memory evaluation" section holding them is appended at the end.
    """
    body = f"{README_START}\n{block.strip()}\n{README_END}"
    pattern = re.compile(re.escape(README_START) + r".*?" + re.escape(README_END), re.DOTALL)
    if pattern.search(readme):
        return pattern.sub(lambda _: body, readme, count=1)
    return readme.rstrip("\n") + f"\n\n{README_HEADING}\n\n{body}\n"
