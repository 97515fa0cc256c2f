from django.urls import path

from memory.api import views

urlpatterns = [
    path("memory/loops", views.OpenLoopsView.as_view(), name="memory-loops"),
    path(
        "memory/loops/<int:loop_id>/close", views.LoopCloseView.as_view(), name="memory-loop-close"
    ),
    path("memory/plans", views.PlansView.as_view(), name="memory-plans"),
    path(
        "memory/people/<int:person_id>/facts",
        views.PersonFactsView.as_view(),
        name="memory-person-facts",
    ),
    path("memory/facts/<int:fact_id>", views.PersonFactView.as_view(), name="memory-fact"),
    path("memory/relationships", views.RelationshipsView.as_view(), name="memory-relationships"),
    path(
        "memory/merge-suggestions",
        views.MergeSuggestionsView.as_view(),
        name="memory-merge-suggestions",
    ),
    path("memory/merges", views.PersonMergesView.as_view(), name="memory-merges"),
    path(
        "memory/merges/<int:merge_id>/split",
        views.PersonMergeSplitView.as_view(),
        name="memory-merge-split",
    ),
]
