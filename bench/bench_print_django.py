"""Benchmark: every document for a 500-guest evening through the Django path, against the bare
renderer on the same values in the same run.

Builds an evening of ``--guests`` checked-in guests (names in many scripts) in a throwaway
SQLite database under ``var/bench-<pid>/``, runs the digital draw, plays two rounds, and then,
for each document: one cold request to its download view (the text layout's caches emptied
first, so every name is laid out and shaped afresh, as in a fresh worker), then, interleaved
``--repeat`` times and the best of each kept, one request through Django's test client (login,
query, values, render, response) and, as the baseline, the renderer's ``render()`` alone on
values already built. The ratio is what the Django glue (queries and building the values) costs
on top of drawing the PDF. Also times the print page, which checks every document without
drawing one (``bench_host_pages.py`` times it against a bare view).

Run: ``.venv/bin/python bench/bench_print_django.py [--guests 500] [--repeat 2]``.
"""

from __future__ import annotations

import argparse
import time

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from ratios import report  # noqa: E402


def once(fn) -> tuple[float, object]:
    """Wall time in seconds of one ``fn()``, and its result."""
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def fresh() -> None:
    """Forget every fitted text, laid-out line and shaped run (the fonts stay registered)."""
    from tournament.printing import text

    text.forget_layouts()


def main() -> None:
    """Print, per document, the request time, the bare render time and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    with bench_database():
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.urls import reverse

        from tests.fixtures_printing import guest_names, play_round
        from tournament.documents.contents import DOCUMENTS, document
        from tournament.models import Evening, Guest
        from tournament.services.draws import draw_digital
        from tournament.views.printing import URL_NAMES

        host = get_user_model().objects.create_user("bench-host", password="x")
        evening = Evening.objects.create(
            host=host, name="Bench evening", date="2026-12-04", rounds_planned=5, counter_value="0.10"
        )
        names = guest_names()[:38]
        Guest.objects.bulk_create(
            [
                Guest(
                    evening=evening,
                    name=f"{names[i % 38]} {i}",
                    name_key=f"k{i}",
                    pack="red" if i % 2 else "blue",
                    status=Guest.Status.HERE,
                )
                for i in range(args.guests)
            ]
        )
        draw_digital(evening=evening)
        play_round(evening)
        play_round(evening)
        evening.refresh_from_db()
        client = Client()
        client.force_login(host)

        print(f"{args.guests} guests, A4, best of {args.repeat}")
        print(f"{'document':28}{'cold s':>8}{'request s':>10}{'render s':>10}{'ratio':>7}{'pages':>7}")
        page_t, _ = min(once(lambda: client.get(reverse("host-print", args=[evening.pk]))) for _ in range(args.repeat))
        print(f"{'print page (checks all)':28}{'':8}{page_t:10.3f}")
        for kind in DOCUMENTS:
            for variant, _ in kind.variants:
                link = reverse(URL_NAMES[kind.slug], args=[evening.pk]) + f"?variant={variant}"
                fresh()
                t_cold, response = once(lambda link=link: client.get(link))
                assert response.status_code == 200, response.content[:300]
                renderer = document(evening=evening, slug=kind.slug, variant=variant, base_url="http://testserver")
                t_req = t_bare = float("inf")
                for _ in range(args.repeat):
                    seconds, response = once(lambda link=link: client.get(link))
                    assert response.status_code == 200, response.content[:300]
                    t_req = min(t_req, seconds)
                    seconds, pdf = once(renderer.render)
                    t_bare = min(t_bare, seconds)
                pages = pdf.count(b"/Type /Page\n") or pdf.count(b"/Type /Page")
                print(
                    f"{kind.slug + ' ' + variant:28}{t_cold:8.3f}{t_req:10.3f}{t_bare:10.3f}"
                    f"{t_req / t_bare:7.2f}{pages:7d}",
                    flush=True,
                )
                if variant == kind.variants[0][0]:
                    report(
                        f"{kind.slug} ({variant}), {args.guests} guests, the download",
                        t_req / t_bare,
                        "its renderer alone on built values",
                        detail=f"cold {t_cold:.2f} s",
                    )


if __name__ == "__main__":
    main()
