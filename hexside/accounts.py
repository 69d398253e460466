"""Accounts on the site's own pages: sign up here; sign in and out with Django's auth views (hexside/urls.py).

Password guessing is stopped by django-axes on every login form (this one, the admin's and POST /api/token/),
so that nobody can lock an account for its owner: failures lock the (account, address) pair, and an address
guessing at many accounts is locked past a higher count (SigninHandler). The address it counts by is the
throttles' (web/throttles.py: the connection's, or the trusted proxies'), so a client cannot choose it.
Signing out revokes the user's API token (revoke_tokens).
"""

import math

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.signals import user_logged_out
from django.db.models import Sum
from django.dispatch import receiver
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.settings import api_settings

from web import throttles
from web.throttles import SignupThrottle


def client_address(request):
    return SignupThrottle().get_ident(request)


class SigninHandler(AxesDatabaseHandler):
    """django-axes' database handler: failures lock the (account, address) pair (AXES_FAILURE_LIMIT, by
    AXES_LOCKOUT_PARAMETERS), and an address past HEXSIDE_LOGIN_ADDRESS_FAILURES failures within the cool-off,
    whichever accounts they named, is locked too; either lasts AXES_COOLOFF_TIME from the last failure."""

    def address_locked(self, request):
        address = getattr(request, "axes_ip_address", None)
        if not address:
            return False
        failures = (AccessAttempt.objects.filter(ip_address=address,
                                                 attempt_time__gte=get_cool_off_threshold(request))
                    .aggregate(n=Sum("failures_since_start"))["n"] or 0)
        if failures < settings.HEXSIDE_LOGIN_ADDRESS_FAILURES:
            return False
        request.hexside_address_locked = True  # for the message (locked_out)
        return True

    def is_locked(self, request, credentials=None):
        return super().is_locked(request, credentials) or self.address_locked(request)

    def user_login_failed(self, sender, credentials, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and not getattr(request, "axes_locked_out", False) and self.address_locked(request):
            request.axes_locked_out = True
            request.axes_credentials = credentials
            user_locked_out.send("axes", request=request, username=get_client_username(request, credentials),
                                 ip_address=request.axes_ip_address)


def locked_out(request, original_response=None, credentials=None):
    """The answer to a sign-in while its account is locked from this address, or the address itself is: 429,
    saying which and for how long."""
    seconds = int(get_cool_off(request).total_seconds())
    minutes = max(1, math.ceil(seconds / 60))
    lasting = f"{minutes} minute{'s' if minutes != 1 else ''}"
    if getattr(request, "hexside_address_locked", False):
        message = (f"Too many failed sign-ins from this address: signing in from it is refused for {lasting}, "
                   "even with the right password. Try again later.")
    else:
        message = (f"Too many failed sign-ins to this account from this address: signing in to it from here is "
                   f"refused for {lasting}, even with the right password. Try again later, or from another "
                   "address.")
    if request.path.startswith("/api/"):
        response = JsonResponse({"errors": [{"path": "password", "message": message}]}, status=429)
    else:
        response = render(request, "registration/login.html",
                          {"form": AuthenticationForm(request), "locked_out": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


@receiver(user_logged_out, dispatch_uid="hexside-revoke-tokens")
def revoke_tokens(sender, request, user, **kwargs):
    """Signing out (the site's page, the admin's) ends the API token too: a script signs in again for a new one."""
    if user is not None:
        Token.objects.filter(user=user).delete()


class TokenView(ObtainAuthToken):
    throttle_classes = throttles.TOKEN  # every try counts, so wrong passwords cannot be tried at speed
    # DRF's view names its own parsers, the stock JSON one among them; the API's refuses deep nesting with a 400
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    @extend_schema(tags=["token"], summary="Exchange a username and password for an API token",
                   description="Send the token as `Authorization: Token <token>`.",
                   responses={200: AuthTokenSerializer,
                              400: OpenApiResponse(description="Wrong username or password."),
                              429: OpenApiResponse(description="Too many tries, or too many failed sign-ins for "
                                                               "this account or from this address.")})
    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            # django-axes marks the request it was given (DRF's, not Django's): its middleware cannot see it
            if getattr(request, "axes_locked_out", False):
                return locked_out(request)
            raise


def signup(request):
    if request.user.is_authenticated:
        return redirect("my-maps")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        throttle = SignupThrottle()
        if not throttle.allow_request(request, None):
            wait = math.ceil(throttle.wait() or 60)
            response = render(request, "registration/signup.html", {
                "form": form, "refused": f"Too many new accounts from this address: try again in "
                                         f"{max(1, math.ceil(wait / 60))} minutes."}, status=429)
            response["Retry-After"] = str(wait)
            return response
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("my-maps")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


urlpatterns = [
    path("signup/", signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
