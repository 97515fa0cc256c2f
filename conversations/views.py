"""Server-rendered pages: the user's chats and one conversation, scoped to the signed-in user."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from claire.api.auth import request_user
from claire.errors import NotFound
from claire.params import positive_id
from conversations import selectors
from conversations.models import Message


@login_required
def home(request: HttpRequest) -> HttpResponse:
    chats = selectors.chats_for_user(user=request_user(request)).order_by("-last_message_at", "-id")
    return render(request, "conversations/home.html", {"chats": chats})


@login_required
def chat_view(request: HttpRequest, chat_id: int) -> HttpResponse:
    """One conversation, newest 200 messages around an optional ``?message=`` anchor."""
    try:
        chat = selectors.chat_get_for_user(user=request_user(request), chat_id=chat_id)
    except NotFound:
        raise Http404 from None
    anchor_id = request.GET.get("message", "")
    queryset = Message.objects.filter(
        user=request_user(request), chat=chat, deleted_at__isnull=True
    ).select_related("sender_person")
    anchor_pk = positive_id(anchor_id)
    if anchor_pk is not None:
        anchor = queryset.filter(pk=anchor_pk).first()
        if anchor is None:
            raise Http404
        before = list(
            queryset.filter(sent_at__lte=anchor.sent_at).order_by("-sent_at", "-id")[:100]
        )
        after = list(queryset.filter(sent_at__gt=anchor.sent_at).order_by("sent_at", "id")[:100])
        messages = [*reversed(before), *after]
    else:
        messages = list(reversed(queryset.order_by("-sent_at", "-id")[:200]))
    return render(
        request,
        "conversations/chat.html",
        {
            "chat": chat,
            "messages": messages,
            # Only a well-formed id reaches the page (``positive_id``: "²" passes isdigit()).
            "anchor_pk": anchor_pk,
        },
    )
