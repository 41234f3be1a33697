"""The terminal path: an evening from a CSV through five bells with the management commands.

After each bell: every guest sits at exactly one table, table sizes are unchanged, the moves
are the ones the rules give (docs/rules/progressive-poker.md), and the JSON export says the same.
"""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tournament.models import Evening, Guest, Seat


def run(*args) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue()


@pytest.fixture
def guest_csv(tmp_path):
    path = tmp_path / "guests.csv"
    names = [f"Lady {c}" for c in "ABCDEFGHIJKLMNO"] + [f"Gent {c}" for c in "ABCDEFGHIJKLMNO"]
    rows = ["name,pack"] + [f"{n},{'red' if n.startswith('Lady') else 'blue'}" for n in names]
    path.write_text("\ufeff" + "\n".join(rows), encoding="utf-8")
    return path


def tables_now(evening):
    seats = {}
    for name, table in Seat.objects.filter(evening=evening).values_list("guest__name", "table"):
        seats.setdefault(table, set()).add(name)
    return seats


@pytest.mark.django_db
def test_five_bells_from_the_terminal(guest_csv, tmp_path):
    evening_id = run("evening_create", "Terminal evening", "--csv", str(guest_csv), "--check-in").strip()
    evening = Evening.objects.get(pk=evening_id)
    assert evening.guests.count() == 30
    drawn = run("draw", evening_id)
    assert len(drawn.strip().splitlines()) == 30
    sizes = {t: len(g) for t, g in tables_now(evening).items()}
    assert sizes[1] == 4 and sizes[max(sizes)] == 4 and sum(sizes.values()) == 30
    booby = max(sizes)
    stake = {g.name: 50 for g in evening.guests.all()}

    for round_number in range(1, 6):
        assert run("round_start", evening_id).startswith(f"round {round_number}")
        before = tables_now(evening)
        winners = {t: sorted(names)[round_number % len(names)] for t, names in before.items()}
        head = sorted(before[1])
        # The head table: the winner takes 5 counters from each other player; the player seated
        # first alphabetically (if not the winner) called, so stays even with the fewest.
        caller = next(n for n in head if n != winners[1])
        for name in head:
            stake[name] += 15 if name == winners[1] else -5
        counts = [f"--counters={n}={stake[n]}" for n in head]
        run("result", evening_id, "--table", "1", "--winner", winners[1], "--call", caller, *counts)
        for table in range(2, booby + 1):
            run("result", evening_id, "--table", str(table), "--winner", winners[table])
        lines = run("bell", evening_id).strip().splitlines()
        assert any(line.startswith("yellow\t" + winners[1]) for line in lines)
        after = tables_now(evening)
        # Sizes kept; everyone exactly once.
        assert {t: len(g) for t, g in after.items()} == sizes
        everyone = [n for names in after.values() for n in names]
        assert len(everyone) == len(set(everyone)) == 30
        # Pool winners at tables 2.. moved up one table.
        for table in range(2, booby + 1):
            assert winners[table] in after[table - 1]
        # The head table's fewest counters not in the call (ties by cut) went to the booby table.
        not_in_call = [n for n in head if n not in (winners[1], caller)]
        fewest = min(stake[n] for n in not_in_call)
        down = [n for n in not_in_call if n in after[booby]]
        assert len(down) == 1 and stake[down[0]] == fewest
        assert caller in after[1] and winners[1] in after[1]

        exported = json.loads(run("export_evening", evening_id))
        names = {g["id"]: g["name"] for g in exported["guests"]}
        assert {t["number"]: {names[g] for g in t["guests"]} for t in exported["tables"]} == after
        assert len(exported["rounds"]) == round_number
        moved = {m["guest"] for m in exported["moves"] if m["round"] == round_number}
        assert {names[g] for g in moved} >= {winners[t] for t in range(2, booby + 1)} | set(down)

    yellow = {row["guest"]: row["yellow"] for row in exported["standings"]}
    assert sum(yellow.values()) == 5


@pytest.mark.django_db
def test_commands_refuse_bad_input_with_a_message(guest_csv, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("name,pack\nAnne,red\n,blue\nBob,green\n", encoding="utf-8")
    with pytest.raises(CommandError, match="Row 3: The name is empty"):
        run("evening_create", "Bad", "--csv", str(bad))
    assert not Evening.objects.exists()
    small = tmp_path / "small.csv"
    small.write_text("\n".join(f"G{i},red" for i in range(7)), encoding="utf-8")
    evening_id = run("evening_create", "Small", "--csv", str(small), "--check-in").strip()
    with pytest.raises(CommandError, match="8"):
        run("draw", evening_id)
    with pytest.raises(CommandError, match="No round is in play"):
        run("bell", evening_id)
    with pytest.raises(CommandError, match="No evening"):
        run("draw", "999999")


@pytest.mark.django_db
def test_a_result_for_someone_not_at_that_table_is_refused(guest_csv):
    evening_id = run("evening_create", "E", "--csv", str(guest_csv), "--check-in").strip()
    run("draw", evening_id)
    run("round_start", evening_id)
    evening = Evening.objects.get(pk=evening_id)
    outsider = Guest.objects.filter(evening=evening, seat__table=2).first()
    with pytest.raises(CommandError):
        run("result", evening_id, "--table", "3", "--winner", outsider.name)


@pytest.mark.django_db
def test_the_seating_cards_command_writes_a_pdf(guest_csv, tmp_path):
    evening_id = run("evening_create", "E", "--csv", str(guest_csv), "--check-in").strip()
    with pytest.raises(CommandError, match="No draw yet"):
        run("print_document", evening_id, "seating-cards", "-o", str(tmp_path / "x.pdf"))
    run("draw", evening_id)
    out = tmp_path / "cards.pdf"
    run("print_document", evening_id, "seating-cards", "-o", str(out))
    from pypdf import PdfReader

    text = " ".join(page.extract_text() for page in PdfReader(out).pages)
    for guest in Guest.objects.filter(evening_id=evening_id):
        assert guest.name in text
