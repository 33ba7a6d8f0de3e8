from django.urls import path

from memories.api import views

urlpatterns = [
    path("memories/", views.MemoryCollectionApi.as_view(), name="api-memory-list"),
    path(
        "memories/<str:memory_id>/versions/",
        views.MemoryVersionListApi.as_view(),
        name="api-memory-versions",
    ),
    path(
        "memories/<str:memory_id>/approve/",
        views.MemoryApproveApi.as_view(),
        name="api-memory-approve",
    ),
    path(
        "memories/<str:memory_id>/reject/",
        views.MemoryRejectApi.as_view(),
        name="api-memory-reject",
    ),
    path(
        "memories/<str:memory_id>/wrong/",
        views.MemoryMarkWrongApi.as_view(),
        name="api-memory-wrong",
    ),
    path(
        "memories/<str:memory_id>/wrong/undo/",
        views.MemoryMarkWrongUndoApi.as_view(),
        name="api-memory-wrong-undo",
    ),
    path("receipts/", views.ReceiptListApi.as_view(), name="api-receipt-list"),
    path("audit-events/", views.AuditEventListApi.as_view(), name="api-audit-event-list"),
]
