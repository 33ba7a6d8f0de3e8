"""The account pages under /memories/: the data page, the connected agents, and deleting a
memory (it reaches conversations, so it is not among memories' pages)."""

from django.urls import path

from account import agent_views, memory_views, views

app_name = "account"

urlpatterns = [
    path("data/", views.data_overview, name="data"),
    path("data/export/", views.data_export, name="data-export"),
    path("data/erase/", views.data_erase, name="data-erase"),
    path("<int:memory_id>/delete/", memory_views.memory_delete, name="memory-delete"),
    path("agents/", agent_views.agent_list, name="agents"),
    path("agents/<int:agent_id>/", agent_views.agent_detail, name="agent"),
    path("agents/<int:agent_id>/change/", agent_views.agent_change, name="agent-change"),
]
