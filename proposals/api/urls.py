from django.urls import path

from proposals.api import views

urlpatterns = [
    path("proposals", views.ProposalListView.as_view(), name="proposal-list"),
    path("proposals/<int:proposal_id>", views.ProposalDetailView.as_view(), name="proposal"),
    path(
        "proposals/<int:proposal_id>/approve",
        views.ProposalApproveView.as_view(),
        name="proposal-approve",
    ),
    path(
        "proposals/<int:proposal_id>/reject",
        views.ProposalRejectView.as_view(),
        name="proposal-reject",
    ),
    path(
        "proposals/<int:proposal_id>/edit", views.ProposalEditView.as_view(), name="proposal-edit"
    ),
    path("bridge/outbox", views.OutboxView.as_view(), name="bridge-outbox"),
    path(
        "bridge/outbox/<int:outbox_id>/ack", views.OutboxAckView.as_view(), name="bridge-outbox-ack"
    ),
]
