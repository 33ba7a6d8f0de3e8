from django.urls import path

from conversations import views

app_name = "chat"

urlpatterns = [
    path("", views.session_list, name="session-list"),
    path("sessions/new/", views.session_create, name="session-create"),
    path("sessions/<int:session_id>/", views.session_detail, name="session-detail"),
    path("sessions/<int:session_id>/end/", views.session_end, name="session-end"),
    path("sessions/<int:session_id>/delete/", views.session_delete, name="session-delete"),
    path("sessions/<int:session_id>/messages/", views.message_create, name="message-create"),
    path(
        "sessions/<int:session_id>/messages/<int:message_id>/reply/",
        views.message_reply,
        name="message-reply",
    ),
    path("messages/<int:message_id>/", views.message_detail, name="message-detail"),
    path(
        "messages/<int:message_id>/memories/",
        views.message_memory_updates,
        name="message-memory-updates",
    ),
    path(
        "messages/<int:message_id>/memories/<int:memory_id>/undo/",
        views.memory_update_undo,
        name="memory-update-undo",
    ),
    path("tags/", views.tag_list, name="tags"),
]
