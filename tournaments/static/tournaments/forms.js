// Forms that htmx posts (the console, a player's entry). Before a form is sent, what the last
// one was told goes; after the answer is swapped in (the whole part, or only the form's
// feedback slot for a refusal, the fields left as typed), the keyboard focus goes to what
// this form was told, and countdowns in the new part start. Without JavaScript the forms
// post and redirect as usual.
import { startCountdowns } from "./countdown.js";

document.body.addEventListener("htmx:beforeRequest", () => {
  for (const told of document.querySelectorAll("[data-feedback]")) told.remove();
});

document.body.addEventListener("htmx:afterSettle", () => {
  startCountdowns(document);
  const told = document.querySelector("[data-feedback]");
  if (told) told.focus();
});
