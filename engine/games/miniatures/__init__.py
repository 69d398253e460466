"""Untitled WWII miniatures quick reference, in one folder (what each file is: engine/rulesets/games.py)."""
