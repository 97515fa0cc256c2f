from django.urls import path

from assistant import views

urlpatterns = [
    path("", views.ask_page, name="ask"),
]
