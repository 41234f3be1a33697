"""Run the quick benchmarks one after another (``make bench``), streaming each one's own output,
and end with ONE table: bench, what is measured, the ratio, the goal, whether it meets it.

Every benchmark reports its key ratios through ``bench/ratios.py`` (a tagged ``@ratio {json}``
line); this script reads those lines back. A benchmark that fails (exits non-zero, or reports
nothing) is a row saying so, and the others still run. ``--quick`` runs each with fewer guests
and repeats (the whole table in a few minutes: for checking the benches, not for figures).
``--write-docs`` puts the table into ``docs/benchmarks.md`` as the section "The table", with
the date and the machine, keeping every other section.

Left out because it takes minutes and starts servers: ``bench/bench_phones.py`` (500 phones
against gunicorn on PostgreSQL; see docs/benchmarks.md). Run it on its own.

Run: ``.venv/bin/python bench/run_all.py [--quick] [--only NAME,...] [--write-docs]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ratios import TAG  # noqa: E402

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent / "docs" / "benchmarks.md"

# (script, its arguments for a full run, its arguments for --quick)
QUICK: list[tuple[str, list[str], list[str]]] = [
    ("bench_hands.py", [], ["--repeat", "1"]),
    ("bench_draw.py", [], ["--guests", "200", "--repeat", "2"]),
    ("bench_bell.py", [], ["--guests", "200", "--repeat", "2"]),
    ("bench_formats.py", [], ["--players", "200", "--repeat", "2"]),
    ("bench_clock.py", [], ["--evenings", "5", "--guests", "60", "--repeat", "5"]),
    ("bench_board.py", [], ["--guests", "200", "--repeat", "5"]),
    ("bench_poll.py", [], ["--guests", "100", "--repeat", "3", "--requests", "300"]),
    ("bench_import.py", [], ["--guests", "100", "--rounds", "2", "--repeat", "2"]),
    ("bench_print.py", ["--repeat", "5", "--no-memory"], ["--guests", "100", "--repeat", "2", "--no-memory"]),
    ("bench_print_django.py", [], ["--guests", "60", "--repeat", "1"]),
    ("bench_host_pages.py", ["--http"], ["--guests", "100", "--repeat", "2"]),
    ("bench_season.py", [], ["--members", "20", "--evenings", "3", "--roster", "60", "--repeat", "2"]),
]


@dataclass(frozen=True)
class BenchRun:
    """One benchmark's run: its script name, exit code and everything it printed (text)."""

    bench: str
    returncode: int
    output: str


@dataclass(frozen=True)
class Row:
    """One row of the table, every cell already text: bench, what is measured (against which
    floor), the ratio, the goal and the verdict ("meets", "misses", "no goal" or "FAILED ...")."""

    bench: str
    measured: str
    ratio: str
    goal: str
    verdict: str


def _number(value: float) -> str:
    """A ratio as text with three significant figures or so: 0.42×, 3.61×, 23.4×, 512×."""
    if value >= 100:
        return f"{value:.0f}×"
    if value >= 10:
        return f"{value:.1f}×"
    return f"{value:.2f}×"


def ratios_in(output: str) -> list[dict]:
    """The ratios a benchmark reported (``bench/ratios.py``'s tagged lines) in ``output``, in
    order; a tagged line that is not valid JSON raises ``ValueError`` naming it."""
    found = []
    for line in output.splitlines():
        if line.startswith(TAG):
            try:
                found.append(json.loads(line[len(TAG) :]))
            except json.JSONDecodeError as error:
                raise ValueError(f"unreadable ratio line: {line!r}") from error
    return found


def row_for(bench: str, ratio: dict) -> Row:
    """The table's row for one reported ratio (a dict of ``bench/ratios.py``'s fields)."""
    value, goal, lower = ratio["value"], ratio.get("goal"), ratio.get("lower_is_better", True)
    measured = f"{ratio['name']} / {ratio['floor']}"
    text = _number(value) + (f" ({ratio['detail']})" if ratio.get("detail") else "")
    if goal is None:
        return Row(bench, measured, text, "—", "no goal")
    meets = value <= goal if lower else value >= goal
    return Row(bench, measured, text, ("≤ " if lower else "≥ ") + _number(goal), "meets" if meets else "misses")


