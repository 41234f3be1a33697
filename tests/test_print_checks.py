"""The print page's check of each document (``FormatPlugin.document_check``, issue 26 item 3)
says what building the document says: in every format, for every document and variant, at
every point of an evening (before the draw, drawn, a revoked link, a guest gone, a result in,
a bell rung, the evening ended, everyone gone), the reason the page shows (or none) is the
error the document's builder raises (or none), in the same words. The checks skip the rows
(a card per guest); the builders are what the downloads run."""

from __future__ import annotations

import pytest

from tables.errors import RuleError
from tests.test_capabilities import KEYS, _evening, _play
from tournament.documents.contents import document, document_problem, documents_for, one_outcome
from tournament.models import Evening, Guest
from tournament.registry import format_for
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.ending import evening_end
from tournament.services.guests import guest_reissue_key
from tournament.services.links import guest_revoke_key
from tournament.services.naming import error_message

pytestmark = pytest.mark.django_db


def _built(evening: Evening, slug: str, variant: str) -> str:
    """The reason in words the builder gives (the download's), or "" when it builds."""
    try:
        document(evening=evening, slug=slug, variant=variant)
    except RuleError as error:
        return error_message(error, evening)
    return ""


def _same(evening: Evening) -> list[str]:
    """Every (document, variant)'s reason by the check, inside the print page's
    ``one_outcome()``, asserted equal to the builder's; returns the reasons (to see that the
    states below reach the refusals)."""
    evening.refresh_from_db()
    reasons = []
    with one_outcome():
        for kind in documents_for(evening):
            for variant, _ in kind.variants:
                checked = document_problem(evening=evening, slug=kind.slug, variant=variant)
                assert checked == _built(evening, kind.slug, variant), (evening.format, kind.slug, variant)
                reasons.append(checked)
    return reasons


def _seated_guest(evening: Evening) -> Guest:
    state = format_for(evening).state(evening)
    return Guest.objects.get(pk=next(p for table in state.tables for p in table if p > 0))


@pytest.mark.parametrize("key", KEYS)
def test_the_check_says_what_the_builder_says_through_an_evening(host, key):
    evening = _evening(host, key, guests=13)
    before = _same(evening)
    assert any(reason.startswith("No draw yet") for reason in before)
    draw_digital(evening=evening, user=host)
    assert _same(evening)
    revoked = guest_revoke_key(guest=_seated_guest(evening), user=host)
    assert any("revoked" in reason for reason in _same(evening))
    guest_reissue_key(guest=revoked, user=host)
    assert not any("revoked" in reason for reason in _same(evening))
    evening.refresh_from_db()
    rnd = round_start(evening=evening, user=host)
    format_for(evening).example_result(evening=evening, rnd=rnd, table=1, user=host)
    _same(evening)  # a result in, no bell yet
    evening.refresh_from_db()
    _play_on(evening, host, rnd)
    assert "" in _same(evening)
    gone = guest_revoke_key(guest=_seated_guest(evening), user=host)
    assert any("revoked" in reason for reason in _same(evening))
    evening.refresh_from_db()
    format_for(evening).seat_change(evening=evening, guest=gone, leaving=True, user=host, device="")
    _same(evening)  # no card for them now (a tournament's schedule keeps their card)
    evening.refresh_from_db()
    evening_end(evening=evening, seen_round=evening.rounds.count(), user=host)
    _same(evening)


def _play_on(evening: Evening, host, rnd) -> None:
    """Report round ``rnd``'s other tables and ring its bell."""
    from tournament.services.clock import round_ring

    fmt = format_for(evening)
    for table in range(2, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
    evening.refresh_from_db()
    if evening.rounds.get(pk=rnd.pk).state != "closed":
        round_ring(evening=evening, user=host)


@pytest.mark.parametrize("key", KEYS)
def test_the_check_says_what_the_builder_says_when_everyone_has_gone_and_after_the_last_round(host, key):
    evening = _evening(host, key, guests=13, rounds=1)
    draw_digital(evening=evening, user=host)
    _play(evening, host, rounds=1)  # the only round planned: the evening ends at its bell
    _same(evening)
    Guest.objects.filter(evening=evening).update(status=Guest.Status.LEFT)
    _same(evening)


def test_the_print_pages_pull_list_note_agrees_with_its_count(make_evening):
    """Found by trying the product: "1 of the Gentlemen draw from the other pack"."""
    from tournament.documents.contents import pull_list_note

    one = make_evening(6, 8, red_label="Ladies", blue_label="Gentlemen")
    assert pull_list_note(one) == "1 of the Gentlemen draws from the other pack"
    two = make_evening(5, 9, red_label="Ladies", blue_label="Gentlemen")
    assert pull_list_note(two) == "2 of the Gentlemen draw from the other pack"
