// The match-time page follows its match: when the header's bell hears a notice about this page
// (the opponent proposed or a time was agreed), the proposals and the agreed time are fetched
// again and swapped in, unless the reader is typing a time of their own there.
const region = document.querySelector("[data-slot-live]");

async function refresh() {
  const answer = await fetch(window.location.pathname, { headers: { Accept: "text/html" } });
  if (!answer.ok) return;
  const page = new DOMParser().parseFromString(await answer.text(), "text/html");
  const fresh = page.querySelector("[data-slot-live]");
  if (fresh) region.replaceChildren(...fresh.childNodes);
}

if (region) {
  document.addEventListener("notice", (event) => {
    const url = event.detail && event.detail.url;
    if (!url || new URL(url, window.location.href).pathname !== window.location.pathname) return;
    if (region.contains(document.activeElement) && document.activeElement.value) return;
    refresh().catch(() => {});
  });
}
