"""What a job may cost, and how much one user may have waiting: checked before anything is queued.

Two bounds, so that nobody can take the workers from everybody else:

- **One job's cost.** Each kind estimates the work of a request (``Kind.cost(parameters, subject)``: about one
  line of sight traced, or one hex drawn, per unit) and may name a setting bounding it (``Kind.limit``). Past it
  the request is refused (400, naming the figure and the setting) and nothing is queued.
- **Live jobs per requester.** A user (an address, for anonymous requests) may have at most JOBS_LIVE_HEAVY heavy
  and JOBS_LIVE_INTERACTIVE interactive jobs queued or running at once, and their estimated costs may add up to
  at most JOBS_LIVE_COST (a job alone always may). Past either, 429 with Retry-After: a user with three analyses
  waiting gets the fourth when one has finished or been cancelled. Sharing a job already asked costs nothing.
  The jobs started from one address, whoever signed in, are capped too (JOBS_LIVE_*_ADDRESS), so that many
  accounts do not multiply the caps.
"""

from django.conf import settings
from django.db.models import Sum
from rest_framework.exceptions import Throttled

from jobs import conf, kinds


class CostTooHigh(Exception):
    """One job would cost more than its kind's limit; ``payload`` is the 400's body."""

    def __init__(self, kind, cost, limit):
        self.kind, self.cost, self.limit = kind, cost, limit
        text = (f"this {kind} would cost {cost:,} {kind.unit}, more than this server's limit of {limit:,} "
                f"({kind.limit})")
        super().__init__(f"{text}; {kind.advice}" if kind.advice else text)

    def payload(self):
        return {"detail": str(self), "limit": self.kind.limit, "cost": self.cost, "allowed": self.limit}


class TooManyJobs(Throttled):
    """A requester's live jobs are at their cap: DRF answers 429 with Retry-After (``wait``)."""

    default_detail = "too many jobs queued or running"
    extra_detail_singular = extra_detail_plural = "Try again in {wait} s."


def estimate(kind, parameters, subject=None):
    """The cost of one job of ``kind`` (its name) on these parameters; CostTooHigh past the kind's limit."""
    spec = kinds.get(kind)
    cost = max(0, int(spec.cost(parameters, subject)))
    if spec.limit:
        limit = int(getattr(settings, spec.limit))
        if cost > limit:
            raise CostTooHigh(spec, cost, limit)
    return cost


def check_caps(kind, cost, live, address=False, own=None):
    """Raise TooManyJobs when one more job of ``kind`` costing ``cost`` would pass a cap; ``live``: the
    requester's live jobs (a queryset), or with ``address`` those of every requester from one address. The
    refusal names the jobs of ``own`` (the signed-in requester's live jobs) among them, never another's."""
    interactive = conf.is_interactive(kind)
    same_class = [name for name in kinds.KINDS if conf.is_interactive(name) == interactive]
    suffix, whose, who = ("_ADDRESS", "from your address", "one address") if address else ("", "for you", "one user")
    setting = ("LIVE_INTERACTIVE" if interactive else "LIVE_HEAVY") + suffix
    cap = conf.get(setting)
    waiting = live.filter(kind__in=same_class).count()
    what = "interactive" if interactive else "heavy"
    if waiting >= cap:
        yours = [] if own is None else list(own.filter(kind__in=same_class).order_by("id")
                                               .values_list("id", flat=True)[:cap])
        named = f" (yours: jobs {', '.join(map(str, yours))})" if yours else ""
        refuse(f"{waiting} {what} jobs are already queued or running {whose}{named}, the most {who} may have at "
               f"once (JOBS_{setting} = {cap}); ask again when one has finished, or cancel one "
               "(POST /api/jobs/<id>/cancel/)")
    total = live.aggregate(total=Sum("cost"))["total"] or 0
    budget = conf.get("LIVE_COST" + suffix)
    if total and total + cost > budget:
        refuse(f"the jobs queued or running {whose} are estimated at {total:,} units of work and this one at "
               f"{cost:,}: together more than {who} may have at once (JOBS_LIVE_COST{suffix} = {budget:,}); ask "
               "again when one has finished, or cancel one (POST /api/jobs/<id>/cancel/)")


def refuse(detail):
    raise TooManyJobs(wait=conf.get("LIVE_RETRY_AFTER"), detail=detail)
