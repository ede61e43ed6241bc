from django.urls import path

from notifications import live, views

page_urls = [
    path("", views.notice_list, name="notifications"),
    path("settings/", views.notice_settings, name="notification-settings"),
    path("zone", views.zone_update, name="notification-zone"),
    path("calendar/<str:action>", views.calendar_token, name="notification-calendar"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="notifications-unsubscribe"),
]

live_urls = [path("", live.notice_stream, name="notification-stream")]
