"""The built-in plugin and its capabilities, as code (the seeding migration and
``capabilities_ensure`` write them; an operator can disable or revoke them in the admin).

``open_conversation`` is trusted Claire navigation to a cited message; ``open_calendar``
("Open calendar") only opens the calendar — nothing is created; ``draft_outreach`` prepares a
message for the user to approve: the model may propose it, never send it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

BUILTIN_PLUGIN_KEY = "claire"
OPEN_CONVERSATION = "open_conversation"
OPEN_CALENDAR = "open_calendar"
DRAFT_OUTREACH = "draft_outreach"


@dataclass(frozen=True)
class CapabilitySpec:
    key: str
    kind: str
    label: str
    description: str
    requires_approval: bool
    is_granted_by_default: bool


@dataclass(frozen=True)
class PluginSpec:
    key: str
    name: str
    version: str
    data_policy: dict[str, Any]
    capabilities: tuple[CapabilitySpec, ...]

    def manifest(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "version": self.version,
            "dataPolicy": self.data_policy,
            "capabilities": [
                {
                    "key": capability.key,
                    "kind": capability.kind,
                    "label": capability.label,
                    "requiresApproval": capability.requires_approval,
                }
                for capability in self.capabilities
            ],
        }


BUILTIN_PLUGIN = PluginSpec(
    key=BUILTIN_PLUGIN_KEY,
    name="Claire (built in)",
    version="1",
    # Runs inside Claire: it reads only what the answer cites and keeps drafts on the server
    # until the user approves one; the bridge delivers the approved text and nothing else.
    data_policy={"messageText": "selected_citations", "processing": "local", "retentionDays": 30},
    capabilities=(
        CapabilitySpec(
            key=OPEN_CONVERSATION,
            kind="read",
            label="Open conversation",
            description="Opens a cited message in its conversation.",
            requires_approval=False,
            is_granted_by_default=True,
        ),
        CapabilitySpec(
            key=OPEN_CALENDAR,
            kind="read",
            label="Open calendar",
            description="Opens the calendar at a day. Nothing is created.",
            requires_approval=False,
            is_granted_by_default=True,
        ),
        CapabilitySpec(
            key=DRAFT_OUTREACH,
            kind="propose",
            label="Draft a message",
            description=(
                "Drafts a message to one of your contacts for you to approve, edit or reject. "
                "Nothing is sent unless you approve it."
            ),
            requires_approval=True,
            is_granted_by_default=True,
        ),
    ),
)
