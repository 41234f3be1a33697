"""Benchmark: a club's season pages against a bare Django view in the same run (issue 25 item 7),
and their SQL queries as the season and the club grow, which must not grow.

Builds, in a throwaway SQLite database under ``var/bench-<pid>/`` (or ``--database-url``), two
Bunco clubs of the host's, each with a season of settled evenings played through the services
(every guest checked in, the digital draw, ``--rounds`` rounds of every table's example result
and the host's bell, an entry fee and a booby payout, the evening settled):

* a *small* club: 12 members, 2 evenings;
* a *large* one: ``--members`` members (60) and ``--evenings`` evenings (52: a year of weekly
  nights), every member at every evening;

and, for the club of 500 members, a club of ``--roster`` members (500) with two evenings of 60 of
them. For each club it GETs, through Django's test client, the season page (the season's
standings), the season's ledger page and the first member's private page, twice for the
queries (the second GET's, the first warming up; counted with ``connection.execute_wrapper``, no
cap), then ``--repeat`` rounds interleaved with the bare view ``/bench/bare/`` on the largest,
best of each kept, each page three ways:

* *warm*: drawn again unchanged, right after an untimed GET of the same page (the season's
  standings, ledger and calendar kept for its version);
* *cold*: the season's last evening's version bumped before each GET (untimed), as a bell, a
  correction or an undo in it does (``tournament.services.versions.evening_touch``): the
  standings are summed again, the other evenings' tallies kept;
* *nothing kept*: every kept standings, tallies, ledger and calendar forgotten before each GET (untimed),
  as in a process that has just started.

Prints per page the queries for each club ("grows" where they differ; warm, then cold), the
best times and the ratios to the bare view, and reports the ratios through ``bench/ratios.py``
(the warm ones against issue 26's goal, 50).

Run: ``.venv/bin/python bench/bench_season.py [--members 60] [--evenings 52] [--roster 500]
[--rounds 2] [--repeat 5] [--database-url URL]``. Building the large season takes a few
minutes (52 evenings of 60 guests, played through the rules).
"""

from __future__ import annotations

import argparse
import datetime
import time

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from pages import BARE, counted_get, interleaved, use_bare_urls  # noqa: E402
from ratios import report  # noqa: E402

PAGES = ("season standings", "ledger", "a member's page")
WAYS = ("warm", "cold", "nothing kept")


def season_of(host, *, name: str, members: int, evenings: int, playing: int, rounds: int):
    """A Bunco club of ``members`` (half red, half blue) and a season of ``evenings`` settled
    evenings of its first ``playing`` members, one a week from 5 January 2026. Returns
    (club, season, the first member's link)."""
    from clubs import kitty, services
    from clubs.calendar import member_links_issue
    from tables.kitty import Payout
    from tests.fixtures_clubs import club_evening, play
    from tournament.models import Evening

    club = services.club_create(
        host=host, name=name, format="bunco", evening_settings={"minutes_per_round": 15, "rounds_planned": rounds}
    )
    roster = "\n".join(f"Member {n:03d} of {name}, {'red' if n % 2 else 'blue'}" for n in range(members))
    services.members_add(club=club, rows=services.parse_member_list(roster, club=club))
    season = services.season_open(club=club, name="The year", starts_on=datetime.date(2026, 1, 5))
    chosen = list(club.members.order_by("id")[:playing])
    for week in range(evenings):
        date = datetime.date(2026, 1, 5) + datetime.timedelta(days=7 * week)
        evening = club_evening(club, host, date, members=chosen)
        Evening.objects.filter(pk=evening.pk).update(rounds_planned=rounds)  # the last round ends it
        evening = play(Evening.objects.get(pk=evening.pk), host, rounds=rounds)
        kitty.kitty_set(evening=evening, fee=300, payouts=(Payout("booby", "Booby", cents=500),))
        kitty.evening_settle(evening=evening)
    link = member_links_issue(season=season)[0]
    return club, season, link


def bump_of(season):
    """A call that bumps the season's last evening's version, as a bell rung, a correction or an
    undo in it does (``evening_touch``, outside any transaction: published at once)."""
    from clubs.selectors import season_evenings
    from tournament.services.versions import evening_touch

    last = season_evenings(season)[-1]
    return lambda: evening_touch(evening=last)


