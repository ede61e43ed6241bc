from django.db import migrations, models

# Tournaments stored before versions existed say "FIDE C.07 (2024)" but were ranked with the
# 2026 amendment's caps on unplayed rounds; naming them fide-2026 keeps their standings as
# they were published.
OLD_LABEL = "FIDE C.07 (2024)"


def name_the_version_applied(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(tiebreak_regulations=OLD_LABEL).update(
        tiebreak_regulations="fide-2026"
    )


def restore_the_old_label(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(tiebreak_regulations="fide-2026").update(
        tiebreak_regulations=OLD_LABEL
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_genius_seasons"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="tiebreak_regulations",
            field=models.CharField(
                choices=[
                    ("fide-2024", "FIDE C.07, applied from 1 August 2024"),
                    ("fide-2026", "FIDE C.07, amended with effect from 1 March 2026"),
                ],
                default="fide-2026",
                help_text="The version of FIDE C.07 by which byes and forfeits count in tie-breaks",
                max_length=40,
            ),
        ),
        migrations.RunPython(name_the_version_applied, restore_the_old_label),
    ]
