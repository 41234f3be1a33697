"""The helpers' links in the evening export and import (schema "head-table/evening/1",
docs/export.md; issue 23): which scorer's link sent a table's result.

A file lists the evening's links (``helper_links``: number, role, label, when made, when
revoked; never the key, as no private link's key is exported) and each result names the link it
was sent from by its number (``reported_by_helper``, null for a guest's or the host's result).
The import gives every link a new key (the host shows the new QR codes from the door page) and
keeps whether it was revoked. A file without them (made before issue 23) imports as before: no
links, every result the guest's or the host's. Each format's codec stores the sender with its
results (``helper_link_ids``), as it stores the reporting guest.
"""

from __future__ import annotations

from typing import Any

from tournament.exchange.rows import EveningImportError, _all_saved, _checked, _time, where
from tournament.models import Evening, HelperLink
from tournament.services.helpers import MAX_LIVE_LINKS


def helper_links_export(evening: Evening) -> list[dict[str, Any]]:
    """The evening's helpers' links as export rows, by number (one query): number, role
    ("door"/"scorer"), label, created_at and revoked_at (ISO times, revoked_at null for a live
    link). Keys are never exported."""
    return [
        {
            "number": link.number,
            "role": link.role,
            "label": link.label,
            "created_at": link.created_at.isoformat() if link.created_at else None,
            "revoked_at": link.revoked_at.isoformat() if link.revoked_at else None,
        }
        for link in HelperLink.objects.filter(evening=evening).order_by("number")
    ]


def helper_links_check(data: dict[str, Any]) -> None:
    """Check the file's links and every result's ``reported_by_helper`` before anything is
    saved: link numbers are unique, at most ``MAX_LIVE_LINKS`` (20) are live (as the door page
    allows), a result names a listed link that is a scorer's (a door link enters no result),
    and a result has one sender (a guest's or a scorer's, not both). Raises
    ``EveningImportError`` naming the place in the file; returns nothing for a good file."""
    links = data.get("helper_links") or []
    roles: dict[int, str] = {}
    for i, link in enumerate(links):
        if link["number"] in roles:
            raise EveningImportError(f"{where(['helper_links', i, 'number'])}: link {link['number']} is listed twice.")
        roles[link["number"]] = link["role"]
    live = sum(1 for link in links if not link.get("revoked_at"))
    if live > MAX_LIVE_LINKS:
        raise EveningImportError(
            f"{where(['helper_links'])}: {live} links are not revoked; an evening has at most {MAX_LIVE_LINKS} live "
            "helpers' links."
        )
    for r, rnd in enumerate(data["rounds"]):
        for x, res in enumerate(rnd["results"]):
            number = res.get("reported_by_helper")
            if number is None:
                continue
            place = where(["rounds", r, "results", x, "reported_by_helper"])
            if number not in roles:
                raise EveningImportError(f"{place}: link {number} is not in the file's list of helpers' links.")
            if roles[number] != HelperLink.Role.SCORER:
                raise EveningImportError(f"{place}: link {number} is a door helper's link, which enters no result.")
            if res.get("reported_by_guest") is not None:
                raise EveningImportError(
                    f"{place}: a result has one sender, but this one names a guest (its reporter) and a scorer."
                )


def helper_links_saved(data: dict[str, Any], evening: Evening) -> None:
    """Save the file's links for the new ``evening`` (already checked: ``helper_links_check``),
    each with a new key, its number, role, label (spaces run together, as the door page's form
    saves it) and revoked time; one insert. Raises
    ``EveningImportError`` naming the place for a value the models refuse (a label over 60
    characters, an unknown role)."""
    rows = [
        _checked(
            HelperLink(
                evening=evening,
                number=link["number"],
                role=link["role"],
                label=" ".join(link.get("label", "").split()),  # as services.helpers.helper_link_create
                revoked_at=_time(link.get("revoked_at"), ["helper_links", i, "revoked_at"]),
            ),
            ["helper_links", i],
        )
        for i, link in enumerate(data.get("helper_links") or [])
    ]
    _all_saved(rows)


def helper_link_ids(data: dict[str, Any], evening: Evening) -> dict[int, int]:
    """The file's link numbers -> the new evening's ``HelperLink`` ids (saved by
    ``helper_links_saved``), for a codec's results: one query, none for a file without links."""
    if not data.get("helper_links"):
        return {}
    return dict(HelperLink.objects.filter(evening=evening).values_list("number", "id"))


def result_helper_id(res: dict[str, Any], links: dict[int, int]) -> int | None:
    """The new id of the link a file's result ``res`` was sent from (``reported_by_helper``,
    checked by ``helper_links_check``), None for a guest's or the host's result or an older
    file's."""
    number = res.get("reported_by_helper")
    return links[number] if number is not None else None
