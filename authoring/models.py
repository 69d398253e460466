"""Scenarios (sides, OOB, setup zones, reinforcements, victory conditions) come with the authoring issue."""