def build_table(runs: list[BenchRun]) -> list[Row]:
    """The table's rows for ``runs``: one per reported ratio, and a "FAILED" row for a benchmark
    that exited non-zero (with its last line of output) or reported no ratio at all."""
    rows: list[Row] = []
    for run in runs:
        try:
            reported = ratios_in(run.output)
        except ValueError as error:
            rows.append(Row(run.bench, "—", "—", "—", f"FAILED: {error}"))
            continue
        rows.extend(row_for(run.bench, ratio) for ratio in reported)
        if run.returncode != 0:
            last = next((line for line in reversed(run.output.splitlines()) if line.strip()), "no output")
            rows.append(Row(run.bench, "—", "—", "—", f"FAILED (exit {run.returncode}): {last.strip()[:160]}"))
        elif not reported:
            rows.append(Row(run.bench, "—", "—", "—", "FAILED: no ratio reported"))
    return rows


def format_table(rows: list[Row]) -> str:
    """The rows as a Markdown table (what the terminal shows and docs/benchmarks.md keeps)."""
    lines = ["| bench | measured / floor | ratio | goal | verdict |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        cells = (row.bench, row.measured, row.ratio, row.goal, row.verdict)
        lines.append("| " + " | ".join(cell.replace("|", "/") for cell in cells) + " |")
    return "\n".join(lines)


def machine() -> str:
    """This machine in a few words: CPU model, cores, Python, OS and the load average now (for
    the table's heading)."""
    model = platform.processor() or platform.machine()
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.M)
        model = found.group(1).strip() if found else model
    except OSError:
        pass
    load = f", load average {os.getloadavg()[0]:.1f} at the end" if hasattr(os, "getloadavg") else ""
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}{load}"


def docs_section(rows: list[Row], when: str, where: str, quick: bool) -> str:
    """The section "The table" of docs/benchmarks.md: heading, when and where, the table."""
    mode = "`make bench` with `--quick` (fewer guests and repeats)" if quick else "`make bench`"
    return (
        "## The table\n\n"
        f"{mode}, {when}, on {where} (shared with other work: read the ratios, not the times). "
        "Each ratio is interleaved with its bare baseline in the same run, best of N; the "
        "goals are issue 26's. The sections below give each benchmark's details.\n\n" + format_table(rows) + "\n"
    )


def write_docs(text: str, section: str) -> str:
    """``text`` (docs/benchmarks.md) with its section "The table" replaced by ``section``, or
    ``section`` put before the first other section when there is none yet; returns the text."""
    pattern = re.compile(r"^## The table\n.*?(?=^## |\Z)", re.M | re.S)
    if pattern.search(text):
        return pattern.sub(lambda _: section + "\n", text, count=1)
    head, sep, rest = text.partition("\n## ")
    return head.rstrip("\n") + "\n\n" + section + ("\n## " + rest if sep else "")


def run_one(script: str, args: list[str]) -> BenchRun:
    """Run ``bench/<script>`` with this Python, streaming its output as it comes; returns the run.
    A script that cannot start is a run with exit code 127 and the reason as its output."""
    lines: list[str] = []
    try:
        process = subprocess.Popen(
            [sys.executable, "-u", str(HERE / script), *args],
            cwd=HERE.parent,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
    except OSError as error:
        return BenchRun(script, 127, str(error))
    assert process.stdout is not None
    for line in process.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    return BenchRun(script, process.wait(), "".join(lines))


def main(argv: list[str] | None = None) -> int:
    """Run the quick benchmarks (all, or ``--only`` some), print the table; returns the number
    of benchmarks that failed (0 when all ran, whatever their verdicts)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer guests and repeats")
    parser.add_argument("--only", default="", help="comma-separated scripts, e.g. bench_draw.py")
    parser.add_argument("--write-docs", action="store_true", help="put the table into docs/benchmarks.md")
    args = parser.parse_args(argv)
    only = {name if name.endswith(".py") else name + ".py" for name in args.only.split(",") if name}
    runs = []
    for script, full, quick in QUICK:
        if only and script not in only:
            continue
        print(f"\n=== {script}", flush=True)
        start = time.perf_counter()
        runs.append(run_one(script, quick if args.quick else full))
        print(f"=== {script}: exit {runs[-1].returncode}, {time.perf_counter() - start:.0f} s", flush=True)
    rows = build_table(runs)
    print("\n" + format_table(rows))
    if args.write_docs:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        DOCS.write_text(write_docs(DOCS.read_text(), docs_section(rows, when, machine(), args.quick)))
        print(f'\nwritten to {DOCS.relative_to(HERE.parent)}, section "The table"')
    return len({row.bench for row in rows if row.verdict.startswith("FAILED")})


if __name__ == "__main__":
    sys.exit(main())
