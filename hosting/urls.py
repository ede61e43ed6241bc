from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView

from games.challenges import urls as challenge_urls
from games.rooms import urls as room_urls
from games.urls import api_urls, live_urls, page_urls
from hosting import api, api_docs, csp_reports, health
from hosting.accounts import api as token_api
from hosting.accounts import token_pages
from hosting.accounts import views as accounts
from hosting.core import errors
from hosting.core.throttles import limit_posts, posted_username
from notifications import urls as notification_urls
from tournaments import calendars
from tournaments.api import audit as audit_api
from tournaments.disputes import urls as dispute_urls
from tournaments.page_urls import live_urls as tournament_live_urls
from tournaments.views import audit as audit_views
from tournaments.views import profile as profile_views
from tournaments.views.home import home

urlpatterns = [
    path("", home, name="home"),
    path("u/me/", profile_views.profile_me, name="profile-me"),
    path("u/<str:username>/", profile_views.profile, name="profile"),
    path("i18n/", include("django.conf.urls.i18n")),
    path(
        "jsi18n/",
        JavaScriptCatalog.as_view(packages=["hosting", "notifications", "games", "tournaments"]),
        name="javascript-catalog",
    ),
    path("healthz", health.healthz, name="healthz"),
    path("csp-report", csp_reports.csp_report, name="csp-report"),
    path("api/ping", api.PingView.as_view(), name="api-ping"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs.api_docs, name="api-docs"),
    path("accounts/signup/", limit_posts("signup")(accounts.SignUpView.as_view()), name="signup"),
    path(
        "accounts/login/",
        limit_posts("login", posted_username)(auth_views.LoginView.as_view()),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/tokens/", token_pages.token_list, name="account-tokens"),
    path(
        "accounts/tokens/<id:token_id>/revoke",
        token_pages.token_revoke,
        name="account-token-revoke",
    ),
    path("api/tokens/", token_api.TokenListView.as_view(), name="api-tokens"),
    path("api/tokens/<id:token_id>/", token_api.TokenDetailView.as_view(), name="api-token"),
    path("audit/", audit_views.audit_page, name="audit-log"),
    path("api/audit/", audit_api.AuditLogView.as_view(), name="api-audit-log"),
    path("api/disputes/", include(dispute_urls.api_urls)),
    path("disputes/", include(dispute_urls.page_urls)),
    # Our own dispute queue and pages, not ModelAdmin screens: before Django admin's URLs.
    path("admin/disputes/", include(dispute_urls.admin_urls)),
    path("admin/", admin.site.urls),
    path("api/games/", include(api_urls)),
    path("live/games/", include(live_urls)),
    path("games/", include(page_urls)),
    path("api/rooms/", include(room_urls.api_urls)),
    path("play/", include(room_urls.play_urls)),
    path("r/", include(room_urls.room_page_urls)),
    path("api/challenges/", include(challenge_urls.api_urls)),
    path("challenges/", include(challenge_urls.page_urls)),
    path("api/tournaments/", include("tournaments.urls")),
    path("tournaments/", include("tournaments.page_urls")),
    path("live/tournaments/", include(tournament_live_urls)),
    path("notifications/", include(notification_urls.page_urls)),
    path("live/notifications/", include(notification_urls.live_urls)),
    path("calendar/<str:token>.ics", calendars.private_feed, name="calendar-private"),
    # Keep last: whatever no endpoint above matched under the JSON prefixes is a JSON 404.
    re_path(r"^(?:api|live)/", errors.unknown_endpoint),
]

handler400 = errors.bad_request
handler403 = errors.permission_denied
handler404 = errors.page_not_found
handler500 = errors.server_error
