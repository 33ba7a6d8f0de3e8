"""The project's URLs: each app's, by module name (this package imports no app)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from memoryhub.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("", include("account.mcp.urls")),
    path("api/v1/", include("account.api.urls")),
    path("api/v1/", include("memories.api.urls")),
    path("api/v1/", include("conversations.api.urls")),
    path("accounts/", include("account.auth_urls")),
    path("memories/", include("account.urls")),
    path("memories/", include("memories.urls")),
    path("", include("conversations.urls")),
    path("", include("account.typed_urls")),  # last: a real page wins over a redirect
]

handler400 = "memoryhub.views.bad_request"
handler404 = "memoryhub.views.not_found"
handler500 = "memoryhub.views.server_error"
