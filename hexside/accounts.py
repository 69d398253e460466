"""Accounts on the site's own pages: sign up here; sign in and out with Django's auth views (hexside/urls.py)."""

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.urls import path


def signup(request):
    if request.user.is_authenticated:
        return redirect("my-maps")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("my-maps")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


urlpatterns = [
    path("signup/", signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
