"""The club's version: the key its seasons' standings and ledgers are kept under."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("clubs", "0004_season_ceremony")]

    operations = [
        migrations.AddField(model_name="club", name="version", field=models.PositiveBigIntegerField(default=1)),
    ]
