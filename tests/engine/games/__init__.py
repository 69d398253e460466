"""Games that only the tests register."""
