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
