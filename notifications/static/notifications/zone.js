// The browser's time zone, told to the server once (a cookie the middleware reads): a guest's
// pages, and a new account's zone, then follow the browser. Changed later on the settings page.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (zone && !document.cookie.split("; ").some((c) => c.startsWith("tz="))) {
  document.cookie = `tz=${zone}; path=/; max-age=31536000; samesite=lax`; // IANA names need no quoting
  // The first page was said in UTC: the next one is in the browser's zone.
  if (document.body.dataset.zone !== zone) document.body.classList.add("zone-pending");
}
