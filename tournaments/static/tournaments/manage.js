// Organiser console and settings form. Seeding: drag the rows or use the arrow buttons; the
// seed numbers are rewritten in row order and the form posts those numbers. The tie-break
// chain: the same sorting on a list drawn from the text field, which it rewrites (and which
// is what posts, with or without JavaScript).
import { enableSorting } from "./sortable.js";

enableSorting();

document.addEventListener("sortable:moved", (event) => {
  const list = event.target;
  if (list.matches(".seeding [data-sortable]")) {
    let seed = 1;
    for (const input of list.querySelectorAll(".seed-input")) {
      input.value = String(seed);
      seed += 1;
    }
  } else if (list.dataset.chainFor) {
    writeChain(list);
  }
});

// -- the tie-break chain ---------------------------------------------------------------------

const chainList = document.querySelector("[data-chain-for]");
const chainField = chainList && document.getElementById(chainList.dataset.chainFor);

function keysOf(field) {
  return field.value.split(",").map((k) => k.trim()).filter(Boolean);
}

function nameOf(key) {
  const chip = document.querySelector(`[data-add-tiebreak="${CSS.escape(key)}"]`);
  return chip ? chip.dataset.name : key;
}

function label(template, name) {
  return template.replace("%(name)s", name);
}

function drawChain() {
  const labels = chainList.dataset;
  chainList.replaceChildren();
  for (const key of keysOf(chainField)) {
    const item = document.createElement("li");
    item.draggable = true;
    item.dataset.key = key;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = nameOf(key);
    item.append(name);
    for (const [move, text, words] of [
      ["-1", "↑", labels.up],
      ["1", "↓", labels.down],
    ]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary small";
      button.dataset.move = move;
      button.textContent = text;
      button.setAttribute("aria-label", label(words, nameOf(key)));
      item.append(button);
    }
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "secondary small";
    remove.dataset.removeTiebreak = key;
    remove.textContent = "×";
    remove.setAttribute("aria-label", label(labels.remove, nameOf(key)));
    item.append(remove);
    chainList.append(item);
  }
  chainList.hidden = chainList.children.length === 0;
}

function writeChain(list) {
  chainField.value = [...list.children].map((item) => item.dataset.key).join(", ");
}

if (chainList && chainField) {
  drawChain();
  chainField.addEventListener("change", drawChain);
  chainList.addEventListener("click", (event) => {
    const remove = event.target.closest("[data-remove-tiebreak]");
    if (!remove) return;
    const item = remove.closest("li");
    const next = item.nextElementSibling || item.previousElementSibling;
    item.remove();
    writeChain(chainList);
    chainList.hidden = chainList.children.length === 0;
    (next ? next.querySelector("[data-remove-tiebreak]") : chainField).focus();
  });
  // Each chip adds its key to the end of the chain.
  for (const button of document.querySelectorAll("[data-add-tiebreak]")) {
    button.addEventListener("click", () => {
      const keys = keysOf(chainField);
      if (!keys.includes(button.dataset.addTiebreak)) keys.push(button.dataset.addTiebreak);
      chainField.value = keys.join(", ");
      drawChain();
    });
  }
}
