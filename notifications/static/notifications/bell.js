// The header's bell follows the person's notices live (/live/notifications/, SSE): the unread
// count, and the newest notice said once in the page's polite live region.
const bell = document.querySelector("[data-notice-bell]");
if (bell) {
  const count = bell.querySelector(".bell-count");
  const region = document.getElementById("notice-live");
  let last = null;
  const source = new EventSource(bell.dataset.stream);
  source.addEventListener("notices", (event) => {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    count.textContent = data.unread > 0 ? String(data.unread) : "";
    count.hidden = !(data.unread > 0);
    bell.dataset.unread = String(data.unread);
    if (region && data.text && last !== null && data.text !== last) {
      region.replaceChildren();
      if (data.url) {
        const link = document.createElement("a");
        link.href = data.url;
        link.textContent = data.text;
        region.append(link);
      } else {
        region.textContent = data.text;
      }
      region.hidden = false;
    }
    if (last !== null && data.text !== last) {
      // A page about the notice's subject may bring itself up to date (the match-time page).
      document.dispatchEvent(new CustomEvent("notice", { detail: data }));
    }
    last = data.text;
    bell.dataset.connected = "1";
  });
}
