"""Guest lists read whole by the ``csv`` module (issue 12 item 11): a quoted cell may hold a line
break or the separator; comma, semicolon and tab lists are told apart by ``csv.Sniffer``; a
byte order mark is ignored. The same reading for a pasted list, a CSV upload on the guests page
and ``manage.py evening_create --csv``."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from tables.packs import Pack
from tests.factories import EveningFactory
from tournament.models import Evening
from tournament.services.guests import GuestListError, guest_list_delimiter, parse_guest_list

QUOTED_NEWLINE = 'name,pack,contact\n"Anne\nSmith",red,"12 High Street\nFlat 2"\nBorys,blue,\n'
SEMICOLONS = "Name;Pack;Contact\nSmith, Anne;red;anne@example.org\nBorys;blue;\n"
TABS = "Name\tPack\nAnne, Smith\tred\nBorys; Jr\tblue\n"
BOM = "\ufeffname,pack\nAnne,red\nBorys,blue\n"


@pytest.fixture
def evening(db):
    return EveningFactory()


def rows(text, evening):
    return [(r.name, r.pack, r.contact) for r in parse_guest_list(text, evening=evening)]


def test_a_quoted_cell_holding_a_line_break_is_one_cell(evening):
    assert rows(QUOTED_NEWLINE, evening) == [
        ("Anne Smith", Pack.RED, "12 High Street\nFlat 2"),
        ("Borys", Pack.BLUE, ""),
    ]


def test_row_numbers_are_the_line_a_row_starts_on(evening):
    with pytest.raises(GuestListError) as caught:
        parse_guest_list('name,pack\n"Anne\nSmith",red\nBorys,green\n', evening=evening)
    assert caught.value.problems == [
        f"Row 4: “green” is not a pack: write red or blue (or “{evening.red_label}” / “{evening.blue_label}”)."
    ]


def test_a_semicolon_list_keeps_the_commas_in_its_names(evening):
    assert guest_list_delimiter(SEMICOLONS) == ";"
    assert rows(SEMICOLONS, evening) == [("Smith, Anne", Pack.RED, "anne@example.org"), ("Borys", Pack.BLUE, "")]


def test_a_tab_list_keeps_commas_and_semicolons_in_its_names(evening):
    assert guest_list_delimiter(TABS) == "\t"
    assert rows(TABS, evening) == [("Anne, Smith", Pack.RED, ""), ("Borys; Jr", Pack.BLUE, "")]


def test_a_byte_order_mark_is_not_part_of_the_header(evening):
    assert rows(BOM, evening) == [("Anne", Pack.RED, ""), ("Borys", Pack.BLUE, "")]


def test_a_quoted_separator_and_a_space_before_the_quote(evening):
    assert rows('Anne, "red"\n"Smith, Bo", blue', evening) == [("Anne", Pack.RED, ""), ("Smith, Bo", Pack.BLUE, "")]


def test_a_quote_never_closed_is_refused_with_its_row(evening):
    with pytest.raises(GuestListError) as caught:
        parse_guest_list('Anne,red\n"Borys,blue\nChloé,red', evening=evening)
    assert caught.value.problems[0].startswith("Row 2:")
    assert not evening.guests.exists()


@pytest.mark.parametrize("text", [QUOTED_NEWLINE, SEMICOLONS, TABS, BOM])
def test_the_guests_page_upload_reads_the_same(client, evening, text):
    client.force_login(evening.host)
    upload = SimpleUploadedFile("guests.csv", text.encode("utf-8"))
    response = client.post(reverse("host-guests", args=[evening.pk]), {"many-file": upload})
    assert response.status_code == 302
    assert sorted(evening.guests.values_list("name", flat=True)) == sorted(r[0] for r in rows(text, EveningFactory()))
    assert evening.guests.count() == 2


@pytest.mark.parametrize("text", [QUOTED_NEWLINE, SEMICOLONS, TABS, BOM])
def test_evening_create_reads_the_same(db, tmp_path, text):
    path = tmp_path / "guests.csv"
    path.write_bytes(text.encode("utf-8"))
    out = io.StringIO()
    call_command("evening_create", "From a file", "--csv", str(path), stdout=out, stderr=io.StringIO())
    evening = Evening.objects.get(pk=int(out.getvalue()))
    assert sorted(evening.guests.values_list("name", "pack", "contact")) == sorted(
        (name, pack.value, contact) for name, pack, contact in rows(text, EveningFactory())
    )


def test_evening_create_refuses_a_quote_never_closed(db, tmp_path):
    path = tmp_path / "guests.csv"
    path.write_text('Anne,red\n"Borys,blue\n', encoding="utf-8")
    with pytest.raises(CommandError, match="Row 2"):
        call_command("evening_create", "Broken", "--csv", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert not Evening.objects.exists()
