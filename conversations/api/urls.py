from django.urls import path

from conversations.api import views

urlpatterns = [
    path("ingest/batches", views.IngestBatchView.as_view(), name="ingest-batch"),
    path("chats", views.ChatListView.as_view(), name="chat-list"),
    path("chats/<int:chat_id>", views.ChatDetailView.as_view(), name="chat-detail"),
    path("chats/<int:chat_id>/messages", views.ChatMessagesView.as_view(), name="chat-messages"),
    path("people", views.PeopleListView.as_view(), name="people-list"),
    path("me", views.MeView.as_view(), name="me"),
]
