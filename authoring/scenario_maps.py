"""Which maps of the library a scenario names, and what a reader may see of them through it.

A scenario names library maps by id or by name (docs/scenario-format.md). Which map an entry means is the owner's:
by id the map itself, by name the owner's own map of that name, else the oldest published one, so that an entry
means the same map for every reader. Whether a reader may see it is the reader's: every read through a scenario
(its page, its file, its jobs) asks ``maps_for(scenario, reader)``, and a map the reader may not read is a problem
naming its entry's path, never its content (a private map stays its owner's, whoever published the scenario).

The web process reads only the maps' rows (name, ruleset, grid, content hash): enough to read a scenario's hexes
(``outline``), never a map document. A job carries the pins, ``[key, map id, content hash]``, and the worker reads
the documents it names (``pinned_lookup``). A scenario names at most HEXSIDE_MAX_SCENARIO_MAPS library maps, each
once: a second entry for the same map is refused (its hexes are the first entry's, named by that entry's key).
"""

import re
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from engine import mapfile
from engine.hexgrid import Grid
from engine.mapfile import Finding, MapDoc
from engine.scenarios import scenariofile
from maps.models import Map

DEFAULT_LIMIT = 8


def limit():
    return getattr(settings, "HEXSIDE_MAX_SCENARIO_MAPS", DEFAULT_LIMIT)


class MapsUnreadable(scenariofile.ScenarioFormatError):
    """Maps of a scenario this reader may not have through it (private, gone, too many, the same twice)."""


@dataclass(frozen=True)
class Pin:
    """A library map as a scenario entry names it, read as its row only."""

    key: str
    map: Map

    def outline(self):
        """The map as the scenario format reads hexes against it: name, ruleset and grid, no hexes."""
        return MapDoc(name=self.map.name, ruleset=self.map.ruleset, grid=Grid(**self.map.grid))

    def as_parameter(self):
        return [self.key, self.map.pk, self.map.content_hash]


def _may_read(map, user):
    return map.published or (user is not None and user.is_authenticated and map.owner_id == user.pk)


def named_map(owner_id, name):
    """The map a scenario of this owner means by a name: the owner's own of that name, else the oldest published."""
    named = Map.objects.filter(Q(published=True) | Q(owner_id=owner_id), name=name).order_by("pk")
    return named.filter(owner_id=owner_id).first() or named.first()


class Resolver:
    """Finds library maps for one reading of one scenario, as its owner names them and as the reader may see
    them, refusing the same map twice and more than limit() maps. ``lookup`` is scenariofile.parse's map lookup."""

    def __init__(self, owner, reader=None):
        self.owner = owner
        self.reader = owner if reader is None else reader
        self.pins = {}  # key -> Pin
        self.seen = {}  # map id -> key

    def find(self, entry):
        key = entry.get("key")
        map, what = self.resolve(entry)
        self.check(entry, map, what)
        if map.pk in self.seen:
            raise scenariofile.MapLookupError(
                f"{what} is already this scenario's map {self.seen[map.pk]!r}: name each map once, and its hexes "
                f"as '{self.seen[map.pk]}:C4'")
        if len(self.seen) >= limit():
            raise scenariofile.MapLookupError(
                f"a scenario names at most {limit()} maps of the library (HEXSIDE_MAX_SCENARIO_MAPS)")
        self.seen[map.pk] = key
        pin = self.pins[key] = Pin(key, map)
        return pin

    def resolve(self, entry):
        """(the map, it in words) an entry means, as the owner names maps; MapLookupError when there is none."""
        if "id" in entry:
            map = Map.objects.filter(pk=entry["id"]).first()
            if map is None or not _may_read(map, self.owner):
                raise not_found(entry)
            return map, f"map {map.pk}"
        map = named_map(self.owner.pk, entry["name"])
        if map is None:
            raise not_found(entry)
        return map, f"the map named {entry['name']!r}"

    def check(self, entry, map, what):
        if not _may_read(map, self.reader):
            raise scenariofile.MapLookupError(f"{what} is private: only its owner may read it (the scenario's owner "
                                              "must publish it)")

    def lookup(self, entry):
        return self.find(entry).outline()


def not_found(entry):
    """The refusal of a map that is not there for whoever named it: the same words whether it exists or not."""
    if "id" in entry:
        return scenariofile.MapLookupError(f"no map {entry['id']} (or a private map of another user)")
    return scenariofile.MapLookupError(f"no map named {entry['name']!r} that you may read")


def library_maps(user):
    """A map lookup for scenariofile.parse when a user writes a scenario (create, import, edit): the maps they may
    read, by id or by name, as outlines (the rows only)."""
    return Resolver(user).lookup


