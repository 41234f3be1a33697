"""Registering guests: one at a time, a pasted list, a CSV file; bad lists refused whole."""

import pytest

from tables.packs import Pack
from tests.factories import EveningFactory
from tournament.models import AuditEntry, Guest
from tournament.services.guests import GuestListError, guest_add, guests_register, parse_guest_list


@pytest.fixture
def evening(db):
    return EveningFactory(red_label="Ladies", blue_label="Gentlemen")


def test_a_csv_with_header_bom_labels_and_contacts_registers_everyone(evening):
    text = "\ufeffName,Pack,Contact\nAnne Smith,red,anne@example.org\nBorys,Gentlemen,\n  Chloé ,R,\n\n"
    rows = parse_guest_list(text, evening=evening)
    assert [(r.name, r.pack, r.contact) for r in rows] == [
        ("Anne Smith", Pack.RED, "anne@example.org"),
        ("Borys", Pack.BLUE, ""),
        ("Chloé", Pack.RED, ""),
    ]
    guests_register(evening=evening, rows=rows, check_in=True)
    assert sorted(evening.guests.values_list("name", "pack", "status")) == [
        ("Anne Smith", "red", "here"),
        ("Borys", "blue", "here"),
        ("Chloé", "red", "here"),
    ]
    assert AuditEntry.objects.filter(evening=evening, action="guests.register").count() == 1


def test_semicolons_and_tabs_are_read_too(evening):
    assert [r.name for r in parse_guest_list("A; red\nB; blue", evening=evening)] == ["A", "B"]
    assert [r.pack for r in parse_guest_list("A\tred\nB\tblue", evening=evening)] == [Pack.RED, Pack.BLUE]


@pytest.mark.parametrize(
    "text, reason",
    [
        ("Anne,red\n,blue", "Row 2: The name is empty"),
        ("Anne,red\nBob,green", "Row 2: “green” is not a pack"),
        ("Anne,red\nBob", "Row 2: expected 2 or 3 columns"),
        ("Anne,red\nBob;blue\nCy\tred", "Row 2: expected 2 or 3 columns (name, pack, contact) separated by commas"),
        ("Anne,red\nBob,blue,x,y", "Row 2: expected 2 or 3 columns"),
        ("Anne,red\nanne ,blue", "Row 2: “anne” is also on row 1"),
        ("Anne,red\n<b>Bob</b>,blue", "Row 2: A name cannot hold < or >"),
        ("Anne,red\n" + "x" * 121 + ",blue", "Row 2: The name is 121 characters long"),
        ("", "The list is empty"),
    ],
)
def test_a_bad_row_refuses_the_whole_list_and_saves_nothing(evening, text, reason):
    with pytest.raises(GuestListError) as caught:
        rows = parse_guest_list(text, evening=evening)
        guests_register(evening=evening, rows=rows)
    assert any(reason in problem for problem in caught.value.problems), caught.value.problems
    assert not evening.guests.exists()


def test_every_bad_row_is_listed_not_just_the_first(evening):
    with pytest.raises(GuestListError) as caught:
        parse_guest_list("A,red\n,blue\nC,purple\nD", evening=evening)
    assert [p.split(":")[0] for p in caught.value.problems] == ["Row 2", "Row 3", "Row 4"]


def test_a_name_already_registered_is_refused(evening):
    guest_add(evening=evening, name="Anne Smith", pack="red")
    with pytest.raises(GuestListError, match="already registered"):
        parse_guest_list("Zoe,blue\nANNE   smith,blue", evening=evening)
    with pytest.raises(GuestListError, match="already registered"):
        guest_add(evening=evening, name="anne smith", pack="blue")
    assert evening.guests.count() == 1


def test_names_keep_their_letters_in_any_script(evening):
    rows = parse_guest_list("Μαρία Παπαδοπούλου,red\n山田 花子,blue\nفاطمة,red", evening=evening)
    guests_register(evening=evening, rows=rows)
    assert set(Guest.objects.values_list("name", flat=True)) == {"Μαρία Παπαδοπούλου", "山田 花子", "فاطمة"}


def test_private_keys_are_long_random_and_distinct(evening):
    rows = parse_guest_list("\n".join(f"G{i},red" for i in range(50)), evening=evening)
    guests_register(evening=evening, rows=rows)
    keys = list(evening.guests.values_list("key", flat=True))
    assert len(set(keys)) == 50 and all(len(k) >= 32 for k in keys)


def test_a_name_already_registered_is_told_as_registered(evening):
    """ "Ann  smith" is refused naming the guest as registered, "Ann Smith", at the door, in a
    list and in a rename (found by trying the product: the message named the typed form)."""
    guest_add(evening=evening, name="Ann Smith", pack="red")
    other = guest_add(evening=evening, name="Bea Jones", pack="blue")
    with pytest.raises(GuestListError) as caught:
        guest_add(evening=evening, name="Ann  smith", pack="blue")
    assert caught.value.problems[0].startswith("“Ann smith” is already registered as “Ann Smith”;")
    with pytest.raises(GuestListError) as caught:
        parse_guest_list("Zoe,blue\nANN smith,blue", evening=evening)
    assert caught.value.problems == ["Row 2: “ANN smith” is already registered as “Ann Smith”."]
    from tables.errors import RuleError
    from tournament.services.guests import guest_rename

    with pytest.raises(RuleError, match="“ann smith” is already registered as “Ann Smith”"):
        guest_rename(guest=other, name="ann smith")
    with pytest.raises(GuestListError) as caught:
        guest_add(evening=evening, name="Ann Smith", pack="blue")
    assert caught.value.problems[0].startswith("“Ann Smith” is already registered;")


def test_a_lists_problems_are_told_in_row_order(evening):
    """A name already registered on row 2 is told before a bad pack on row 3 (found by trying
    the product: "Row 7" came before "Row 6")."""
    guest_add(evening=evening, name="Ann Smith", pack="red")
    with pytest.raises(GuestListError) as caught:
        parse_guest_list("Zoe,blue\nAnn Smith,blue\nCy,purple\nZoe,red", evening=evening)
    assert [p.split(":")[0] for p in caught.value.problems] == ["Row 2", "Row 3", "Row 4"]


def test_a_name_too_long_at_the_door_is_told_in_the_name_rules_words():
    """501 characters typed at the door: the name rule's message, not Django's "Ensure this
    value has at most 500 characters"."""
    from tournament.forms.evening import GuestForm

    form = GuestForm(data={"name": "A" * 501, "pack": "red", "check_in": "on"})
    assert not form.is_valid()
    assert form.errors["name"] == ["The name is 501 characters long: shorten it to 120 or fewer."]
