"""A proposed mapping for one source file: every terrain code it holds with the terrain it should become, and
a level scale and offset that fit the ruleset, each with how sure the proposal is (docs/importing.md,
"Proposed mappings"). No Django.

The proposal is itself a mapping file (engine/importers/mappings.py reads it back as it is), so a designer can
take it as proposed, edit it, and import with it. A code is proposed, in order of confidence, from:

1. the default mapping of its format and ruleset (an exact key 1.0, a pattern 0.9);
2. a word of the code that is a terrain id or name of the ruleset ("woods:1", "tileGrass_tile": 0.8);
3. a word the table ``mappings/words.json`` knows ("water", "planted_fields", "sand": 0.6, or 0.5 when the
   ruleset lacks the concept's first choice), or for Wesnoth the letters of its codes ("Sm": 0.5);
4. otherwise nothing: the code is kept with its hexes, left open and flagged (``"flag": true``, confidence 0).
"""

import json
import re
from fnmatch import fnmatchcase

from engine import rulesets
from engine.importers import ImportLimits, common, convert_upload, mappings

WORDS = json.loads((mappings.FOLDER / "words.json").read_text(encoding="utf-8"))
NOISE = {"tile", "tiles", "tileset", "hex", "hexes", "hexagon", "terrain", "type", "png", "gif", "jpg", "img",
         "image", "sprite", "the", "of", "and", "a", "var", "variant", "alt", "new", "old", "small", "big", "flat",
         "top", "pointy", "mini", "final"}
CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def words_of(code):
    """The words of a source code: ``tileGrass_tile`` -> grass, ``planted_fields:2`` -> planted, fields."""
    base = code.split("#", 1)[0] if re.search(r"#\d+$", code) else code
    base = base.split(":", 1)[0]
    out = []
    for part in re.split(r"[^A-Za-z0-9]+", base):
        out.extend(w.lower() for w in CAMEL.findall(part) if not w.isdigit())
    return [w for w in out if w not in NOISE and len(w) > 1]


def _first_in(catalogue, ids):
    hexes = catalogue.terrain_ids("hex")
    return next((t for t in ids if t in hexes), None)


def _from_concept(name, catalogue, confidence, why):
    concept = WORDS["concepts"][name]
    level = concept.get("level")
    ids = concept.get("terrain")
    if ids is None:
        return {"terrain": [], "flag": True, "confidence": 0.1,
                "reason": f"{why}: {name} ground, which {catalogue.name} has no terrain for; left open"}
    if not ids:
        entry = {"terrain": [], "confidence": confidence, "reason": f"{why}: {name}"}
        if level:
            entry.update(terrain=catalogue.open_hex(), level=level,
                         reason=f"{why}: {name}, level {level} above the hex's elevation")
        return entry
    chosen = _first_in(catalogue, ids)
    if chosen is None:
        return {"terrain": [], "flag": True, "confidence": 0.1,
                "reason": f"{why}: {name}, which {catalogue.name} has no terrain for; left open"}
    nearest = chosen != ids[0]
    return {"terrain": chosen, "confidence": confidence - 0.1 * nearest,
            "reason": f"{why}: {name}" + (f" ({catalogue.terrain[chosen]['name']} is the nearest)" if nearest
                                          else "")}


def _by_words(code, catalogue):
    words = words_of(code)
    if not words:
        return None
    terrain = catalogue.terrain
    for word in words:  # a terrain of the ruleset by its id or a word of its name
        for tid in catalogue.terrain_ids("hex"):
            if word == tid or word in re.split(r"[^a-z]+", terrain[tid].get("name", "").lower()) and len(word) > 3:
                return {"terrain": tid, "confidence": 0.8,
                        "reason": f"the word {word!r} names {catalogue.name}'s {terrain[tid]['name']}"}
    concepts = WORDS["concepts"]
    hits = {name: [w for w in words if w in c["words"]] for name, c in concepts.items()}
    hits = {name: ws for name, ws in hits.items() if ws and all(hits.get(need) for need in
                                                                 concepts[name].get("with", ()))}
    if not hits:
        return None
    levelled = [n for n in hits if concepts[n].get("level")]
    ground = [n for n in hits if not concepts[n].get("level")]
    # the most specific concept: one that needs another ("heavy" + "forest") wins over the one it needs
    ground.sort(key=lambda n: (-len(concepts[n].get("with", ())), -len(hits[n])))
    entry = _from_concept(ground[0], catalogue, 0.6, f"the word {hits[ground[0]][0]!r}") if ground else None
    if levelled:
        name = max(levelled, key=lambda n: concepts[n]["level"])
        if entry is None or entry.get("flag"):
            entry = _from_concept(name, catalogue, 0.6, f"the word {hits[name][0]!r}")
        else:
            entry["level"] = concepts[name]["level"]
            entry["reason"] += f", level {concepts[name]['level']} ({name})"
    return entry


