"""Batch validations: an upload of map files (or a zip of them) its owner alone sees, and each file's verdict.

A batch-validation job (validations/tasks.py) checks the files in parallel parts and writes one BatchFile per map
file found. The tables were made when these models lived in maps, and keep their names.
"""

import hashlib
import json

from django.conf import settings
from django.db import models, transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from engine import edits, mapfile
from maps import scans
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
    board = models.FileField(upload_to="validations/boards/%Y/%m/", max_length=255, blank=True,
                             help_text="The board image its background names (a VASSAL board), checked as a scan.")
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
            board = row.board.read() if row.board else None
            map = Map.objects.create_from_doc(user, doc, summary=f"opened from the validation of {self.name}"[:200],
                                              extra_bytes=len(board or b""))
            if board is not None:
                # the board image goes beside the map under the name its background entry gives (maps.scans)
                scans.store(map.pk, board, row.board.name.rsplit(".", 1)[-1])
                Map.objects.filter(pk=map.pk).update(scan_bytes=len(board))
            row.map = map
            row.save(update_fields=["map"])
            return map


@receiver(post_delete, sender=BatchValidation)
def delete_upload_file(sender, instance, **kwargs):
    """A batch's uploaded file goes with it."""
    if instance.upload:
        instance.upload.delete(save=False)


@receiver(post_delete, sender=BatchFile)
def delete_board_file(sender, instance, **kwargs):
    """A file's board image goes with it (a map opened from it keeps its own copy)."""
    if instance.board:
        instance.board.delete(save=False)


class SavedMapping(models.Model):
    """A mapping a designer confirmed in the mapping step, kept with their account and offered again for files
    from the same source: the same set of source codes, or codes from the same tilesets (docs/importing.md)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mappings")
    name = models.CharField(max_length=255, help_text="The file it was made for.")
    source = models.CharField(max_length=32, help_text="The format it maps (tiled, wesnoth, megamek ..).")
    ruleset = models.CharField(max_length=64)
    keys = models.JSONField(default=list, help_text="The source codes it maps, sorted.")
    signature = models.CharField(max_length=64, help_text="The SHA-256 of its sorted codes: the same set of codes.")
    tilesets = models.JSONField(default=list, help_text="The tileset names its codes come from (TILESET#ID), "
                                                        "sorted.")
    mapping = models.JSONField(help_text="The mapping file, as import_map --mapping reads it.")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated", "-id"]
        indexes = [models.Index(fields=["owner", "source", "ruleset", "signature"])]

    def __str__(self):
        return f"mapping for {self.name}"

    @staticmethod
    def signature_of(keys):
        return hashlib.sha256(json.dumps(sorted(keys)).encode("utf-8")).hexdigest()

    @staticmethod
    def tilesets_of(keys):
        """The tileset names in codes such as ``hex mini#13`` (a Tiled tile with no name of its own)."""
        return sorted({key.rsplit("#", 1)[0] for key in keys if "#" in key and key.rsplit("#", 1)[1].isdigit()})

    @classmethod
    def offered(cls, user, source, ruleset, keys):
        """The user's latest mapping for files from the same source, or None: the same set of codes first, else
        one whose codes come from the same tilesets."""
        mine = cls.objects.filter(owner=user, source=source, ruleset=ruleset)
        same = mine.filter(signature=cls.signature_of(keys)).first()
        tilesets = set(cls.tilesets_of(keys))
        if same is not None or not tilesets:
            return same
        return next((saved for saved in mine[:200] if tilesets & set(saved.tilesets)), None)

    @classmethod
    def keep(cls, user, name, source, ruleset, mapping):
        """Save a confirmed mapping, replacing the user's mapping for the same set of codes."""
        keys = sorted(mapping.get("terrain", {}))
        saved, _ = cls.objects.update_or_create(
            owner=user, source=source, ruleset=ruleset, signature=cls.signature_of(keys),
            defaults={"name": name[:255], "keys": keys, "tilesets": cls.tilesets_of(keys), "mapping": mapping})
        return saved
