"""Stop requests travel over the channel layer, so they reach the server process that streams
the answer whichever process received the Stop (Redis layer with several processes)."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from rest_framework import status

from claire.api.errors import ApiError

logger = logging.getLogger(__name__)

STOP_MESSAGE_TYPE = "assistant.stop"


class StopUnavailable(ApiError):
    """The channel layer (Redis) is unreachable: the Stop was not delivered, and the answer
    goes on. The client may send the Stop again."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "stop_unavailable"
    default_detail = "The stop could not be delivered right now. Please send it again."


def stop_group_name(turn_id: int) -> str:
    return f"assistant-turn-{turn_id}"


def stop_broadcast(*, turn_id: int) -> None:
    """Ask whichever process streams assistant turn ``turn_id`` to stop it. Fire and forget:
    a turn that no process streams any more ignores it. ``StopUnavailable`` when the channel
    layer cannot take the message."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(stop_group_name(turn_id), {"type": STOP_MESSAGE_TYPE})
    except Exception as error:
        logger.warning(
            "assistant.stop_broadcast_failed",
            extra={"assistant_turn_id": turn_id, "error_class": type(error).__name__},
        )
        raise StopUnavailable() from None
