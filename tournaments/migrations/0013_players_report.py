from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_match_slots_agreed_by_players")]

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