def _wesnoth(code, catalogue):
    """Wesnoth's codes by their letters: a base (``Gs``) and an overlay (``^Fp``), the overlay winning."""
    parts = [p for p in code.replace("*", "").split("^") if p]
    letters = WORDS["wesnoth_letters"]
    entries = []
    for part in parts:
        name = letters.get(part[:1])
        if name is not None:
            entries.append(_from_concept(name, catalogue, 0.5, f"Wesnoth's {part[:1]!r} codes"))
    useful = [e for e in entries if e.get("terrain") or e.get("level")]
    if not useful:
        return entries[-1] if entries else None
    entry = dict(useful[-1])
    levels = [e["level"] for e in useful if e.get("level")]
    if levels:
        entry["level"] = max(levels)
    return entry


def propose_code(code, mapping, source):
    """One code's proposal: a mapping entry with its confidence and reason."""
    catalogue = mapping.catalogue
    if code in mapping.exact:
        return dict(_entry_dict(mapping.exact[code]), confidence=1.0,
                    reason=f"the default mapping ({mapping.describe()})")
    for pattern, entry in mapping.patterns:
        if fnmatchcase(code, pattern):
            return dict(_entry_dict(entry), confidence=0.9, reason=f"the default mapping's pattern {pattern!r}")
    proposal = _by_words(code, catalogue)
    if (proposal is None or proposal.get("flag")) and source == "wesnoth":
        proposal = _wesnoth(code, catalogue) or proposal
    if proposal is None:
        proposal = {"terrain": [], "flag": True, "confidence": 0.0,
                    "reason": f"nothing in the code says what it is; left as {catalogue.open_hex()} and flagged"}
    return proposal


def _entry_dict(entry):
    out = {"terrain": entry.terrain[0] if len(entry.terrain) == 1 else list(entry.terrain)}
    if entry.level is not None:
        out["level"] = entry.level
    if entry.storeys is not None:
        out["storeys"] = entry.storeys
    if entry.flag:
        out["flag"] = True
    return out


def propose_levels(elevations, mapping):
    """A scale and offset putting the source's elevations inside the ruleset's levels, keeping 0 at 0 when it
    can: the default's when they fit, else shifted, else compressed."""
    catalogue = mapping.catalogue
    scale, offset = mapping.level_scale, mapping.level_offset
    low, high = catalogue.level_min, catalogue.level_max
    if not elevations:
        return {"scale": scale, "offset": offset, "confidence": 1.0, "reason": "the source has no elevations"}
    emin, emax = elevations
    out = {"source_range": [emin, emax]}
    if low <= emin * scale + offset and emax * scale + offset <= high:
        return {"scale": scale, "offset": offset, **out, "confidence": 1.0,
                "reason": f"elevations {emin} to {emax} fit {catalogue.name}'s levels {low} to {high}"}
    if (emax - emin) * scale <= high - low:
        shifted = min(max(offset, low - emin * scale), high - emax * scale)
        return {"scale": scale, "offset": shifted, **out, "confidence": 0.7,
                "reason": f"elevations {emin} to {emax} shifted by {shifted - offset:+g} into {catalogue.name}'s "
                          f"levels {low} to {high}"}
    squeezed = (high - low) / (emax - emin)
    return {"scale": round(squeezed, 4), "offset": round(low - emin * squeezed, 4), **out, "confidence": 0.5,
            "reason": f"elevations {emin} to {emax} are more than {catalogue.name}'s {high - low} levels: "
                      f"compressed into {low} to {high}, so some neighbouring elevations share a level"}


def propose(result, context):
    """The proposed mapping (a dict, JSON-ready) for a conversion that surveyed its source."""
    mapping = mappings.resolve(context)
    survey = result.survey or {"codes": {}, "elevations": None}
    pictures = survey.get("pictures") or {}
    terrain = {}
    for code, seen in sorted(survey["codes"].items(), key=lambda item: (-item[1]["count"], item[0])):
        terrain[code] = {**propose_code(code, mapping, result.source_format), "count": seen["count"],
                         "hexes": seen["hexes"]}
        if code in pictures:  # the tile's picture, for the mapping step (Tiled tilesets)
            terrain[code]["picture"] = pictures[code]
    return {"source": result.source_format, "ruleset": mapping.catalogue.id,
            "note": "proposed by Hexside (engine/importers/suggest.py): check each entry, above all those with a "
                    "low confidence or a flag, then import with it",
            "levels": propose_levels(survey["elevations"], mapping),
            "storeys": {"most": mapping.storeys_most, "tallest": survey.get("tallest")}, "terrain": terrain}


def proposal_for(result, name="upload", ruleset=None, limits=None):
    """The proposal for a conversion already made (its survey), or None when it could not survey the source."""
    if result.survey is None:
        return None
    catalogue = rulesets.get(ruleset or mappings.DEFAULT_RULESET)
    context = common.Context(name=name, files={}, limits=limits, source=result.source_format, ruleset=catalogue.id)
    return propose(result, context)


def suggest(upload, ruleset=None, limits=None):
    """(proposal or None, findings): the upload converted once with the default mapping, then proposed."""
    limits = limits or ImportLimits()
    result = convert_upload(upload, ruleset=ruleset, limits=limits)
    return proposal_for(result, upload.name, ruleset, limits), result.findings
