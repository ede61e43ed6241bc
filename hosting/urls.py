from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from games.urls import api_urls, live_urls, page_urls
from hosting import accounts, api, health, pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path(
        "jsi18n/",
        JavaScriptCatalog.as_view(packages=["hosting", "games", "tournaments"]),
        name="javascript-catalog",
    ),
    path("healthz", health.healthz, name="healthz"),
    path("api/ping", api.PingView.as_view(), name="api-ping"),
    path("accounts/signup/", accounts.SignUpView.as_view(), name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/games/", include(api_urls)),
    path("live/games/", include(live_urls)),
    path("games/", include(page_urls)),
    path("api/tournaments/", include("tournaments.urls")),
]
