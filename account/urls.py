"""The account pages under /memories/: the data page and the connected agents."""

from django.urls import path

from account import agent_views, views

app_name = "account"

urlpatterns = [
    path("data/", views.data_overview, name="data"),
    path("data/export/", views.data_export, name="data-export"),
    path("data/erase/", views.data_erase, name="data-erase"),
    path("agents/", agent_views.agent_list, name="agents"),
    path("agents/<int:agent_id>/", agent_views.agent_detail, name="agent"),
    path("agents/<int:agent_id>/change/", agent_views.agent_change, name="agent-change"),
]
