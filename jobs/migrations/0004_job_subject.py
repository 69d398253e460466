"""A job names what it is about by subject type and id (jobs.subjects) instead of a foreign key to maps.Map and a
scenario id; its kind is a plain column checked against the kinds the apps register (no choices: a new kind
needs no migration). A map's print export gets a kind of its own, "map-export"."""

from django.db import migrations, models

import jobs.kinds


def to_subjects(apps, schema_editor):
    Job = apps.get_model("jobs", "Job")
    for job in Job.objects.exclude(map_id=None).only("pk", "map_id", "kind").iterator():
        kind = "map-export" if job.kind == "export" else job.kind
        Job.objects.filter(pk=job.pk).update(subject_type="map", subject_id=job.map_id, kind=kind)
    # A scenario job's content hash was in its parameters only.
    for job in Job.objects.filter(map_id=None).exclude(scenario_id=None).only("pk", "scenario_id", "parameters"):
        Job.objects.filter(pk=job.pk).update(subject_type="scenario", subject_id=job.scenario_id,
                                             content_hash=str(job.parameters.get("content_hash") or "")[:64])


def from_subjects(apps, schema_editor):
    Job = apps.get_model("jobs", "Job")
    Job.objects.filter(subject_type="map").update(map_id=models.F("subject_id"))
    Job.objects.filter(kind="map-export").update(kind="export")
    Job.objects.filter(subject_type="scenario").update(scenario_id=models.F("subject_id"), content_hash="")


class Migration(migrations.Migration):

    dependencies = [
        ("jobs", "0003_result_in_file"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="job", name="jobs_one_live_job_per_request"),
        migrations.RemoveIndex(model_name="job", name="jobs_job_map_id_3c9d4f_idx"),
        migrations.AlterField(
            model_name="job",
            name="kind",
            field=models.CharField(help_text="A kind an app registered (jobs.kinds).", max_length=32,
                                   validators=[jobs.kinds.validate]),
        ),
        migrations.RenameField(model_name="job", old_name="map_hash", new_name="content_hash"),
        migrations.AlterField(
            model_name="job",
            name="content_hash",
            field=models.CharField(blank=True, help_text="The subject's content hash the job computes for.",
                                   max_length=64),
        ),
        migrations.AddField(
            model_name="job",
            name="subject_type",
            field=models.CharField(blank=True, help_text="What the job is about (a Subject an app registered, "
                                                         "jobs.subjects); empty: nothing but its requester's own.",
                                   max_length=32),
        ),
        migrations.AddField(
            model_name="job",
            name="subject_id",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(to_subjects, from_subjects),
        migrations.RemoveField(model_name="job", name="map"),
        migrations.RemoveField(model_name="job", name="scenario_id"),
        migrations.AddIndex(
            model_name="job",
            index=models.Index(fields=["subject_type", "subject_id", "content_hash", "request_key"],
                               name="jobs_job_subject_idx"),
        ),
        migrations.AddConstraint(
            model_name="job",
            constraint=models.UniqueConstraint(condition=models.Q(("status__in", ["queued", "running"])),
                                               fields=("subject_type", "subject_id", "content_hash", "request_key"),
                                               name="jobs_one_live_job_per_request"),
        ),
    ]
