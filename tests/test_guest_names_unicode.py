"""Every name is found, and a name is one guest whatever its Unicode form (issue 24 deliver 3).

Names are stored in NFC, trimmed, inner spaces collapsed, at every way in (the host's form,
a pasted list, a CSV file, self-registration, the door helper, the import, the commands); "already
registered" compares them case-folded in NFC, so "Zoë Martin" typed with a composed ë (U+00EB)
and with e + U+0308 is one guest. Search on the guests page and the door helper's page ignores
case and accents and matches any part of a name ("muller" finds Müller). A name that is the
same apart from accents or spacing ("Jose Nunez" beside "José Núñez") asks the host first.
"""

from __future__ import annotations

import importlib
import unicodedata

import pytest
from django.apps import apps
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, evening_import
from tournament.models import Guest
from tournament.name_keys import fold_name, likeness_key, name_found, normal_name
from tournament.services.guests import GuestListError, guest_add, parse_guest_list
from tournament.services.helpers import helper_link_create
from tournament.services.registration import DuplicateName, self_register

pytestmark = pytest.mark.django_db

COMPOSED = "Zo\u00eb Martin"
DECOMPOSED = "Zoe\u0308 Martin"
ACCENTED = ["Anna Müller", "Lars Ångström", "Siobhán Murphy", "José Núñez", "Ngozi Adébáyọ̀", "Łucja Wójcik"]


@pytest.mark.parametrize(
    "query, name",
    [
        ("muller", "Anna Müller"),
        ("MÜLL", "Anna Müller"),
        ("angstrom", "Lars Ångström"),
        ("siobhan", "Siobhán Murphy"),
        ("jose", "José Núñez"),
        ("nunez", "José Núñez"),
        ("ngozi adebayo", "Ngozi Adébáyọ̀"),
        ("adebayo ngozi", "Ngozi Adébáyọ̀"),
        ("lucja wojcik", "Łucja Wójcik"),
        ("ojci", "Łucja Wójcik"),
        ("zoe", DECOMPOSED),
        ("zoë", COMPOSED),
        ("Zoe\u0308", COMPOSED),
        ("李", "李明"),
        ("ivanova", "Мария Иванова"),
    ],
)
def test_a_search_ignores_case_and_accents_and_finds_any_part_of_a_name(query, name):
    assert name_found(query, name)


@pytest.mark.parametrize("query, name", [("李", "Lisa Li"), ("mueller", "Anna Müller"), ("smith ann", "Anne Smyth")])
def test_a_search_finds_only_what_is_in_the_name(query, name):
    assert not name_found(query, name)


def test_the_forms_of_a_name():
    assert normal_name("  Zoe\u0308 \t  Martin ") == COMPOSED
    assert fold_name(DECOMPOSED) == fold_name("ZOË  MARTIN") == "zo\u00eb martin"
    assert likeness_key("José Núñez") == likeness_key("jose nunez") == likeness_key("JoseNunez") == "josenunez"
    assert likeness_key("José Núñez") != likeness_key("Jose Nunes")


def test_the_guests_page_and_the_door_helper_find_accented_names(client, host):
    evening = EveningFactory(host=host)
    guests = [GuestFactory(evening=evening, name=name) for name in [*ACCENTED, "Bob Smith"]]
    client.force_login(host)
    door = helper_link_create(evening=evening, role="door")
    for path in (reverse("host-guests", args=[evening.pk]), reverse("helper-page", args=[door.key])):
        for query, found in [
            ("muller", 0),
            ("angstrom", 1),
            ("siobhan", 2),
            ("jose", 3),
            ("nunez", 3),
            ("ngozi adebayo", 4),
        ]:
            page = client.get(path, {"q": query}).content.decode()
            listed = [g.name for g in guests if f'id="guest-{g.pk}"' in page]
            assert listed == [guests[found].name], (path, query, listed)


def test_the_same_name_in_two_unicode_forms_is_one_guest_at_every_way_in(client, host):
    evening = EveningFactory(host=host, self_registration=True)
    first = guest_add(evening=evening, name=COMPOSED, pack="red")
    assert first.name == COMPOSED and unicodedata.is_normalized("NFC", first.name)
    with pytest.raises(GuestListError, match="already registered"):
        guest_add(evening=evening, name=DECOMPOSED, pack="blue")
    with pytest.raises(DuplicateName, match="already registered"):
        self_register(evening=evening, name=DECOMPOSED, pack="blue")
    with pytest.raises(GuestListError, match="already registered"):
        parse_guest_list(f"{DECOMPOSED}, blue\nAda Lovelace, red", evening=evening)
    client.force_login(host)
    response = client.post(reverse("host-guests", args=[evening.pk]), {"one-name": DECOMPOSED, "one-pack": "blue"})
    assert "already registered" in response.content.decode()
    assert list(evening.guests.values_list("name", flat=True)) == [COMPOSED]
    renamed = guest_add(evening=evening, name="Zoe\u0308 Martin-Lee", pack="blue")
    assert renamed.name == "Zo\u00eb Martin-Lee"


