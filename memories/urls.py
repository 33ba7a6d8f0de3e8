from django.urls import path

from memories import views

app_name = "memories"

urlpatterns = [
    path("", views.memory_list, name="list"),
    path("<int:memory_id>/", views.memory_detail, name="detail"),
    path("<int:memory_id>/edit/", views.memory_edit, name="edit"),
    path("<int:memory_id>/approve/", views.memory_approve, name="approve"),
    path("<int:memory_id>/reject/", views.memory_reject, name="reject"),
    path("<int:memory_id>/wrong/", views.memory_mark_wrong, name="wrong"),
    path("<int:memory_id>/wrong/undo/", views.memory_mark_wrong_undo, name="wrong-undo"),
    path("suggestions/", views.memory_suggestions, name="suggestions"),
    path("receipts/", views.receipt_list, name="receipts"),
    path("receipts/<uuid:receipt_id>/", views.receipt_detail, name="receipt"),
    path("access/", views.access_log, name="access-log"),
]
