// The settings form shows the rules of the chosen game and format only. Without JavaScript
// every fieldset shows and the server reads those of the chosen game and format.
export function showChosenRules(form) {
  for (const [selectId, attribute, selector] of [
    ["f-game", "rulesGame", "[data-rules-game]"],
    ["f-format", "rulesFormat", "[data-rules-format]"],
  ]) {
    const select = form.querySelector(`#${selectId}`);
    if (!select) continue;
    const sync = () => {
      for (const fieldset of form.querySelectorAll(selector)) {
        fieldset.hidden = fieldset.dataset[attribute] !== select.value;
      }
    };
    select.addEventListener("change", sync);
    sync();
  }
}

// A console form that starts a hosted game (a season's Main Match or Death Match): its
// engine select (``data-rules-select``) shows the fieldset of that engine's rules only.
export function showChosenGameRules(root = document) {
  for (const select of root.querySelectorAll("select[data-rules-select]")) {
    const sync = () => {
      for (const fieldset of root.querySelectorAll(`[data-rules-for="${select.id}"]`)) {
        fieldset.hidden = fieldset.dataset.rulesValue !== select.value;
      }
    };
    select.addEventListener("change", sync);
    sync();
  }
}