def test_an_import_stores_names_in_nfc_and_refuses_two_forms_of_one_name(host):
    evening = EveningFactory(host=host)
    GuestFactory(evening=evening, name="Ada Lovelace")
    data = evening_export(evening)
    data["guests"][0]["name"] = DECOMPOSED
    copy = evening_import(data=data, host=host)
    assert list(copy.guests.values_list("name", flat=True)) == [COMPOSED]
    data["guests"].append(dict(data["guests"][0], id=data["guests"][0]["id"] + 1, name=COMPOSED))
    with pytest.raises(
        EveningImportError, match=r"Guest 2 in the file, its name: .* is also the name of guest 1 in the file"
    ):
        evening_import(data=data, host=host)


def test_a_near_duplicate_asks_the_host_first(client, host):
    evening = EveningFactory(host=host, self_registration=True)
    guest_add(evening=evening, name="José Núñez", pack="red")
    with pytest.raises(GuestListError) as asked:
        guest_add(evening=evening, name="Jose  Nunez", pack="blue")
    assert asked.value.near and "“Jose Nunez” looks like “José Núñez”" in asked.value.problems[0]
    with pytest.raises(DuplicateName, match="looks like “José Núñez”.*ask the host to register you"):
        self_register(evening=evening, name="jose nunez", pack="blue")
    client.force_login(host)
    path = reverse("host-guests", args=[evening.pk])
    page = client.post(path, {"one-name": "Jose Nunez", "one-pack": "blue"}).content.decode()
    assert "looks like “José Núñez”" in page and 'type="checkbox" name="one-different"' in page
    assert evening.guests.count() == 1
    client.post(path, {"one-name": "Jose Nunez", "one-pack": "blue", "one-different": "on"})
    assert sorted(evening.guests.values_list("name", flat=True)) == ["Jose Nunez", "José Núñez"]


def test_a_pasted_list_with_a_near_duplicate_asks_the_host_first(client, host):
    evening = EveningFactory(host=host)
    guest_add(evening=evening, name="Siobhán Murphy", pack="red")
    text = "Siobhan Murphy, blue\nAda Lovelace, red\nAda  Lóvelace, blue"
    with pytest.raises(GuestListError) as asked:
        parse_guest_list(text, evening=evening)
    assert asked.value.near
    assert asked.value.problems[:2] == [
        "Row 1: “Siobhan Murphy” looks like “Siobhán Murphy”, who is already registered.",
        "Row 3: “Ada Lóvelace” looks like “Ada Lovelace” on row 2.",
    ]
    client.force_login(host)
    path = reverse("host-guests", args=[evening.pk])
    page = client.post(path, {"many-text": text}).content.decode()
    assert "These are different guests" in page and evening.guests.count() == 1
    client.post(path, {"many-text": text, "many-different": "on"})
    assert evening.guests.count() == 4


def test_the_migration_stores_old_names_in_nfc_and_keeps_two_forms_apart(host):
    evening = EveningFactory(host=host)
    a, b, c = (GuestFactory(evening=evening, name=n) for n in ("Placeholder A", "Placeholder B", "Ada Lovelace"))
    Guest.objects.filter(pk=a.pk).update(name=COMPOSED, name_key="zo\u00eb martin")
    Guest.objects.filter(pk=b.pk).update(name=f" {DECOMPOSED} ", name_key="zoe\u0308 martin")  # the old rule
    migration = importlib.import_module("tournament.migrations.0014_guest_names_in_nfc")
    migration.names_in_nfc(apps, None)
    names = dict(Guest.objects.values_list("pk", "name"))
    assert names == {a.pk: COMPOSED, b.pk: f"{COMPOSED} (2)", c.pk: "Ada Lovelace"}
    assert all(g.name_key == fold_name(g.name) for g in Guest.objects.all())


def test_find_your_name_on_the_room_display_lists_accented_names_among_their_letters(client, host):
    """The room's "Find your name" is alphabetical: "Ángel" and "Émile" were listed after "Zoe"
    (case-folded, "á" sorts after "z"); without their accents they stand among the A's and E's."""
    from tests.fixtures_room import played_evening

    evening = played_evening(host, 12)
    names = ["Ángel Ruiz", "Émile Zola", "Zoe Adams", "Bob Stone", "Øyvind Berg", "ève Marchal"]
    for guest, name in zip(evening.guests.order_by("pk"), names, strict=False):
        Guest.objects.filter(pk=guest.pk).update(name=name, name_key=fold_name(name))
    from tournament.selectors.board import evening_board
    from tournament.views.room import seating

    listed = [guest.name for guest, _table in seating(evening_board(evening))]
    shown = [n for n in listed if n in names]
    assert shown == ["Ángel Ruiz", "Bob Stone", "Émile Zola", "ève Marchal", "Øyvind Berg", "Zoe Adams"], listed


