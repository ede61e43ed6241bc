// Organiser console: seeding by dragging rows or with the arrow buttons; either way the seed
// numbers are rewritten in row order, and the form posts those numbers.

const body = document.querySelector("[data-sortable]");

function renumber() {
  let seed = 1;
  for (const input of body.querySelectorAll(".seed-input")) {
    input.value = String(seed);
    seed += 1;
  }
}

function movable(row) {
  return row && row.getAttribute("draggable") === "true";
}

if (body) {
  let dragged = null;
  body.addEventListener("dragstart", (event) => {
    const row = event.target.closest("tr");
    if (!movable(row)) return;
    dragged = row;
    row.classList.add("dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", row.dataset.entrant);
  });
  body.addEventListener("dragover", (event) => {
    const row = event.target.closest("tr");
    if (!dragged || !movable(row) || row === dragged) return;
    event.preventDefault();
    const box = row.getBoundingClientRect();
    const after = event.clientY > box.top + box.height / 2;
    row.parentNode.insertBefore(dragged, after ? row.nextSibling : row);
  });
  body.addEventListener("drop", (event) => {
    event.preventDefault();
  });
  body.addEventListener("dragend", () => {
    if (dragged) dragged.classList.remove("dragging");
    dragged = null;
    renumber();
  });
  body.addEventListener("click", (event) => {
    const button = event.target.closest("[data-move]");
    if (!button) return;
    const row = button.closest("tr");
    const step = Number(button.dataset.move);
    const sibling = step < 0 ? row.previousElementSibling : row.nextElementSibling;
    if (!movable(sibling)) return;
    row.parentNode.insertBefore(row, step < 0 ? sibling : sibling.nextSibling);
    renumber();
    button.focus();
  });
}

// The tie-break chain: each button adds its key to the end of the ordered list.
const chain = document.getElementById("f-tiebreaks");
for (const button of document.querySelectorAll("[data-add-tiebreak]")) {
  button.addEventListener("click", () => {
    const keys = chain.value.split(",").map((k) => k.trim()).filter(Boolean);
    if (!keys.includes(button.dataset.addTiebreak)) keys.push(button.dataset.addTiebreak);
    chain.value = keys.join(", ");
    chain.focus();
  });
}
