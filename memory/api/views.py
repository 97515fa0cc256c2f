"""Personal-memory API: open loops (and closing one), plans, a person's facts, relationship
metrics, merge suggestions, merges and splits. Every read goes through a user-scoped selector."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from claire.api.auth import request_user
from claire.api.schema import NOT_FOUND, error_response
from conversations.selectors import person_get_for_user
from memory import selectors, services
from memory.api.serializers import (
    LoopClosedSerializer,
    MergeSuggestionsSerializer,
    OpenLoopsSerializer,
    PersonFactsSerializer,
    PersonMergeCreateSerializer,
    PersonMergeSerializer,
    PlansSerializer,
    RelationshipsSerializer,
)
from memory.models import PersonMerge


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _merge_json(merge: PersonMerge) -> dict[str, Any]:
    return {
        "id": merge.pk,
        "keptPersonId": merge.kept_person_id,
        "mergedPersonId": merge.merged_person_id,
        "reason": merge.reason,
        "confidence": merge.confidence,
        "evidenceMessageIds": list(merge.evidence_message_ids or []),
        "createdAt": _iso(merge.created_at),
        "splitAt": _iso(merge.split_at),
    }


class OpenLoopsView(APIView):
    @extend_schema(operation_id="memory_loops", responses={200: OpenLoopsSerializer})
    def get(self, request: Request) -> Response:
        loops = selectors.open_loops_for_user(user=request_user(request), limit=100)
        return Response(
            {
                "loops": [
                    {
                        "id": loop.loop_id,
                        "kind": str(loop.kind),
                        "chatId": loop.chat_id,
                        "platform": loop.platform,
                        "personId": loop.person_id,
                        "personName": loop.person_name,
                        "messageId": loop.opened_by_message_id,
                        "openedAt": _iso(loop.opened_at),
                    }
                    for loop in loops
                ]
            }
        )


class LoopCloseView(APIView):
    @extend_schema(
        operation_id="memory_loop_close",
        request=None,
        responses={200: LoopClosedSerializer, 404: NOT_FOUND},
    )
    def post(self, request: Request, loop_id: int) -> Response:
        loop = services.loop_close(user=request_user(request), loop_id=loop_id, now=timezone.now())
        return Response({"id": loop.pk, "status": loop.status, "closedAt": _iso(loop.closed_at)})


class PlansView(APIView):
    @extend_schema(operation_id="memory_plans", responses={200: PlansSerializer})
    def get(self, request: Request) -> Response:
        plans = selectors.plans_for_user(user=request_user(request), limit=50)
        return Response(
            {
                "plans": [
                    {
                        "id": plan.plan_id,
                        "activity": plan.activity,
                        "place": plan.place,
                        "when": plan.event_label,
                        "status": str(plan.status),
                        "steps": [
                            {
                                "messageId": step.message_id,
                                "chatId": step.chat_id,
                                "platform": step.platform,
                                "status": str(step.status),
                                "when": step.event_label,
                                "sentAt": _iso(step.sent_at),
                            }
                            for step in plan.steps
                        ],
                    }
                    for plan in plans
                ]
            }
        )


class PersonFactsView(APIView):
    @extend_schema(
        operation_id="memory_person_facts",
        responses={200: PersonFactsSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, person_id: int) -> Response:
        user = request_user(request)
        person = person_get_for_user(user=user, person_id=person_id)
        facts = selectors.person_facts_for_user(
            user=user, person_ids=selectors.person_ids_expand(user=user, person_ids=[person.pk])
        )
        return Response(
            {
                "personId": person.pk,
                "facts": [
                    {
                        "id": fact.fact_id,
                        "kind": str(fact.kind),
                        "value": fact.value,
                        "relatedPersonId": fact.related_person_id,
                        "validFrom": _iso(fact.valid_from),
                        "isCurrent": fact.is_current,
                        "supersededBy": fact.superseded_by_id,
                        "sourceMessageIds": list(fact.source_message_ids),
                    }
                    for fact in facts
                ],
            }
        )


class RelationshipsView(APIView):
    @extend_schema(operation_id="memory_relationships", responses={200: RelationshipsSerializer})
    def get(self, request: Request) -> Response:
        ranked = selectors.people_ranking(user=request_user(request), now=timezone.now(), limit=20)
        return Response(
            {
                "people": [
                    {
                        "personId": item.person_id,
                        "displayName": item.display_name,
                        "strength": item.strength,
                        "messages30d": {"received": item.received_30d, "sent": item.sent_30d},
                        "messages90d": {"received": item.received_90d, "sent": item.sent_90d},
                        "messages365d": {"received": item.received_365d, "sent": item.sent_365d},
                        "reciprocity365d": item.reciprocity_365d,
                        "activeDays90d": item.active_days_90d,
                        "daysSinceLastContact": item.days_since_last_contact,
                        "replyLatencyMedianSeconds": item.reply_latency_median_seconds,
                        "platforms": list(item.platforms),
                        "representativeMessageIds": list(item.representative_message_ids),
                    }
                    for item in ranked
                ]
            }
        )


class MergeSuggestionsView(APIView):
    @extend_schema(
        operation_id="memory_merge_suggestions", responses={200: MergeSuggestionsSerializer}
    )
    def get(self, request: Request) -> Response:
        suggestions = selectors.merge_suggestions(user=request_user(request))
        return Response(
            {
                "suggestions": [
                    {
                        "personId": item.person_id,
                        "otherPersonId": item.other_person_id,
                        "displayName": item.display_name,
                        "otherDisplayName": item.other_display_name,
                        "reasons": list(item.reasons),
                    }
                    for item in suggestions
                ]
            }
        )


class PersonMergesView(APIView):
    @extend_schema(
        operation_id="memory_merge_create",
        request=PersonMergeCreateSerializer,
        responses={
            201: PersonMergeSerializer,
            400: error_response("`invalid_merge` or `invalid_request`."),
            404: NOT_FOUND,
            409: error_response("`already_merged`."),
        },
    )
    def post(self, request: Request) -> Response:
        body = PersonMergeCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        merge = services.person_merge(
            user=request_user(request),
            kept_person_id=body.validated_data["keepPersonId"],
            merged_person_id=body.validated_data["mergePersonId"],
            reason="merged by the user",
        )
        return Response(_merge_json(merge), status=status.HTTP_201_CREATED)


class PersonMergeSplitView(APIView):
    @extend_schema(
        operation_id="memory_merge_split",
        request=None,
        responses={200: PersonMergeSerializer, 404: NOT_FOUND},
    )
    def post(self, request: Request, merge_id: int) -> Response:
        merge = services.person_split(
            user=request_user(request), merge_id=merge_id, now=timezone.now()
        )
        return Response(_merge_json(merge))


class PersonFactView(APIView):
    @extend_schema(operation_id="memory_fact_reject", responses={204: None, 404: NOT_FOUND})
    def delete(self, request: Request, fact_id: int) -> Response:
        services.person_fact_reject(user=request_user(request), fact_id=fact_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
