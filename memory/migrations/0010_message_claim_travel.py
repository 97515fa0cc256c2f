from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.models import Max


def travel_claims_backfill(apps: Apps, schema_editor: Any) -> None:
    """Mark the trips of messages ingested before trips were read at ingest."""
    from memory.away import TRAVEL_VOCABULARY, travel_kind

    Message = apps.get_model("conversations", "Message")
    MessageClaim = apps.get_model("memory", "MessageClaim")
    rows = Message.objects.filter(
        is_from_self=True, deleted_at__isnull=True, kind="text", text__iregex=TRAVEL_VOCABULARY
    ).values_list("pk", "user_id", "text")
    marks = [(pk, user_id, travel_kind(text)) for pk, user_id, text in rows.iterator()]
    marks = [mark for mark in marks if mark[2]]
    last = dict(
        MessageClaim.objects.filter(message_id__in=[pk for pk, _user, _kind in marks])
        .values("message_id")
        .annotate(last=Max("position"))
        .values_list("message_id", "last")
    )
    MessageClaim.objects.bulk_create(
        [
            MessageClaim(
                user_id=user_id,
                message_id=pk,
                position=last.get(pk, -1) + 1,
                source="travel",
                value=kind,
            )
            for pk, user_id, kind in marks
        ],
        batch_size=2000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0009_person_chat_day_covering_index"),
    ]

    operations = [
        migrations.AlterField(
            model_name="messageclaim",
            name="source",
            field=models.CharField(
                choices=[
                    ("statement", "A fact the message states"),
                    ("nationality", "A nationality the author states (sensitive)"),
                    ("addressed", "A relation word the message addresses someone with"),
                    ("signed", "A relation word the message is signed with"),
                    ("travel", "A trip the user's own message marks: leaving, arrived or back"),
                ],
                max_length=12,
            ),
        ),
        migrations.RunPython(travel_claims_backfill, migrations.RunPython.noop),
    ]