def test_the_evening_create_command_asks_for_names_alike_as_the_host_form_does(db, tmp_path):
    from io import StringIO

    from django.core.management import CommandError, call_command

    from tournament.models import Evening

    path = tmp_path / "guests.csv"
    path.write_text(f"José Núñez,red\nJose Nunez,blue\n{DECOMPOSED},red\nAda Lovelace,blue\n", encoding="utf-8")
    with pytest.raises(
        CommandError, match=r"Row 2: “Jose Nunez” looks like “José Núñez” on row 1\. .*--different-guests"
    ):
        call_command("evening_create", "E", "--csv", str(path), stdout=StringIO(), stderr=StringIO())
    assert not Evening.objects.exists()
    call_command("evening_create", "E", "--csv", str(path), "--different-guests", stdout=StringIO(), stderr=StringIO())
    names = sorted(Evening.objects.get().guests.values_list("name", flat=True))
    assert names == ["Ada Lovelace", "Jose Nunez", "José Núñez", COMPOSED]


@pytest.mark.django_db
def test_the_guests_list_sorts_accented_names_among_their_letters_and_its_letter_bar_has_each_letter_once():
    # The stranger's night: "Éléonore" stood after "Zoë", and the letter bar showed M and H
    # twice (Latin M beside Cyrillic М of "Мария"). One order for every list (name_order).
    from tests.factories import EveningFactory, GuestFactory
    from tournament.selectors.guests import guest_list

    evening = EveningFactory()
    for name in ("Zoë Martin", "Éléonore Dupont", "Мария Иванова", "Mia Stone", "Hanna Müller", "Наталья Орлова"):
        GuestFactory(evening=evening, name=name)
    listed = guest_list(evening)
    # The Unicode Collation Algorithm (name_order): the Latin names, then the Cyrillic ones, as the
    # letter bar below groups them (a Cyrillic name is no longer sorted as if written in ASCII).
    assert [g.name for g in listed.rows] == [
        "Éléonore Dupont",
        "Hanna Müller",
        "Mia Stone",
        "Zoë Martin",
        "Мария Иванова",
        "Наталья Орлова",
    ]
    # A later stranger: Cyrillic initials were missing from the bar (Мария only under Latin M).
    # Each script's letters now stand in a group the bar names, so the two M's are told apart.
    assert [(i.letter, i.script) for i in listed.letters] == [
        ("E", "Latin"),
        ("H", "Latin"),
        ("M", "Latin"),
        ("Z", "Latin"),
        ("М", "Cyrillic"),
        ("Н", "Cyrillic"),
    ]


NAMES_OF_MANY_SCRIPTS = {
    "Ada Lovelace": ("A", "Latin"),
    "Øyvind Berg": ("O", "Latin"),
    "Éléonore Dupont": ("E", "Latin"),
    "Łucja Nowak": ("L", "Latin"),
    "Ελένη Παππά": ("Ε", "Greek"),
    "Ἀθηνᾶ Κ.": ("Α", "Greek"),
    "Дмитрий Орлов": ("Д", "Cyrillic"),
    "שרה כהן": ("ש", "Hebrew"),
    "محمد علي": ("م", "Arabic"),
    "李明": ("李", "Chinese characters"),
    "김민수": ("김", "Korean"),
    "たなか ゆき": ("た", "Japanese"),
    "タナカ": ("タ", "Japanese"),
    "🎉 Party": ("🎉", "Other"),
}


@pytest.mark.django_db
def test_the_letter_bar_has_the_initials_the_guests_have_in_every_script(client, host):
    """Found by a new host: the bar had A–Z only, so a guest named in Greek, Cyrillic, Hebrew,
    Arabic or CJK could not be jumped to by the letter their name starts with."""
    from django.urls import reverse

    from tests.factories import EveningFactory, GuestFactory
    from tournament.selectors.guests import guest_list

    evening = EveningFactory(host=host)
    guests = {name: GuestFactory(evening=evening, name=name) for name in NAMES_OF_MANY_SCRIPTS}
    letters = guest_list(evening).letters
    assert {(i.letter, i.script) for i in letters} == set(NAMES_OF_MANY_SCRIPTS.values())
    scripts = [i.script for i in letters]
    assert scripts[:4] == ["Latin"] * 4 and scripts[-1] == "Other"
    assert scripts.index("Greek") < scripts.index("Cyrillic") < scripts.index("Hebrew") < scripts.index("Arabic")
    assert [i.letter for i in letters if i.script == "Greek"] == ["Α", "Ε"]  # the alphabet's order
    client.force_login(host)
    page = client.get(reverse("host-guests", args=[evening.pk])).content.decode()
    bar = page[page.index('<nav class="letters"') : page.index("</nav>", page.index('<nav class="letters"'))]
    for name, (letter, _script) in NAMES_OF_MANY_SCRIPTS.items():
        assert f'<a href="#guest-{guests[name].pk}">{letter}</a>' in bar, name
    assert 'role="group" aria-label="Cyrillic"' in bar
