"""The site's forms for maps: a new map and an imported map file.

They check nothing of their own: a new map is checked by the API's doc_from_request (the map format's rules), a
file by mapfile.parse, a scan by maps.scans; each finding is shown beside the field it is about.
"""

from django import forms

from engine import edits, importers, mapfile, rulesets
from engine.hexgrid import LABEL_SCHEMES, MAX_SIZE, ORIENTATIONS, STAGGERS
from maps import scans
from maps.api import doc_from_request
from maps.state import check_name

ORIENTATION_NAMES = {"flat": "flat-topped (columns)", "pointy": "pointy-topped (rows)"}
LABEL_EXAMPLES = {"letter-number": "letter-number (C4, BB10)", "xxyy": "xxyy (0304)", "xx.yy": "xx.yy (03.04)"}


def add_findings(form, findings, fields):
    """Each map-format finding as an error on the field its path names, the others on the whole form."""
    for finding in findings:
        head = finding.path.split(".")[-1].split("[")[0]
        field = head if head in fields else None
        form.add_error(field, str(finding) if field is None else finding.message)


class NewMapForm(forms.Form):
    name = forms.CharField(max_length=200)
    ruleset = forms.ChoiceField(help_text="The game whose terrain and rules the map uses.")
    orientation = forms.ChoiceField(choices=[(o, ORIENTATION_NAMES.get(o, o)) for o in ORIENTATIONS])
    columns = forms.IntegerField(initial=20, help_text=f"1 to {MAX_SIZE}")
    rows = forms.IntegerField(initial=12, help_text=f"1 to {MAX_SIZE}")
    stagger = forms.ChoiceField(choices=[(s, s) for s in STAGGERS], initial="even",
                                help_text="Which columns (flat) or rows (pointy) sit half a hex lower or further "
                                          "right: even for Old School Tactical's boards.")
    labels = forms.ChoiceField(label="Hex labels", choices=[(s, LABEL_EXAMPLES.get(s, s)) for s in LABEL_SCHEMES])
    hex_metres = forms.FloatField(label="Hex size (metres)", required=False,
                                  help_text="Metres across one hex; the ruleset's own when left empty.")
    scan = forms.FileField(label="Board scan", required=False,
                           help_text="Optional: a PNG or JPEG of a printed board, to trace in the painter.")
    published = forms.BooleanField(required=False, help_text="Everyone may see a published map.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(r.id, f"{r.name} ({r.id})") for r in rulesets.all_rulesets()]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        grid = {key: data[key] for key in ("orientation", "columns", "rows", "stagger", "labels")}
        if data.get("hex_metres") is not None:
            grid["hex_metres"] = data["hex_metres"]
        try:
            data["doc"] = doc_from_request({"name": data["name"], "ruleset": data["ruleset"], "grid": grid})
        except mapfile.MapFormatError as exc:
            add_findings(self, exc.errors, self.fields)
        if data.get("scan") is not None:
            try:
                data["scan_data"] = scans.check(data["scan"])
            except scans.ScanError as exc:
                self.add_error("scan", str(exc))
        return data


def name_field():
    """A map's name chosen on import (the Import page, the validations API): blank keeps the file's own."""
    return forms.CharField(required=False, max_length=edits.NAME_LENGTH, strip=True, label="Map name", help_text=(
        "Blank: the name the file gives (a Tiled map's name property, a VASSAL module's name, else the file's "
        "name); an upload of several maps puts it before each map's own."))


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (a Tiled map with its tilesets), as Django's documentation shows it."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class ImportForm(forms.Form):
    """A map file of any format the importers read. A Hexside map file is checked here and made at once; any
    other format (or several files, or a zip) is converted in the background by whoever registered to
    (maps.importing.background_import: batch validation), with the ruleset chosen."""

    file = MultipleFileField(label="Map file", help_text=(
        "A Hexside map (.json, as “Download the map file” writes it); a Tiled map (.tmx, .tmj or .json) with its "
        "tilesets and images, as several files or a zip; a Battle for Wesnoth .map; a MegaMek .board; a VASSAL "
        "module (.vmod) or buildFile; a VASL board (its bdXX archive, or BoardMetadata.xml with the board image); "
        "or a zip of several maps."))
    name = name_field()
    ruleset = forms.ChoiceField(required=False, help_text="The game a community map's terrain and levels are "
                                                          "mapped to (a Hexside map names its own).")
    published = forms.BooleanField(required=False, help_text="Everyone may see a published map.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [("", "Old School Tactical (the default)")] + [
            (r.id, f"{r.name} ({r.id})") for r in rulesets.all_rulesets()]

    def clean_file(self):
        uploads = self.cleaned_data["file"]
        self.cleaned_data["doc"] = None
        if len(uploads) == 1 and importers.detect(uploads[0].name, uploads[0].read(65536)) == "hexside":
            uploads[0].seek(0)
            try:
                doc = mapfile.parse(uploads[0].read())
                doc.name = self.data.get("name", "").strip() or doc.name
                check_name(doc.name)
            except mapfile.MapFormatError as exc:
                raise forms.ValidationError([str(finding) for finding in exc.errors]) from None
            self.cleaned_data["doc"] = doc
        for upload in uploads:
            upload.seek(0)
        return uploads
