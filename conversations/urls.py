from django.urls import path

from conversations import views

urlpatterns = [
    path("chats/", views.home, name="home"),
    path("chats/<int:chat_id>/", views.chat_view, name="chat-view"),
]
