"""Stored guests' names in Unicode NFC (issue 24 deliver 3).

Every way a name comes in now stores it in NFC, trimmed, inner spaces collapsed
(``tournament.name_keys.normal_name``), and ``name_key`` compares it case-folded in NFC. This
rewrites the names stored before: "Zoë" typed with e + U+0308 becomes the composed "Zoë". Two
guests of one evening whose names were the same apart from their Unicode form (both
registered, as the old rule let them be) cannot share one ``name_key``: the later one (the
higher id) keeps its name with " (2)" added (" (3)" ...), so the host sees the two and can
rename or remove one. The rule is written out here, not imported, so that this migration does
the same whatever the code becomes. Reversing it leaves the names as they are (NFC is the same
text to a reader).
"""

import unicodedata

from django.db import migrations


def _normal(name):
    return " ".join(unicodedata.normalize("NFC", name or "").split())


def _fold(name):
    return unicodedata.normalize("NFC", _normal(name).casefold())


def names_in_nfc(apps, schema_editor):
    Guest = apps.get_model("tournament", "Guest")
    taken = {}
    changed = []
    for guest in Guest.objects.order_by("evening_id", "id").only("id", "evening_id", "name", "name_key"):
        name = _normal(guest.name)
        keys = taken.setdefault(guest.evening_id, set())
        number, candidate = 1, name
        while _fold(candidate) in keys:
            number += 1
            candidate = f"{name[: 120 - 4 - len(str(number))]} ({number})"
        keys.add(_fold(candidate))
        if (candidate, _fold(candidate)) != (guest.name, guest.name_key):
            guest.name, guest.name_key = candidate, _fold(candidate)
            changed.append(guest)
    # Free every key first, so that no row meets another's old key on the unique constraint.
    for guest in changed:
        Guest.objects.filter(pk=guest.pk).update(name_key=f"\x01{guest.pk}")
    for guest in changed:
        Guest.objects.filter(pk=guest.pk).update(name=guest.name, name_key=guest.name_key)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0013_formats_from_the_registry"),
    ]

    operations = [
        migrations.RunPython(names_in_nfc, migrations.RunPython.noop),
    ]
