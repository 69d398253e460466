"""Maps and scenarios written out for the tools players use: VASSAL modules (vassal.py), Tiled maps (tiled.py).

No Django: each export takes the engine's documents (a MapDoc, a ScenarioDoc) and gives bytes."""
