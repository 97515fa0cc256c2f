from django.urls import path

from retrieval.memory import views

urlpatterns = [
    path("calendar/", views.calendar_view, name="calendar"),
]
