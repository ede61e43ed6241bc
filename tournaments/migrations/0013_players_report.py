from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_organiser_requests")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="players_report",
            field=models.BooleanField(
                default=False,
                help_text="Players report their own match results, each confirmed by the opponent",
            ),
        ),
    ]
