from django.contrib.auth import views as auth_views
from django.urls import path

from memoryhub import accounts

urlpatterns = [
    path("signup/", accounts.signup, name="signup"),
    path("login/", accounts.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
