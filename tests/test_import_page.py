"""The host's page that imports an evening export, and the name an imported copy takes.

Found by a new host trying the product: an export could only be imported with
``manage.py import_evening``, and the copy had its original's very name, so the evenings list
showed two evenings no host could tell apart (house rule: "<name> (imported)", docs/export.md).
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import EveningFactory, HostFactory
from tournament.exchange.export import evening_export
from tournament.exchange.importer import evening_import, imported_name
from tournament.models import Evening
from tournament.services.draws import draw_digital

pytestmark = pytest.mark.django_db


def _file(data: object, name: str = "evening.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(data).encode(), content_type="application/json")


def test_the_evenings_list_leads_to_the_import_page(client, host):
    client.force_login(host)
    page = client.get(reverse("host-evenings")).content.decode()
    assert f'href="{reverse("host-evening-import")}"' in page and "Import an evening (JSON)" in page
    form = client.get(reverse("host-evening-import")).content.decode()
    assert 'enctype="multipart/form-data"' in form and 'type="file"' in form


def test_a_host_imports_an_export_and_the_copy_says_it_is_imported(client, host, make_evening):
    evening = make_evening(6, 6, name="Friday club")
    draw_digital(evening=evening)
    data = evening_export(evening)
    client.force_login(host)
    response = client.post(reverse("host-evening-import"), {"file": _file(data)})
    copy = Evening.objects.exclude(pk=evening.pk).get()
    assert response.status_code == 302 and response.url == reverse("host-evening", args=[copy.pk])
    assert copy.name == "Friday club (imported)" and copy.guests.count() == 12
    client.post(reverse("host-evening-import"), {"file": _file(data)})
    names = sorted(Evening.objects.filter(host=host).values_list("name", flat=True))
    assert names == ["Friday club", "Friday club (imported 2)", "Friday club (imported)"]
    listed = client.get(reverse("host-evenings")).content.decode()
    assert all(f"<strong>{name}</strong>" in listed for name in names)


def test_a_file_that_is_not_an_export_is_shown_on_the_page_and_nothing_is_saved(client, host):
    client.force_login(host)
    for raw, words in (
        (b"{not json", "The file is not a Head Table evening: it stops being JSON at line 1, column 2."),
        (json.dumps({"schema": "something else"}).encode(), "an export says “head-table/evening/1” at its start"),
        (b"\xff\xfe", "not UTF-8"),
    ):
        upload = SimpleUploadedFile("evening.json", raw, content_type="application/json")
        response = client.post(reverse("host-evening-import"), {"file": upload})
        assert response.status_code == 200 and words in response.content.decode(), raw
    response = client.post(reverse("host-evening-import"), {})
    assert "Choose the export file (JSON) to import." in response.content.decode()
    assert not Evening.objects.exists()


def test_the_import_page_is_for_a_logged_in_host(client):
    response = client.get(reverse("host-evening-import"))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_an_imported_name_fits_the_120_characters_of_an_evenings_name():
    host = HostFactory()
    long = "Annual charity progressive " + "x" * 80 + " night out"
    assert len(long) <= 120
    name = imported_name(long, host)
    assert len(name) <= 120 and name.endswith(" (imported)") and name.startswith("Annual charity")
    EveningFactory(host=host, name=name)
    second = imported_name(long, host)
    assert len(second) <= 120 and second.endswith(" (imported 2)") and second != name
    assert imported_name("", host) == "" and imported_name("y" * 121, host) == "y" * 121  # refused as before


def test_the_copy_of_a_120_character_name_imports(host, make_evening):
    evening = make_evening(4, 4, name="N" * 120)
    copy = evening_import(data=evening_export(evening), host=host)
    assert len(copy.name) == 120 and copy.name.endswith(" (imported)")
