"""The audit log covers the whole service (an entry may belong to no tournament) and records
the target before and after; on PostgreSQL a trigger makes the table append-only for every
client, the admin and a psql session included (TRUNCATE, which the test runner's flush uses,
is not a row change and stays possible for the database's owner)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


APPEND_ONLY = ("""
CREATE OR REPLACE FUNCTION audit_entry_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit entries are append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql""", """
CREATE TRIGGER audit_entry_append_only
    BEFORE UPDATE OR DELETE ON tournaments_auditentry
    FOR EACH ROW EXECUTE FUNCTION audit_entry_append_only()""")
DROP = (
    "DROP TRIGGER IF EXISTS audit_entry_append_only ON tournaments_auditentry",
    "DROP FUNCTION IF EXISTS audit_entry_append_only()",
)


def _on_postgresql(statements: tuple[str, ...]):
    # SQLite (``make run``'s embedded default) has no plpgsql; the model refuses there.
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for sql in statements:
                schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_death_match_settings'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='auditentry',
            name='after',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='before',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='target',
            field=models.CharField(blank=True, max_length=80),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='actor',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='audit', to='tournaments.tournament'),
        ),
        migrations.AddIndex(
            model_name='auditentry',
            index=models.Index(fields=['action', 'at'], name='audit_action_at'),
        ),
        migrations.RunPython(_on_postgresql(APPEND_ONLY), _on_postgresql(DROP)),
    ]
