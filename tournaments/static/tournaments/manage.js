// Organiser console and settings form. Seeding: drag the rows or use the arrow buttons; the
// seed numbers are rewritten in row order and the form posts those numbers. The tie-break
// chain: the same sorting on a list drawn from the text field, which it rewrites (and which
// is what posts, with or without JavaScript).
import { showChosenGameRules, showChosenRules } from "./rule_fieldsets.js";
import { enableSorting } from "./sortable.js";

enableSorting();
const settingsForm = document.getElementById("f-game")?.form;
if (settingsForm) showChosenRules(settingsForm);
showChosenGameRules();
document.body.addEventListener("htmx:afterSettle", () => showChosenGameRules());

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

// -- live: check-ins, registrations and withdrawals as they happen ---------------------------
// The stream says only "changed"; the console is fetched and what nobody is typing into is
// brought up to date: each entrant's status and the audit trail (the forms are left alone).

async function refreshConsole() {
  const response = await fetch(window.location.pathname, { credentials: "same-origin" });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const badge of fresh.querySelectorAll("[id^='entrant-status-']")) {
    const here = document.getElementById(badge.id);
    if (here && here.textContent !== badge.textContent) here.replaceWith(badge);
  }
  const audit = fresh.getElementById("audit-list");
  const shown = document.getElementById("audit-list");
  if (audit && shown) shown.replaceWith(audit);
  const table = document.querySelector(".seeding tbody");
  const freshTable = fresh.querySelector(".seeding tbody");
  const rows = (tbody) => [...tbody.querySelectorAll("tr")].map((row) => row.dataset.entrant).join();
  // A new registrant: the table is redrawn unless the organiser is numbering seeds in it.
  if (table && freshTable && rows(table) !== rows(freshTable) && !table.contains(document.activeElement)) {
    table.replaceWith(freshTable);
  }
}

function followConsole() {
  const consoleElement = document.getElementById("console");
  if (!consoleElement || !consoleElement.dataset.liveUrl || !("EventSource" in window)) return;
  const source = new EventSource(consoleElement.dataset.liveUrl);
  let greeted = false;
  source.addEventListener("hello", () => {
    if (greeted) refreshConsole();
    greeted = true;
    document.getElementById("console").dataset.live = "connected";
  });
  source.addEventListener("changed", () => refreshConsole().catch(() => {}));
}

followConsole();
