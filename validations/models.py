"""Batch validations: an upload of map files (or a zip of them) its owner alone sees, and each file's verdict.

A batch-validation job (validations/tasks.py) checks the files in parallel parts and writes one BatchFile per map
file found. The tables were made when these models lived in maps, and keep their names.
"""

from django.conf import settings
from django.db import models, transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from engine import edits, mapfile
from maps.models import NAME_LENGTH, Map


class BatchValidation(models.Model):
    """One upload to check (a map file or a zip of many), its owner's alone; a batch-validation job checks it
    and writes one BatchFile per map file found in it."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="validations")
    name = models.CharField(max_length=255, help_text="The uploaded file's name.")
    upload = models.FileField(upload_to="validations/%Y/%m/", max_length=255)
    size = models.PositiveBigIntegerField(default=0)
    ruleset = models.CharField(max_length=64, blank=True, default="",
                               help_text="The ruleset its files are converted to and checked against (blank: ost).")
    job = models.ForeignKey("jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    files_total = models.PositiveIntegerField(default=0, help_text="Map files found in the upload (once read).")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "maps_batchvalidation"
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["owner", "-created"])]

    def __str__(self):
        return f"validation of {self.name}"

    def counts(self):
        """How many files got each verdict so far."""
        found = {row["verdict"]: row["n"] for row in
                 self.files.order_by().values("verdict").annotate(n=models.Count("id"))}
        return {verdict: found.get(verdict, 0) for verdict, _ in BatchFile.Verdict.choices}


class BatchFile(models.Model):
    """One map file of a batch: its verdict, findings and (when it converted) its map document."""

    class Verdict(models.TextChoices):
        OK = "ok"
        WARNINGS = "warnings"
        INVALID = "invalid"

    batch = models.ForeignKey(BatchValidation, on_delete=models.CASCADE, related_name="files")
    index = models.PositiveIntegerField(help_text="Its place among the upload's files.")
    name = models.CharField(max_length=500)
    source_format = models.CharField(max_length=32, blank=True)
    verdict = models.CharField(max_length=16, choices=Verdict.choices)
    errors = models.PositiveIntegerField(default=0)
    warnings = models.PositiveIntegerField(default=0)
    findings = models.JSONField(default=list)
    groups = models.JSONField(default=list, help_text="Its findings one line per kind, counted over all of them.")
    mapping = models.JSONField(null=True, blank=True, help_text="The proposed mapping it was converted with, when "
                                                                "the default one did not fit.")
    document = models.JSONField(null=True, blank=True, help_text="The converted map, when it could be read.")
    document_bytes = models.PositiveBigIntegerField(default=0, help_text="Bytes of the converted map as JSON, for "
                                                                         "the owner's storage quota.")
    map = models.ForeignKey(Map, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                            help_text="The owner's map made from this file, once opened.")

    class Meta:
        db_table = "maps_batchfile"
        ordering = ["batch", "index"]
        constraints = [models.UniqueConstraint(fields=["batch", "index"], name="unique_batch_file_index")]

    def __str__(self):
        return self.name

    def open_as_map(self, user):
        """The owner's private map made from this file: made once, then the same one every time."""
        if self.document is None:
            raise mapfile.MapFormatError([mapfile.Finding("$", "this file could not be converted into a map",
                                                          code="no-map")])
        with transaction.atomic():
            row = BatchFile.objects.select_for_update().get(pk=self.pk)
            if row.map_id is not None and Map.objects.filter(pk=row.map_id, owner=user).exists():
                return row.map
            doc = edits.load(row.document)
            doc.name = doc.name[:NAME_LENGTH] or "imported map"
            map = Map.objects.create_from_doc(user, doc, summary=f"opened from the validation of {self.name}"[:200])
            row.map = map
            row.save(update_fields=["map"])
            return map


@receiver(post_delete, sender=BatchValidation)
def delete_upload_file(sender, instance, **kwargs):
    """A batch's uploaded file goes with it."""
    if instance.upload:
        instance.upload.delete(save=False)
