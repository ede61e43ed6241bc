"""Where disputes live: the API, the pages of the parties and organisers, and the staff queue
(``/admin/disputes/``, routed before Django admin's own URLs)."""

from django.urls import path

from hosting.core import converters  # noqa: F401  (registers id and code)
from tournaments.disputes import api as dispute_api
from tournaments.disputes import views as dispute_views

api_urls = [
    path("", dispute_api.DisputeListView.as_view(), name="api-disputes"),
    path("<id:dispute_id>/", dispute_api.DisputeDetailView.as_view(), name="api-dispute"),
    path(
        "<id:dispute_id>/withdraw", dispute_api.WithdrawView.as_view(), name="api-dispute-withdraw"
    ),
    path("<id:dispute_id>/assign", dispute_api.AssignView.as_view(), name="api-dispute-assign"),
    path(
        "<id:dispute_id>/comments", dispute_api.CommentView.as_view(), name="api-dispute-comments"
    ),
    path("<id:dispute_id>/resume", dispute_api.ResumeView.as_view(), name="api-dispute-resume"),
    path("<id:dispute_id>/ruling", dispute_api.RulingView.as_view(), name="api-dispute-ruling"),
    path("<id:dispute_id>/steps", dispute_api.StepsView.as_view(), name="api-dispute-steps"),
]

page_urls = [
    path("new/<slug:slug>/<code:code>", dispute_views.file, name="dispute-file"),
    path("<id:dispute_id>/", dispute_views.page, name="dispute-page"),
    path("<id:dispute_id>/<str:action>", dispute_views.act, name="dispute-action"),
]

admin_urls = [
    path("", dispute_views.queue, name="dispute-queue"),
    path("<id:dispute_id>/", dispute_views.page, name="dispute-admin-page"),
]
