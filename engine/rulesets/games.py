"""Which games there are: one folder per game (engine/games/<id>/), holding everything the game is.

A game folder holds ``game.json`` (its place in the list; ``overlays``: what its rulebook says of printed
overlays, shown in the painter's overlay panel), ``catalogue.json`` (its terrain
catalogue), its LOS rules (``los``, a module or package with a ``Rules`` class), its scenario checks (``checks``:
``check(doc, board)``, optionally ``forces_drawn`` and ``summary``), its card block (``card``: ``block(doc,
side_ids)``), its map-check data (``map_checks.json``), its default import mappings (``mappings/<format>-<id>.json``)
and its rules page (``rules.md``). Any of the modules and data files may be missing: the game then has none.

This module sits at the bottom of the engine and imports none of it: the machinery (LOS, scenario checks, cards,
map checks, importers) asks it for a game and it imports the game's modules by name when first asked, so the
arrows of static imports run one way, from the game folders down to the machinery. The folders are found on
disk (every folder of engine/games with a game.json); ``register`` adds a folder from elsewhere (a test's game).
"""

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "games"
PACKAGE = "engine.games"

@dataclass(eq=False)
class Game:
    """One game: its id, its folder and the package its modules are imported from."""

    id: str
    folder: Path
    package: str
    order: int = 1000
    overlays: str = ""  # what the game's rulebook says of printed overlays, for the painter's overlay panel

    @property
    def catalogue_path(self):
        return self.folder / "catalogue.json"

    @property
    def map_checks_path(self):
        return self.folder / "map_checks.json"

    @property
    def rules_page(self):
        return self.folder / "rules.md"

    def mapping_path(self, source):
        """The default import mapping from a source format to this game (which may not exist)."""
        return self.folder / "mappings" / f"{source}-{self.id}.json"

    def mappings(self):
        """The source formats this game has a default mapping for."""
        return sorted(p.stem.rpartition(f"-{self.id}")[0] for p in (self.folder / "mappings").glob(f"*-{self.id}.json"))

    def module(self, name):
        """The game's module ``name`` (los, checks, card), or None when the folder has none."""
        if not ((self.folder / f"{name}.py").is_file() or (self.folder / name / "__init__.py").is_file()):
            return None
        return importlib.import_module(f"{self.package}.{name}")

    @cached_property
    def los(self):
        return self.module("los")

    @cached_property
    def checks(self):
        return self.module("checks")

    @cached_property
    def card(self):
        return self.module("card")


def _read(folder, package):
    facts = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    return Game(id=folder.name, folder=folder, package=package, order=facts.get("order", 1000),
                overlays=str(facts.get("overlays") or ""))


def _shipped():
    found = [_read(p, f"{PACKAGE}.{p.name}") for p in sorted(FOLDER.iterdir()) if (p / "game.json").is_file()]
    return {g.id: g for g in sorted(found, key=lambda g: (g.order, g.id))}


_games = _shipped()
SHIPPED = tuple(_games)  # the games that ship with Hexside, in their usual order
_listeners: list[Callable[[], None]] = []  # called when the list changes (the catalogue cache)


def ids():
    """Every game's id, the shipped ones first in their usual order, then the registered ones."""
    return tuple(_games)


def get(game_id):
    """The game with this id; KeyError when there is none."""
    return _games[game_id]


def is_game(game_id):
    return isinstance(game_id, str) and game_id in _games


def all_games():
    return list(_games.values())



def register(folder, package):
    """Add the game in ``folder`` whose modules import as ``package`` (a test's game); returns it."""
    game = _read(Path(folder), package)
    if game.id in SHIPPED:
        raise ValueError(f"{game.id!r} is a game that ships with Hexside and cannot be replaced")
    _games[game.id] = game
    _changed()
    return game


def unregister(game_id):
    if game_id in SHIPPED:
        raise ValueError(f"{game_id!r} is a game that ships with Hexside and cannot be removed")
    _games.pop(game_id, None)
    _changed()


def on_change(listener):
    _listeners.append(listener)


def _changed():
    for listener in _listeners:
        listener()
