"""When ``bench/bench_phones.py`` rings its bells (a module of its own so that the tests can read
it: the bench itself parses its arguments on import)."""

from __future__ import annotations

BELL_TAIL = 10.0  # seconds after the last bell for every phone to see it


def bell_offsets(duration: float, every: float, tail: float = BELL_TAIL) -> list[float]:
    """When the bells ring, in seconds from the phones' start, for a run of ``duration`` seconds
    with a bell every ``every`` seconds: the first at ``every`` or halfway to ``duration - tail``,
    whichever comes first (so a run shorter than a bell's interval still rings one), then every
    ``every`` seconds up to ``duration - tail`` (the last ``tail`` seconds are the phones' time
    to see it). Empty only when ``duration <= tail``. House rule: every run rings a bell (issue
    26 item 7)."""
    last = duration - tail
    if last <= 0:
        return []
    first = min(every, last / 2)
    offsets = []
    while first + len(offsets) * every <= last:
        offsets.append(first + len(offsets) * every)
    return offsets
