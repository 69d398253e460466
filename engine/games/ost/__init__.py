"""Old School Tactical, in one folder (what each file is: engine/rulesets/games.py)."""
