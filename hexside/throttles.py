"""Rate limits on what costs the most: starting jobs, importing maps, and trying passwords.

A view takes them by naming them, e.g. ``throttle_classes = JOBS`` on any view that starts a job. Each scope
counts twice: per signed-in user (per address for anonymous requests), and per address whoever signed in, so
that many accounts from one address do not multiply the rate. Counts live in Django's cache (shared by every web
process: see CACHES in hexside/settings.py). The rates are the setting HEXSIDE_THROTTLE_RATES, read at every
request, so that a deployment (or a test) can change them. The address is the connection's, or the one the
trusted proxies in front name (REST_FRAMEWORK["NUM_PROXIES"], HEXSIDE_NUM_PROXIES): a client cannot choose it.
"""

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


class ScopeThrottle(SimpleRateThrottle):
    """Requests of one scope, per user when signed in and per address otherwise."""

    scope = None

    def __init__(self):
        pass  # the rate is read at each request (allow_request), not once for the process

    def allow_request(self, request, view):
        self.rate = settings.HEXSIDE_THROTTLE_RATES.get(self.scope)
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        if request.user is not None and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            ident = f"address-{self.get_ident(request)}"
        return f"throttle:{self.scope}:{ident}"


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


JOBS = [JobsThrottle, JobsAddressThrottle]
IMPORTS = [ImportsThrottle, ImportsAddressThrottle]
TOKEN = [TokenThrottle]


class MapImageThrottle(ScopeThrottle):
    """Drawing a map page's picture that is not drawn yet (GET /maps/<id>/map.png): anybody may ask, signed in or
    not, and each new content is a new drawing, so new drawings count per user, or per address for anonymous
    visitors. A picture already drawn, or being drawn, is not counted (maps.views.map_image)."""

    scope = "map-image"


class SignupThrottle(AddressThrottle):
    """New accounts per address: the sign-up page is the one form anybody may post."""

    scope = "signup"
