from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from claire.api.views import ApiDocsView, ApiSchemaView
from claire.security import ThrottledLoginView
from observability.views import dashboard_view

urlpatterns = [
    # The staff dashboard lives inside the admin (staff only, the admin's login).
    path(
        "admin/observability/dashboard/",
        admin.site.admin_view(dashboard_view),
        name="observability-dashboard",
    ),
    path("admin/", admin.site.urls),
    path("login/", ThrottledLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema", ApiSchemaView.as_view(), name="api-schema"),
    path("api/schema/docs", ApiDocsView.as_view(), name="api-docs"),
    path("api/", include("conversations.api.urls")),
    # app APIs: one include per app, below this line
    path("api/", include("memory.api.urls")),
    path("api/", include("assistant.api.urls")),
    path("api/", include("proposals.api.urls")),
    path("", include("assistant.urls")),
    path("api/", include("indexing.api.urls")),
    path("api/billing/", include("billing.api.urls")),
    path("", include("conversations.urls")),
    path("", include("memory.urls")),
]
