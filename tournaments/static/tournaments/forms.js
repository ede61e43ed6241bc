// Forms that htmx posts (the console, a player's entry). Before a form is sent, what the last
// one was told goes; after the answer is swapped in (the whole part, or only the form's
// feedback slot for a refusal, the fields left as typed), the keyboard focus goes to what
// this form was told, and countdowns in the new part start. An answer without the part it
// should replace (a login page after the session ended, a 403) is shown as a page instead.
// Without JavaScript the forms post and redirect as usual.
import { startCountdowns } from "./countdown.js";

document.body.addEventListener("htmx:beforeRequest", () => {
  for (const told of document.querySelectorAll("[data-feedback]")) told.remove();
});

document.body.addEventListener("htmx:beforeSwap", (event) => {
  const { target, serverResponse, xhr, requestConfig } = event.detail;
  if (!target.id || serverResponse.includes(`id="${target.id}"`)) return;
  event.detail.shouldSwap = false;
  const path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || requestConfig.path;
  const asked = new URL(path, window.location.href).href;
  if (xhr.responseURL && xhr.responseURL !== asked) window.location.assign(xhr.responseURL);
  else window.location.reload();
});

document.body.addEventListener("htmx:afterSettle", () => {
  startCountdowns(document);
  // A confirmation asked for (what a withdrawal costs) takes the focus before any feedback.
  const told = document.querySelector("[data-confirmation], [data-feedback]");
  if (told) told.focus();
});