class EditResolver(Resolver):
    """The maps of a scenario as ``author`` changes it (an edit, a restore), still named as its owner names them,
    and checked by the rights of whoever makes the change: a map the change newly names must be one the author
    may read (an editor cannot point the scenario at its owner's private map), refused in the same words whether
    it exists or not; an editor's edit names a new map by id, since a name would resolve by the owner's private
    maps; and a published scenario names only published maps, whoever changes it."""

    def __init__(self, scenario, author, before, by_name=False):
        super().__init__(scenario.owner)
        self.author = author
        self.published = scenario.published
        self.before = references(before)
        self.editor = author is not None and author.pk != scenario.owner_id
        self.by_name = by_name

    def resolve(self, entry):
        if self.editor and "name" in entry and not self.by_name and ("name", entry["name"]) not in self.before:
            raise scenariofile.MapLookupError("an editor names a map of the library by its id (on the map's "
                                              "page), not by its name")
        return super().resolve(entry)

    def check(self, entry, map, what):
        how = "id" if "id" in entry else "name"
        new = (how, entry[how]) not in self.before
        if self.editor and (new or self.published) and not _may_read(map, self.author):
            raise not_found(entry)
        if self.published and not map.published:
            raise scenariofile.MapLookupError(f"{what} is private, and a published scenario names only published "
                                              "maps: publish the map, or unpublish the scenario first")


def edit_maps(scenario, author, before, by_name=False):
    """A map lookup for scenariofile.parse when ``author`` changes the scenario from the document ``before``."""
    return EditResolver(scenario, author, before, by_name).lookup


def references(document):
    """The library maps a scenario document names, as ("id", 12) and ("name", "Hill")."""
    return {(how, entry[how]) for _, entry in _entries(document) for how in ("id", "name")
            if isinstance(entry.get(how), (int, str))}


def _entries(document):
    items = document.get("maps") if isinstance(document, dict) else None
    return [(k, e) for k, e in enumerate(items) if isinstance(e, dict)] if isinstance(items, list) else []


def maps_for(scenario, reader, document=None):
    """The scenario's library maps as ``reader`` may have them through it: a Pin per entry naming one, in order.

    Reads the maps' rows only. Raises MapsUnreadable naming each entry's path when one is private to the reader,
    gone, the same as an earlier one, or past the limit."""
    document = scenario.document if document is None else document
    named = [(index, entry, "id" if "id" in entry else "name") for index, entry in _entries(document)
             if "id" in entry or "name" in entry]  # an embedded map comes with the scenario
    if len(named) > limit():  # a scenario stored before the limit: refused before any map is looked up
        raise MapsUnreadable([Finding("maps", f"names {len(named)} maps of the library, more than this server's "
                                              f"limit of {limit()} (HEXSIDE_MAX_SCENARIO_MAPS)", code="too-many")])
    resolver = Resolver(scenario.owner, reader)
    pins, problems = [], []
    for index, entry, how in named:
        try:
            pins.append(resolver.find(entry))
        except scenariofile.MapLookupError as exc:
            problems.append(Finding(f"maps[{index}].{how}", str(exc), code="unknown-map"))
    if problems:
        raise MapsUnreadable(problems)
    return pins


def outline_doc(scenario, reader, document=None):
    """The scenario read as ``reader`` may have it, every map as an outline: for what the web process answers
    (the file, the page). A library map is its row; a map file embedded in the stored scenario (written by the
    map format's own reader when it was stored) is its header, not read hex by hex again. ``data`` is the stored
    document. MapsUnreadable or ScenarioFormatError."""
    document = scenario.document if document is None else document
    outlines = {pin.key: pin.outline() for pin in maps_for(scenario, reader, document)}
    entries = []
    for entry in document.get("maps") or []:
        embedded = entry.get("document") if isinstance(entry, dict) else None
        if isinstance(embedded, dict):
            try:
                outlines[entry["key"]] = MapDoc(name=embedded["name"], ruleset=embedded["ruleset"],
                                                grid=Grid(**embedded["grid"]),
                                                extensions=embedded.get("extensions") or {})
                entry = {**{k: v for k, v in entry.items() if k != "document"}, "name": embedded["name"]}
            except (KeyError, TypeError):
                pass  # not as the map format writes it: read whole, which says what is wrong
        entries.append(entry)
    read = scenariofile.parse({**document, "maps": entries}, lambda entry: outlines[entry["key"]])
    return scenariofile.ScenarioDoc(data=document, maps=read.maps)


def changed_map(scenario, reader, key):
    """The map of entry ``key`` as the scenario's special rules change it (engine/scenarios/terrain_rules.py): what
    the editor draws, LOS and the checks read. For a ``reader`` who may have the scenario's maps (MapsUnreadable
    otherwise); None when the scenario has no map of that key. A map no rule changes comes back as it is."""
    document = scenario.document
    entries = [e for e in document.get("maps") or [] if isinstance(e, dict)]
    if not any(e.get("key") == key for e in entries):
        return None
    pins = {pin.key: pin for pin in maps_for(scenario, reader, document)}
    doc = scenariofile.parse(document, lambda entry: pins[entry["key"]].map.mapdoc())
    return mapfile.to_dict(doc.maps[key])


