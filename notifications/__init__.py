"""Telling people what concerns them: notices on the site, e-mail, a tournament's Discord, and
reminders before a deadline; and each reader's time zone. Below games and tournaments (both
call ``notify``), above hosting's core; it imports neither app (docs/notifications.md)."""
