from django.urls import path

from assistant.api import views

# POST assistant/messages is served by the ASGI application in assistant.consumers.
urlpatterns = [
    path("assistant/threads", views.ThreadListView.as_view(), name="assistant-thread-list"),
    path(
        "assistant/threads/<int:thread_id>/turns",
        views.ThreadTurnsView.as_view(),
        name="assistant-thread-turns",
    ),
    path("assistant/turns/<int:turn_id>", views.TurnDetailView.as_view(), name="assistant-turn"),
    path(
        "assistant/turns/<int:turn_id>/cancel",
        views.TurnCancelView.as_view(),
        name="assistant-turn-cancel",
    ),
]
