"""Advanced Tobruk System, in one folder (what each file is: engine/rulesets/games.py)."""
