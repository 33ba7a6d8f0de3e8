from django.urls import path

from account.api import agents, memories, views

urlpatterns = [
    path("export/", views.ExportApi.as_view(), name="api-export"),
    path("me/data/", views.MyDataApi.as_view(), name="api-my-data"),
    # memories' item view with DELETE added (memories' own URLs leave this path out).
    path("memories/<str:memory_id>/", memories.MemoryItemApi.as_view(), name="api-memory-detail"),
    path("agents/", agents.AgentCollectionApi.as_view(), name="api-agent-list"),
    path("agents/<str:agent_id>/", agents.AgentItemApi.as_view(), name="api-agent-detail"),
]
