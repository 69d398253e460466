"""Assault: Sicily '43, in one folder (what each file is: engine/rulesets/games.py)."""
