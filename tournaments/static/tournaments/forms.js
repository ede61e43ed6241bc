// Forms that htmx posts (the console, a player's entry): after the answer is swapped in, the
// keyboard focus goes to what the form was told (its refusal or its result), and countdowns
// in the new part start. Without JavaScript the forms post and redirect as usual.
import { startCountdowns } from "./countdown.js";

document.body.addEventListener("htmx:afterSettle", () => {
  startCountdowns(document);
  const told = document.querySelector("[data-feedback]");
  if (told) told.focus();
});
