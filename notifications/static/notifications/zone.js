// The browser's time zone, told to the server once (a cookie the middleware reads): a guest's
// pages, and a new account's zone, then follow the browser. Changed later on the settings page.
// The first page (said by the server before it knew the zone) is said again here, in the
// browser's zone with its name.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const first = !document.cookie.split("; ").some((c) => c.startsWith("tz="));
if (zone && first) {
  document.cookie = `tz=${zone}; path=/; max-age=31536000; samesite=lax`; // IANA names need no quoting
}
// Only then: a zone chosen on the settings page stays as chosen, wherever the browser is.
if (zone && first && document.body.dataset.readerZone !== zone) {
  const fmt = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: zone,
  });
  for (const el of document.querySelectorAll("time.when[datetime]")) {
    const moment = new Date(el.getAttribute("datetime"));
    if (!Number.isNaN(moment.getTime())) el.textContent = `${fmt.format(moment)} (${zone})`;
  }
}
