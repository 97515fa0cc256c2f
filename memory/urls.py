from django.urls import path

from memory import views

urlpatterns = [
    path("calendar/", views.calendar_view, name="calendar"),
]
