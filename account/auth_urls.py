from django.contrib.auth import views as auth_views
from django.urls import path

from account import auth

urlpatterns = [
    path("signup/", auth.signup, name="signup"),
    path("login/", auth.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
