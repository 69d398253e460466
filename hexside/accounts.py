"""Accounts on the site's own pages: sign up here; sign in and out with Django's auth views (hexside/urls.py).

Password guessing is stopped by django-axes on every login form (this one, the admin's and POST /api/token/):
the address it counts by is the throttles' (hexside/web/throttles.py), so a client cannot choose it.
"""

import math

from axes.helpers import get_cool_off
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.settings import api_settings

from hexside.web import throttles
from hexside.web.throttles import SignupThrottle


def client_address(request):
    return SignupThrottle().get_ident(request)


def locked_out(request, original_response=None, credentials=None):
    """The answer to a sign-in while its account or address is locked: 429, saying so and for how long."""
    seconds = int(get_cool_off(request).total_seconds())
    minutes = max(1, math.ceil(seconds / 60))
    message = (f"Too many failed sign-ins for this account or from this address: signing in is refused for "
               f"{minutes} minute{'s' if minutes != 1 else ''}, even with the right password. Try again later.")
    if request.path.startswith("/api/"):
        response = JsonResponse({"errors": [{"path": "password", "message": message}]}, status=429)
    else:
        response = render(request, "registration/login.html",
                          {"form": AuthenticationForm(request), "locked_out": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


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
