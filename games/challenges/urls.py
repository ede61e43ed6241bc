"""The challenges' routes: the JSON API under /api/challenges/ and the pages /challenges/."""

from django.urls import path

from games.challenges import api as challenge_api
from games.challenges import views as challenge_views
from hosting.core import converters  # noqa: F401  (registers id)

api_urls = [
    path("", challenge_api.ChallengeListView.as_view(), name="api-challenges"),
    path(
        "<id:challenge_id>/accept",
        challenge_api.ChallengeAcceptView.as_view(),
        name="api-challenge-accept",
    ),
    path(
        "<id:challenge_id>/decline",
        challenge_api.ChallengeDeclineView.as_view(),
        name="api-challenge-decline",
    ),
]

page_urls = [
    path("", challenge_views.challenge_page, name="challenges"),
    path("<id:challenge_id>/accept", challenge_views.challenge_accept, name="challenge-accept"),
    path("<id:challenge_id>/decline", challenge_views.challenge_decline, name="challenge-decline"),
]
