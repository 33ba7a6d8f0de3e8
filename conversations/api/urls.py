from django.urls import path

from conversations.api import views

urlpatterns = [
    path("sessions/", views.SessionCreateApi.as_view(), name="api-session-create"),
    path("sessions/<str:session_id>/", views.SessionDetailApi.as_view(), name="api-session-detail"),
    path("sessions/<str:session_id>/end/", views.SessionEndApi.as_view(), name="api-session-end"),
    path("messages/<str:message_id>/", views.MessageDetailApi.as_view(), name="api-message-detail"),
    path("tags/", views.TagListApi.as_view(), name="api-tags"),
    path("search/", views.SearchApi.as_view(), name="api-search"),
    path("context/", views.ContextApi.as_view(), name="api-context"),
    path("imports/", views.ImportCreateApi.as_view(), name="api-import-create"),
    path("imports/<str:import_id>/", views.ImportDetailApi.as_view(), name="api-import-detail"),
    path(
        "sessions/<str:session_id>/messages/",
        views.MessageCreateApi.as_view(),
        name="api-message-create",
    ),
]
