from django.urls import path

from assistant import views

urlpatterns = [
    path("", views.ask_page, name="ask"),
    path("client/<str:name>", views.client_module, name="client-module"),
]
