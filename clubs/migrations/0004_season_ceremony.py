"""The season ceremony: a season's revealed steps and its room display's private key."""

from django.db import migrations, models

import tournament.models


def fill_room_keys(apps, schema_editor):
    """Give every existing season its own room key (192 random bits)."""
    Season = apps.get_model("clubs", "Season")
    for season in Season.objects.filter(room_key__isnull=True):
        season.room_key = tournament.models.new_private_key()
        season.save(update_fields=["room_key"])


class Migration(migrations.Migration):
    dependencies = [("clubs", "0003_calendar")]

    operations = [
        migrations.AddField(
            model_name="season", name="ceremony_step", field=models.PositiveSmallIntegerField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="season",
            name="room_key",
            field=models.CharField(editable=False, max_length=43, null=True),  # noqa: DJ001 (filled below)
        ),
        migrations.RunPython(fill_room_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="season",
            name="room_key",
            field=models.CharField(
                default=tournament.models.new_private_key, editable=False, max_length=43, unique=True
            ),
        ),
    ]
