"""The one way a benchmark reports a ratio to ``make bench``'s table (``bench/run_all.py``).

Each quick benchmark calls ``report(...)`` once per key ratio, after printing its own figures.
``report`` prints one tagged line, ``@ratio {json}``, which ``run_all.py`` reads from the
benchmark's output to build the table (``docs/benchmarks.md``, "The table"). House rule: a
ratio is always measured against a bare baseline in the same run, interleaved, best of N.
"""

from __future__ import annotations

import json

TAG = "@ratio "


def report(
    name: str,
    value: float,
    floor_name: str,
    goal: float | None = None,
    lower_is_better: bool = True,
    *,
    detail: str = "",
) -> str:
    """Print and return the tagged line of one ratio.

    Takes the ratio's ``name`` (what is measured, e.g. "host board, 500 guests"), its ``value``
    (a plain number: time over the baseline's time, or a rate over the baseline's rate),
    ``floor_name`` (the bare baseline it is a multiple of, e.g. "a bare Django view"), the
    ``goal`` (``None``: reported for information, no verdict) and whether a lower value is the
    better one (times: yes; throughputs: no). ``detail`` is a short note printed in the table
    after the ratio (e.g. "38 queries at 60 and 500 guests"). Raises ``ValueError`` for a value
    that is not a finite number (a ratio that cannot be measured is a failure, not a row).
    Goals come from issue 26 ("house rule: the benches' goals").
    """
    value = float(value)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{name}: the ratio {value} is not a number")
    line = TAG + json.dumps(
        {
            "name": name,
            "value": value,
            "floor": floor_name,
            "goal": goal,
            "lower_is_better": lower_is_better,
            "detail": detail,
        },
        ensure_ascii=False,
    )
    print(line, flush=True)
    return line
