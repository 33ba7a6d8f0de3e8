from django.urls import path

from conversations.api import views

urlpatterns = [
    path("sessions/", views.SessionCreateApi.as_view(), name="api-session-create"),
    path("sessions/<str:session_id>/", views.SessionDetailApi.as_view(), name="api-session-detail"),
    path(
        "sessions/<str:session_id>/messages/",
        views.MessageCreateApi.as_view(),
        name="api-message-create",
    ),
]
