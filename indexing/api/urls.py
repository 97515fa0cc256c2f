from django.urls import path

from indexing.api import views

urlpatterns = [
    path("index/status", views.IndexStatusView.as_view(), name="index-status"),
    path("index/failures", views.EmbeddingFailuresView.as_view(), name="index-failures"),
]
