"""Run the quick benchmarks one after another (``make bench``); each prints its own ratios.

Left out because it takes minutes and starts servers: ``bench/bench_phones.py`` (500 phones
against gunicorn on PostgreSQL; see docs/benchmarks.md). Run it on its own.
"""

import subprocess
import sys
from pathlib import Path

QUICK = [
    "bench_hands.py",
    "bench_draw.py",
    "bench_bell.py",
    "bench_formats.py",
    "bench_clock.py",
    "bench_board.py",
    "bench_poll.py",
    "bench_import.py",
    "bench_print.py",
    "bench_print_django.py",
]


def main() -> int:
    """Run each quick benchmark with this Python; returns the number that failed."""
    here = Path(__file__).resolve().parent
    failed = 0
    for name in QUICK:
        print(f"\n=== {name}", flush=True)
        failed += subprocess.call([sys.executable, str(here / name)], cwd=here.parent) != 0
    return failed


if __name__ == "__main__":
    sys.exit(main())
