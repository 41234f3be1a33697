"""One rule for a guest's name, wherever it comes in: it must print (issue 13 item 2).

Emoji print (Noto Emoji, black and white), so "🎲" is a name; a name of only spaces, control
or formatting characters, or holding a character no printing font has (Egyptian hieroglyphs),
is refused with the reason, through every way in: the host's add form, the pasted list, the
CSV upload, self-registration at the door, ``evening_create``, the JSON import, and the
model's own ``full_clean``. Rule: ``tournament/names.py``.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import GuestFactory
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, evening_import
from tournament.models import Evening, Guest
from tournament.names import unprintable_reason
from tournament.services.guests import GuestListError, guest_add, guest_rename

HIEROGLYPHS = "𓀀 𓀁"
BAD = [
    (HIEROGLYPHS, "no printing font has “𓀀” (Egyptian Hieroglyph A001), “𓀁” (Egyptian Hieroglyph A002)"),
    ("Ann 𓀀", "no printing font has “𓀀”"),
    ("\u200b\u200d\u2066", "The name is empty"),
]


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


GOOD = ["🎲", "Zoë 🎉 Brown", "अनुराग शर्मा", "ශ්\u200dරියානි පෙරේරා", "محمد 3"]


def test_the_reason_names_the_characters_and_says_what_to_do():
    reason = unprintable_reason(HIEROGLYPHS)
    assert reason == (
        "The name “𓀀 𓀁” cannot be printed: no printing font has “𓀀” (Egyptian Hieroglyph A001), "
        "“𓀁” (Egyptian Hieroglyph A002), so the name would not print. Write the guest's name in "
        "letters of any script (emoji are fine)."
    )
    assert unprintable_reason("   ").startswith("The name cannot be printed: it has nothing printable")
    for name in GOOD:
        assert unprintable_reason(name) is None, name


@pytest.mark.django_db
def test_the_model_refuses_it_in_full_clean(make_evening):
    evening = make_evening(0, 0)
    guest = Guest(evening=evening, name=HIEROGLYPHS, name_key=Guest.fold_name(HIEROGLYPHS), pack="red")
    with pytest.raises(ValidationError) as error:
        guest.full_clean()
    assert "cannot be printed" in str(error.value.message_dict["name"])
    Guest(evening=evening, name="🎲", name_key="🎲", pack="red").full_clean()  # emoji are a name


@pytest.mark.django_db
@pytest.mark.parametrize("name,reason", BAD)
def test_the_host_add_form_refuses_it_and_saves_nothing(logged_in, make_evening, name, reason):
    evening = make_evening(0, 0)
    response = logged_in.post(reverse("host-guests", args=[evening.pk]), {"one-name": name, "one-pack": "red"})
    assert response.status_code == 200 and reason in response.content.decode()
    assert not evening.guests.exists()


@pytest.mark.django_db
def test_the_host_add_form_takes_an_emoji_name(logged_in, make_evening):
    evening = make_evening(0, 0)
    logged_in.post(reverse("host-guests", args=[evening.pk]), {"one-name": "🎲", "one-pack": "red"})
    assert list(evening.guests.values_list("name", flat=True)) == ["🎲"]


@pytest.mark.django_db
def test_a_pasted_list_with_one_such_name_is_refused_whole(logged_in, make_evening):
    evening = make_evening(0, 0)
    text = f"Anne, red\n{HIEROGLYPHS}, blue\n🎲, red"
    response = logged_in.post(reverse("host-guests", args=[evening.pk]), {"many-text": text})
    assert "Row 2: The name “𓀀 𓀁” cannot be printed" in response.content.decode()
    assert not evening.guests.exists()


@pytest.mark.django_db
def test_a_csv_upload_with_such_a_name_is_refused_whole(logged_in, make_evening):
    evening = make_evening(0, 0)
    upload = SimpleUploadedFile("guests.csv", f"name,pack\nAnne,red\n{HIEROGLYPHS},blue\n".encode())
    response = logged_in.post(reverse("host-guests", args=[evening.pk]), {"many-file": upload})
    assert "Row 3: The name “𓀀 𓀁” cannot be printed" in response.content.decode()
    assert not evening.guests.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name,reason", BAD)
def test_self_registration_at_the_door_refuses_it(client, make_evening, name, reason):
    evening = make_evening(1, 1, self_registration=True)
    response = client.post(reverse("door", args=[evening.public_key]), {"name": name, "pack": "red"})
    assert response.status_code == 200 and reason in response.content.decode()
    assert evening.guests.count() == 2


@pytest.mark.django_db
def test_evening_create_refuses_it(tmp_path):
    path = tmp_path / "guests.csv"
    path.write_text("\n".join([f"G{i},red" for i in range(8)] + [f"{HIEROGLYPHS},blue"]), encoding="utf-8")
    with pytest.raises(CommandError, match="Row 9: The name “𓀀 𓀁” cannot be printed"):
        call_command("evening_create", "E", "--csv", str(path), stdout=io.StringIO())
    assert not Evening.objects.exists()


@pytest.mark.django_db
def test_the_json_import_refuses_it_naming_the_place(make_evening, host):
    data = evening_export(make_evening(4, 4, name="Exported"))
    data["guests"][2]["name"] = HIEROGLYPHS
    before = Evening.objects.count()
    with pytest.raises(EveningImportError, match=r"Guest 3 in the file, its name: The name “𓀀 𓀁” cannot be printed"):
        evening_import(data=json.loads(json.dumps(data)), host=host)
    assert Evening.objects.count() == before


@pytest.mark.django_db
def test_the_services_refuse_it_and_a_rename_fixes_a_stored_name(make_evening):
    evening = make_evening(0, 0)
    with pytest.raises(GuestListError, match="cannot be printed"):
        guest_add(evening=evening, name=HIEROGLYPHS, pack="red")
    guest = GuestFactory(evening=evening, name="Old")
    Guest.objects.filter(pk=guest.pk).update(name=HIEROGLYPHS)  # stored before the rule
    guest.refresh_from_db()
    with pytest.raises(Exception, match="cannot be printed"):
        guest_rename(guest=guest, name="𓀀")
    guest_rename(guest=guest, name="Nefertari 🎲")
    guest.refresh_from_db()
    assert guest.name == "Nefertari 🎲" and guest.name_key == "nefertari 🎲"
