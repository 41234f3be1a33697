"""``make bench``'s one table (``bench/run_all.py``), built from canned benchmark output: the rows,
their ratios, goals and verdicts, and a failing benchmark shown as a row. No benchmark runs here
and nothing is timed (house rule: speed is measured by the benches, never by timed tests)."""

from __future__ import annotations

import importlib.util
import io
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str):
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{name}_module", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


run_all = _load("run_all")
ratios = _load("ratios")
bells = _load("bells")


def tagged(*args, **kwargs) -> str:
    """The line ``ratios.report`` prints for these arguments (its printing swallowed)."""
    with redirect_stdout(io.StringIO()):
        return ratios.report(*args, **kwargs)


def canned() -> list:
    """Three benchmarks' output: one meeting and one missing its goal, one crashing midway."""
    draw = "\n".join(
        [
            "database: sqlite",
            "digital draw and save, 500 guests, best of 5:     41.0 ms",
            tagged("digital draw, 500 guests", 4.7, "a bare bulk_create of its seats", 2.5),
            tagged("poll 304, django-redis", 0.84, "a bare Django view", 0.8, lower_is_better=False),
        ]
    )
    pages = "\n".join(
        [
            tagged("guests page, poker, 500 guests", 337.0, "a bare Django view", 50, detail="9 queries, constant"),
            tagged("board poll, changed / unchanged", 41.3, "its 304"),
        ]
    )
    broken = "\n".join(
        [
            tagged("import, 500 guests", 2.1, "the export", 3),
            "Traceback (most recent call last):",
            "AssertionError: an unchanged poll must be an empty 304",
        ]
    )
    return [
        run_all.BenchRun("bench_draw.py", 0, draw),
        run_all.BenchRun("bench_host_pages.py", 0, pages),
        run_all.BenchRun("bench_import.py", 1, broken),
        run_all.BenchRun("bench_clock.py", 0, "room display: nothing tagged\n"),
    ]


def test_every_ratio_is_a_row_with_its_goal_and_verdict():
    rows = run_all.build_table(canned())
    assert [(r.bench, r.measured, r.ratio, r.goal, r.verdict) for r in rows] == [
        ("bench_draw.py", "digital draw, 500 guests / a bare bulk_create of its seats", "4.70×", "≤ 2.50×", "misses"),
        ("bench_draw.py", "poll 304, django-redis / a bare Django view", "0.84×", "≥ 0.80×", "meets"),
        (
            "bench_host_pages.py",
            "guests page, poker, 500 guests / a bare Django view",
            "337× (9 queries, constant)",
            "≤ 50.0×",
            "misses",
        ),
        ("bench_host_pages.py", "board poll, changed / unchanged / its 304", "41.3×", "—", "no goal"),
        ("bench_import.py", "import, 500 guests / the export", "2.10×", "≤ 3.00×", "meets"),
        (
            "bench_import.py",
            "—",
            "—",
            "—",
            "FAILED (exit 1): AssertionError: an unchanged poll must be an empty 304",
        ),
        ("bench_clock.py", "—", "—", "—", "FAILED: no ratio reported"),
    ]


def test_a_goal_met_exactly_meets_it_either_way():
    exact_time = run_all.row_for("b", {"name": "n", "value": 3.0, "floor": "f", "goal": 3.0})
    exact_rate = run_all.row_for("b", {"name": "n", "value": 0.8, "floor": "f", "goal": 0.8, "lower_is_better": False})
    slow_rate = run_all.row_for("b", {"name": "n", "value": 0.79, "floor": "f", "goal": 0.8, "lower_is_better": False})
    assert (exact_time.verdict, exact_rate.verdict, slow_rate.verdict) == ("meets", "meets", "misses")


def test_the_table_is_markdown_with_one_line_per_row():
    rows = run_all.build_table(canned())
    table = run_all.format_table(rows).splitlines()
    assert table[0] == "| bench | measured / floor | ratio | goal | verdict |"
    assert len(table) == 2 + len(rows)
    assert table[2] == (
        "| bench_draw.py | digital draw, 500 guests / a bare bulk_create of its seats | 4.70× | ≤ 2.50× | misses |"
    )


def test_a_ratio_that_is_no_number_is_refused():
    with pytest.raises(ValueError, match="not a number"):
        tagged("draw", float("inf"), "a bare bulk_create")


def test_the_docs_section_replaces_the_old_one_and_keeps_the_others():
    rows = run_all.build_table(canned()[:1])
    section = run_all.docs_section(rows, "2026-12-02 07:00 UTC", "a 2-core box", quick=False)
    fresh = run_all.write_docs("# Benchmarks\n\nIntro.\n\n## The bell\n\nBell text.\n", section)
    assert fresh.index("## The table") < fresh.index("## The bell")
    assert "Bell text." in fresh and "2026-12-02 07:00 UTC" in fresh and "4.70×" in fresh
    again = run_all.write_docs(fresh, section.replace("4.70×", "2.00×"))
    assert again.count("## The table") == 1 and "2.00×" in again and "4.70×" not in again
    assert again.endswith("## The bell\n\nBell text.\n")


def test_every_quick_bench_has_a_quick_set_of_arguments_and_exists():
    for script, _full, quick in run_all.QUICK:
        assert (BENCH / script).exists(), script
        assert quick, f"{script} has no --quick arguments"


def test_the_phones_bench_rings_a_bell_whatever_the_duration():
    # 5 minutes, a bell every 2: at 2 and 4 minutes (none in the last 10 s).
    assert bells.bell_offsets(300, 120) == [120, 240]
    # 2 minutes, a bell every 2 (issue 26: this rang none): one, halfway to 110 s.
    assert bells.bell_offsets(120, 120) == [55]
    # 90 s, a bell every 30 s: 30 and 60 s; 90 s is in the last 10 s.
    assert bells.bell_offsets(90, 30) == [30, 60]
    # 10 s or less leaves no time to see a bell.
    assert bells.bell_offsets(10, 120) == []