def main_pin(pins, document):
    """The Pin of the main map (the first entry) when it is a library map, else None."""
    entries = (document.get("maps") or [{}]) if isinstance(document, dict) else [{}]
    first = entries[0] if entries and isinstance(entries[0], dict) else {}
    return next((pin for pin in pins if pin.key == first.get("key")), None)


def pinned_lookup(parameters, requester):
    """A map lookup for a worker: the map documents a job's pins name, at their content hashes, if the job's
    requester may still read them. MapLookupError otherwise."""
    pins = {key: (map_id, content_hash) for key, map_id, content_hash in parameters}

    def lookup(entry):
        if entry["key"] not in pins:
            raise scenariofile.MapLookupError(f"the job was not asked about a map {entry['key']!r}; ask again")
        map_id, content_hash = pins[entry["key"]]
        map = Map.objects.filter(pk=map_id).first()
        if map is None or not _may_read(map, requester):
            raise scenariofile.MapLookupError(f"map {map_id} is gone or private")
        if map.content_hash == content_hash:
            return map.mapdoc()
        number = (map.revisions.filter(content_hash=content_hash).order_by("-number")
                  .values_list("number", flat=True).first())
        if number is None:
            raise scenariofile.MapLookupError(f"map {map_id} no longer holds the content this job was asked about")
        return map.state_at(number).doc

    return lookup


def pins_readable(pins, reader):
    """Whether ``reader`` may read every map a job's pins name (``[key, map id, content hash]``): a job drawn or
    traced on a map shows that map, so it is only for whoever may read the map itself (an editor of a scenario
    on its owner's private map included). A map gone is not readable."""
    ids = {pin[1] for pin in pins or ()}
    if not ids:
        return True
    maps = list(Map.objects.filter(pk__in=ids).only("pk", "published", "owner_id"))
    return len(maps) == len(ids) and all(_may_read(map, reader) for map in maps)


def publish_problems(scenario, publish_maps=False):
    """Why the scenario cannot be published (the maps it names that are not), as findings; with ``publish_maps``
    the owner's own private maps are published here and only others' would be a problem."""
    pins = maps_for(scenario, scenario.owner)
    private = [pin for pin in pins if not pin.map.published]
    mine = [pin.map.pk for pin in private if pin.map.owner_id == scenario.owner_id]
    if publish_maps and len(mine) == len(private):
        Map.objects.filter(pk__in=mine).update(published=True, updated=timezone.now())
        return []
    return [Finding("published", f"the map {pin.map.name!r} is private: publish it first, or publish the "
                                 "scenario with its maps too" if pin.map.owner_id == scenario.owner_id else
                    f"the map {pin.map.name!r} is another designer's and private: it can be published only by them")
            for pin in private]


def names_map(document, map):
    """Whether a scenario document names this map (by id, or by a name its owner's scenarios resolve to it)."""
    return any(entry.get("id") == map.pk or entry.get("name") == map.name for _, entry in _entries(document))


def uses_map(owner_id, document, map):
    """Whether a scenario of this owner names the map: by its id, or by a name its owner's reading resolves to it
    (names_map's precise form, for deleting the map)."""
    return bool(entries_naming(owner_id, document, map))


def entries_naming(owner_id, document, map):
    """The indexes of the map entries of a scenario of this owner that name the map (by id, or by a name its
    owner's reading resolves to it)."""
    found = []
    for index, entry in _entries(document):
        if "id" in entry:
            if entry["id"] == map.pk:
                found.append(index)
        elif entry.get("name") == map.name:
            named = named_map(owner_id, map.name)
            if named is not None and named.pk == map.pk:
                found.append(index)
    return found


def unreadable_words(document, problems):
    """Why a scenario's maps cannot be read, for its page: the maps named as the designer knows them (the main
    map, or the map of its key), with no JSON path or map id (the API's findings keep those)."""
    keys = {k: entry.get("key") for k, entry in _entries(document)}
    said = []
    for problem in problems:
        index = re.match(r"maps\[(\d+)\]", problem.path or "")
        which = int(index.group(1)) if index else None
        if which is None:
            said.append(problem.message)
            continue
        what = "This scenario's map" if len(keys) == 1 else (
            "This scenario's main map" if which == 0 else f"This scenario's map “{keys.get(which)}”")
        why = ("is private: only its owner may read it, and must publish it for this scenario"
               if "private:" in problem.message else "cannot be found: it was deleted, or it is another designer's "
               "private map")
        said.append(f"{what} {why}.")
    return " ".join(said)


def gone_entries(scenario):
    """The entries of a scenario whose library map no longer exists (deleted, or never there): ``[(index, key,
    what)]``, what in words ("its map", "the map named 'Hill'"; no map id), for the page that points them at
    another map."""
    gone = []
    for index, entry in _entries(scenario.document):
        if "id" in entry:
            if not Map.objects.filter(pk=entry["id"]).exists():
                gone.append((index, entry.get("key"), "its map" if index == 0 else "a map of it"))
        elif "name" in entry and named_map(scenario.owner_id, entry["name"]) is None:
            gone.append((index, entry.get("key"), f"the map named {entry['name']!r}"))
    return gone
