"""The mapping step of a checked batch file (docs/importing.md, "The mapping step"): the designer's choices read
into a mapping file, and the mapping-step job started with it, whose work (validations.tasks.mapping_step_work)
previews the map or, once confirmed, converts the file again and opens it as the designer's map. Nothing is written
before the designer confirms.
"""

from rest_framework import serializers

from documents.serializers import Problems
from engine import mapfile, rulesets
from jobs import dispatch
from validations.models import SavedMapping

KIND = "mapping-step"
FLAG = ""  # the picker's "leave as open, and flag it"
NOTHING = "-"  # "nothing, deliberately": the hex keeps what else is mapped


def choice_of(entry):
    """The picker's value for a mapping entry: a terrain id, ids joined by '+', NOTHING or FLAG."""
    if isinstance(entry, dict):
        if entry.get("flag"):
            return FLAG
        entry = entry.get("terrain", [])
    ids = [entry] if isinstance(entry, str) else list(entry)
    return "+".join(ids) if ids else NOTHING


class MappingSerializer(serializers.Serializer):
    """What the page sends: each source code's choice, the levels' scale and offset, and the tallest building kept
    (none: as the source says)."""

    terrain = serializers.DictField(child=serializers.CharField(allow_blank=True, max_length=400))
    scale = serializers.FloatField(min_value=0.001, max_value=1000)
    offset = serializers.FloatField(min_value=-10000, max_value=10000)
    storeys = serializers.IntegerField(min_value=1, max_value=mapfile.MAX_STOREYS, required=False, allow_null=True)

    def __init__(self, *args, row, **kwargs):
        super().__init__(*args, **kwargs)
        self.row = row

    def validate_terrain(self, value):
        proposal = self.row.mapping or {}
        known = set(proposal.get("terrain", {}))
        unknown = sorted(set(value) - known)
        if unknown:
            raise serializers.ValidationError(f"{', '.join(unknown[:5])}: not a source code of {self.row.name}")
        ruleset = rulesets.get(proposal.get("ruleset") or self.row.batch.ruleset or "ost")
        ids = ruleset.terrain_ids("hex")
        for code, choice in value.items():
            bad = [t for t in choice.split("+") if choice not in (FLAG, NOTHING) and t not in ids]
            if bad:
                raise serializers.ValidationError(
                    f"source code {code!r}: {bad[0]!r} is not a terrain of {ruleset.name}; choose one of the list")
        return value

    def mapping(self):
        """The mapping file (as import_map --mapping reads it): the proposal with the designer's choices."""
        proposal = self.row.mapping
        data = self.validated_data
        terrain = {}
        for code, entry in proposal["terrain"].items():
            entry = dict(entry) if isinstance(entry, dict) else {"terrain": entry}
            choice = data["terrain"].get(code, choice_of(entry))
            if choice != choice_of(entry):
                entry.update(confidence=1.0, reason="chosen by the designer")
            entry.pop("flag", None)
            entry["terrain"] = [] if choice in (FLAG, NOTHING) else (choice.split("+") if "+" in choice
                                                                      else choice)
            if choice == FLAG:
                entry["flag"] = True
            terrain[code] = entry
        scale, offset = data["scale"], data["offset"]
        levels = {k: v for k, v in proposal.get("levels", {}).items() if k in ("source_range",)}
        levels.update(scale=int(scale) if scale.is_integer() else scale,
                      offset=int(offset) if offset.is_integer() else offset)
        storeys = {"most": data.get("storeys")}
        if (proposal.get("storeys") or {}).get("tallest") is not None:
            storeys["tallest"] = proposal["storeys"]["tallest"]
        return {"source": proposal.get("source", self.row.source_format), "ruleset": proposal["ruleset"],
                "levels": levels, "storeys": storeys, "terrain": terrain}


def read_mapping(row, data):
    """The mapping the page sent for ``row``, or Problems naming the field."""
    if not row.mapping:
        raise Problems([mapfile.Finding("$", f"{row.name} was converted with the default mapping: there is "
                                             "nothing to map; open it as it is", code="no-mapping")])
    checked = MappingSerializer(data=data, row=row)
    if not checked.is_valid():
        raise Problems([mapfile.Finding(path, " ".join(str(m) for m in (errors if isinstance(errors, list)
                                                                         else [errors])), code="bad-mapping")
                        for path, errors in checked.errors.items()])
    return checked.mapping()


def start(user, row, mapping, confirm, address=""):
    """The mapping-step job for ``row`` with ``mapping``: a preview, or (``confirm``) the file opened with it."""
    job, _ = dispatch.submit(KIND, {"file": row.pk, "mapping": mapping, "confirm": bool(confirm)}, user=user,
                             address=address)
    return job


def offered(user, row):
    """The user's saved mapping for files from the same source as ``row``, or None."""
    if not row.mapping:
        return None
    return SavedMapping.offered(user, row.source_format, row.mapping.get("ruleset", ""), row.mapping["terrain"])

