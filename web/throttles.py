"""Rate limits on what costs the most: starting jobs (every kind, batch validations and the map page's picture
included), computing a map's findings, importing maps, writing revisions (edits and restores), and trying
passwords.

A view takes them by naming them, e.g. ``throttle_classes = JOBS`` on any API view that starts a job, or asks
``check(request, MAP_IMAGES)`` in a plain Django view. Each scope counts twice: per signed-in user (per address for
anonymous requests), and per address whoever signed in, so that many accounts from one address do not multiply
the rate. Counts live in Django's cache (shared by every web process: see CACHES in hexside/settings.py). The
rates are the setting HEXSIDE_THROTTLE_RATES, read at every request, so that a deployment (or a test) can change
them (each rate an environment variable there); a scope it does not name is not limited. The address is
the connection's, or the one the trusted proxies in front name (REST_FRAMEWORK["NUM_PROXIES"],
HEXSIDE_NUM_PROXIES): a client cannot choose it.

A rate only bounds how often work is started; how much may be waiting at once is capped by jobs.limits.
"""

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


def rate_of(scope):
    """A scope's rate; a scope the setting leaves out (as a test may) is not limited."""
    return settings.HEXSIDE_THROTTLE_RATES.get(scope)


class ScopeThrottle(SimpleRateThrottle):
    """Requests of one scope, per user when signed in and per address otherwise."""

    scope = None

    def __init__(self):
        pass  # the rate is read at each request (allow_request), not once for the process

    def allow_request(self, request, view):
        self.rate = rate_of(self.scope)
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        if request.user is not None and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            ident = f"address-{self.get_ident(request)}"
        return f"throttle:{self.scope}:{ident}"


def address_of(request):
    """The address the throttles count a request by (the trusted proxies' word, not the client's)."""
    return ScopeThrottle().get_ident(request)


class AddressThrottle(ScopeThrottle):
    """Requests of one scope per address, signed in or not: for the token endpoint, where nobody is yet."""

    def get_cache_key(self, request, view):
        return f"throttle:{self.scope}:address-{self.get_ident(request)}"


class JobsThrottle(ScopeThrottle):
    """Every endpoint that starts a job (LOS, viewshed, analysis, and any kind added later)."""

    scope = "jobs"


class JobsAddressThrottle(AddressThrottle):
    scope = "jobs-address"


class ImportsThrottle(ScopeThrottle):
    """Creating a map from a map file, or importing one."""

    scope = "imports"


class ImportsAddressThrottle(AddressThrottle):
    scope = "imports-address"


class TokenThrottle(AddressThrottle):
    """Exchanging a username and password for a token: bounds password guessing."""

    scope = "token"


class ValidationsThrottle(ScopeThrottle):
    """Starting a batch validation (an upload of up to HEXSIDE_IMPORT_MAX_BYTES, checked file by file)."""

    scope = "validations"


class ValidationsAddressThrottle(AddressThrottle):
    scope = "validations-address"


class MapImagesThrottle(ScopeThrottle):
    """The map page's picture (/maps/<id>/map.png), which starts a map-image job when it is not drawn yet."""

    scope = "images"


class MapImagesAddressThrottle(AddressThrottle):
    scope = "images-address"


class FindingsThrottle(ScopeThrottle):
    """A map's findings (its rules checks and an LOS sample), computed on the request when not cached."""

    scope = "findings"


class FindingsAddressThrottle(AddressThrottle):
    scope = "findings-address"


class EditsThrottle(ScopeThrottle):
    """Writing a document: edits and restores of maps and scenarios (each one a revision stored)."""

    scope = "edits"


class EditsAddressThrottle(AddressThrottle):
    scope = "edits-address"


JOBS = [JobsThrottle, JobsAddressThrottle]
IMPORTS = [ImportsThrottle, ImportsAddressThrottle]
TOKEN = [TokenThrottle]
VALIDATIONS = [ValidationsThrottle, ValidationsAddressThrottle]
MAP_IMAGES = [MapImagesThrottle, MapImagesAddressThrottle]
FINDINGS = [FindingsThrottle, FindingsAddressThrottle]
EDITS = [EditsThrottle, EditsAddressThrottle]


def check(request, classes):
    """None when the request is within every rate of ``classes``, else the seconds to wait (as DRF counts: a
    refused request is not counted)."""
    waits = []
    for throttle in (cls() for cls in classes):
        if not throttle.allow_request(request, None):
            waits.append(throttle.wait() or 1)
    return max(waits) if waits else None


class SignupThrottle(AddressThrottle):
    """New accounts per address: the sign-up page is the one form anybody may post."""

    scope = "signup"