def forget() -> None:
    """Forget every season's standings, ledger and calendar and every evening's tallies this
    process keeps (``tournament.kept.kept_forget``)."""
    from tournament.kept import kept_forget

    kept_forget()


def urls(club, season, link) -> dict[str, str]:
    """The benchmarked pages' URLs for one club."""
    from django.urls import reverse

    return {
        "season standings": reverse("club-season", args=[club.pk, season.pk]),
        "ledger": reverse("club-ledger", args=[club.pk, season.pk]),
        "a member's page": reverse("member-page", args=[link.key]),
    }


def main() -> None:
    """Build the clubs, print every page's queries, time and ratio; report the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=60)
    parser.add_argument("--evenings", type=int, default=52)
    parser.add_argument("--roster", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with bench_database(args.database_url) as connection:
        from django.contrib.auth import get_user_model
        from django.test import Client

        use_bare_urls()
        host = get_user_model().objects.create_user("bench-host", password="pass-word-123")
        client = Client()
        client.force_login(host)
        started = time.perf_counter()
        clubs = {
            "12 members, 2 evenings": season_of(host, name="Small", members=12, evenings=2, playing=12, rounds=1),
            f"{args.members} members, {args.evenings} evenings": season_of(
                host,
                name="Year",
                members=args.members,
                evenings=args.evenings,
                playing=args.members,
                rounds=args.rounds,
            ),
            f"{args.roster} members, 2 evenings": season_of(
                host, name="Roster", members=args.roster, evenings=2, playing=min(60, args.roster), rounds=1
            ),
        }
        print(f"built the clubs in {time.perf_counter() - started:.0f} s ({connection.vendor})")
        pages = {label: urls(*club) for label, club in clubs.items()}
        bumps = {label: bump_of(club[1]) for label, club in clubs.items()}
        queries: dict[str, dict[str, tuple[int, int]]] = {}
        for label, club_urls in pages.items():
            for page, url in club_urls.items():
                counted_get(client, url)
                response, warm, _ = counted_get(client, url)
                assert response.status_code == 200, (label, page, response.status_code)
                bumps[label]()
                response, cold, _ = counted_get(client, url)
                assert response.status_code == 200, (label, page, response.status_code)
                queries.setdefault(page, {})[label] = (warm, cold)
        large = list(pages)[1]
        ways = {"bare": lambda: counted_get(client, BARE)}
        for page in PAGES:
            url = pages[large][page]
            # drawn once untimed first: the way before it (another page's cold or nothing kept) left it cold
            ways[f"{page}, warm"] = lambda url=url: (client.get(url), counted_get(client, url))[1]
            ways[f"{page}, cold"] = lambda url=url: (bumps[large](), counted_get(client, url))[1]
            ways[f"{page}, nothing kept"] = lambda url=url: (forget(), counted_get(client, url))[1]
        best = interleaved(ways, args.repeat)
        bare = best.pop("bare").seconds
        print(f"the season's pages, best of {args.repeat} interleaved; bare view {bare * 1000:.2f} ms")
        print(f"{'page':20}{'queries by club (warm/cold)':>40}" + "".join(f"{w + ' ms':>17}{'ratio':>7}" for w in WAYS))
        for page in PAGES:
            counts = queries[page]
            said = ", ".join(f"{w}/{c}" for w, c in counts.values())
            said += " (grows)" if len(set(counts.values())) > 1 else ""
            times = "".join(
                f"{best[f'{page}, {w}'].seconds * 1000:17.1f}{best[f'{page}, {w}'].seconds / bare:7.0f}" for w in WAYS
            )
            print(f"{page:20}{said:>40}{times}")
        for page in PAGES:
            counts = queries[page]
            for way in WAYS:
                report(
                    f"club season: {page}, {large}, {way}",
                    best[f"{page}, {way}"].seconds / bare,
                    "a bare Django view",
                    goal=50 if way == "warm" else None,
                    detail="; ".join(
                        f"{n[0 if way == 'warm' else 1]} queries for {label}" for label, n in counts.items()
                    ),
                )


if __name__ == "__main__":
    main()
