# Revisions store what they changed, with a snapshot of the whole scenario every so often; the scenario row no
# longer holds the document. Every existing revision held the whole document: each becomes a snapshot of it.

import json
import zlib

from django.db import migrations, models


def documents_to_snapshots(apps, schema_editor):
    ScenarioRevision = apps.get_model("authoring", "ScenarioRevision")
    for revision in ScenarioRevision.objects.only("pk", "document").iterator():
        text = json.dumps(revision.document, ensure_ascii=False, separators=(",", ":"))
        ScenarioRevision.objects.filter(pk=revision.pk).update(snapshot=zlib.compress(text.encode("utf-8"), 6))


def snapshots_to_documents(apps, schema_editor):
    ScenarioRevision = apps.get_model("authoring", "ScenarioRevision")
    Scenario = apps.get_model("authoring", "Scenario")
    for scenario in Scenario.objects.iterator():
        document = None
        for revision in ScenarioRevision.objects.filter(scenario=scenario).order_by("number").iterator():
            if revision.snapshot is not None:
                document = json.loads(zlib.decompress(bytes(revision.snapshot)).decode("utf-8"))
            else:
                document = {k: v for k, v in document.items() if k not in revision.changes["drop"]}
                document.update(revision.changes["set"])
            ScenarioRevision.objects.filter(pk=revision.pk).update(document=document)
        Scenario.objects.filter(pk=scenario.pk).update(document=document)


class Migration(migrations.Migration):

    dependencies = [
        ('authoring', '0001_scenarios_scenario'),
    ]

    operations = [
        migrations.AddField(
            model_name='scenariorevision',
            name='snapshot',
            field=models.BinaryField(blank=True, null=True,
                                     help_text='The whole document: its JSON text, zlib-compressed (every so often).'),
        ),
        migrations.AddField(
            model_name='scenariorevision',
            name='changes',
            field=models.JSONField(blank=True, null=True, help_text='What changed since the revision before.'),
        ),
        migrations.AlterField(model_name='scenariorevision', name='document', field=models.JSONField(null=True)),
        migrations.AlterField(model_name='scenario', name='document', field=models.JSONField(null=True)),
        migrations.RunPython(documents_to_snapshots, snapshots_to_documents),
        migrations.RemoveField(model_name='scenariorevision', name='document'),
        migrations.RemoveField(model_name='scenario', name='document'),
        migrations.AlterField(model_name='scenario', name='content_hash',
                              field=models.CharField(help_text='sha256 of the exported file.', max_length=64)),
        migrations.AlterField(model_name='scenario', name='published',
                              field=models.BooleanField(default=False,
                                                        help_text='Published documents can be read by everyone.')),
    ]
