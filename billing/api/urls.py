from django.urls import path

from billing.api import views

urlpatterns = [
    path("spend", views.SpendView.as_view(), name="billing-spend"),
    path("policy", views.PolicyView.as_view(), name="billing-policy"),
]
