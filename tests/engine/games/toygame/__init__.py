"""The toy game: a sixth game that only the tests register, to prove a game lives in its folder alone."""
