from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from memoryhub.accounts import AdminLoginForm
from memoryhub.health import healthz

admin.site.login_form = AdminLoginForm  # the same failed-login budget as the site's login

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("", include("conversations.mcp.urls")),
    path("api/v1/", include("memories.api.urls")),
    path("api/v1/", include("conversations.api.urls")),
    path("accounts/", include("memoryhub.accounts_urls")),
    path("memories/", include("memories.urls")),
    path("", include("conversations.urls")),
    path("", include("memoryhub.typed_urls")),  # last: a real page wins over a redirect
]

handler400 = "memoryhub.views.bad_request"
handler404 = "memoryhub.views.not_found"
handler500 = "memoryhub.views.server_error"
