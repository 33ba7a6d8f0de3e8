from django.urls import path

from account.api import agents, views

urlpatterns = [
    path("export/", views.ExportApi.as_view(), name="api-export"),
    path("me/data/", views.MyDataApi.as_view(), name="api-my-data"),
    path("agents/", agents.AgentCollectionApi.as_view(), name="api-agent-list"),
    path("agents/<str:agent_id>/", agents.AgentItemApi.as_view(), name="api-agent-detail"),
]
