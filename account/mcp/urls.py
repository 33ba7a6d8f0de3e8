from django.urls import path

from account.mcp.views import mcp_endpoint

urlpatterns = [
    path("mcp/", mcp_endpoint, name="mcp"),
    # No slash redirect: an MCP client follows none for a POST.
    path("mcp", mcp_endpoint),
]
