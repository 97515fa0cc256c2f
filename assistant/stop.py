"""Stop requests travel over the channel layer, so they reach the server process that streams
the answer whichever process received the Stop (Redis layer with several processes)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

STOP_MESSAGE_TYPE = "assistant.stop"


def stop_group_name(turn_id: int) -> str:
    return f"assistant-turn-{turn_id}"


def stop_broadcast(*, turn_id: int) -> None:
    """Ask whichever process streams assistant turn ``turn_id`` to stop it. Fire and forget:
    a turn that no process streams any more ignores it."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(stop_group_name(turn_id), {"type": STOP_MESSAGE_TYPE})
