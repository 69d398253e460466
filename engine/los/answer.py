"""The LOS answer: one shape for the API, the background jobs and the command line (docs/los.md)."""

from dataclasses import dataclass, field

RESULTS = ("clear", "hindered", "blocked")
RESULT_CODE = {name: code for code, name in enumerate(RESULTS)}


@dataclass
class Reason:
    """One hex or hexside that changed the answer, with the rule that applied."""

    hex: str | None
    hexside: str | None
    terrain: str
    effect: str  # "hindering", "blocking", "blind", "ignored" (seen over), ..
    rule: str

    def as_dict(self):
        return {"hex": self.hex, "hexside": self.hexside, "terrain": self.terrain,
                "effect": self.effect, "rule": self.rule}


@dataclass
class Answer:
    from_hex: str
    to_hex: str
    from_level: int
    to_level: int
    result: str = "clear"
    hindrances: int = 0
    blind: bool = False
    term: str = ""
    reasons: list = field(default_factory=list)
    assumptions: list = field(default_factory=list)

    def as_dict(self, reasons=True):
        out = {"from": self.from_hex, "to": self.to_hex, "from_level": self.from_level,
               "to_level": self.to_level, "result": self.result, "hindrances": self.hindrances,
               "blind": self.blind, "term": self.term}
        if reasons:
            out["reasons"] = [r.as_dict() for r in self.reasons]
            out["assumptions"] = list(self.assumptions)
        return out
