// Lists reordered by dragging an item or with its ↑/↓ buttons ([data-move="-1"] / "1"), for
// every container marked [data-sortable] whose items (its children) are draggable="true".
// The listeners sit on the document, so lists swapped in later (htmx) sort too. After each
// move the container receives a "sortable:moved" event.

function movable(item, container) {
  return item && item.parentElement === container && item.getAttribute("draggable") === "true";
}

function itemOf(target) {
  const container = target.closest("[data-sortable]");
  if (!container) return [null, null];
  let item = target;
  while (item && item.parentElement !== container) item = item.parentElement;
  return [container, item];
}

function moved(container) {
  container.dispatchEvent(new CustomEvent("sortable:moved", { bubbles: true }));
}

let dragged = null;

export function enableSorting() {
  document.addEventListener("dragstart", (event) => {
    const [container, item] = itemOf(event.target);
    if (!movable(item, container)) return;
    dragged = item;
    item.classList.add("dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", item.dataset.key || item.dataset.entrant || "");
  });
  document.addEventListener("dragover", (event) => {
    if (!dragged) return;
    const [container, item] = itemOf(event.target);
    if (!movable(item, container) || item === dragged || container !== dragged.parentElement) {
      return;
    }
    event.preventDefault();
    const box = item.getBoundingClientRect();
    const after = event.clientY > box.top + box.height / 2;
    container.insertBefore(dragged, after ? item.nextSibling : item);
  });
  document.addEventListener("drop", (event) => {
    if (dragged) event.preventDefault();
  });
  document.addEventListener("dragend", () => {
    if (!dragged) return;
    const container = dragged.parentElement;
    dragged.classList.remove("dragging");
    dragged = null;
    if (container) moved(container);
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-move]");
    if (!button) return;
    const [container, item] = itemOf(button);
    if (!movable(item, container)) return;
    const step = Number(button.dataset.move);
    const sibling = step < 0 ? item.previousElementSibling : item.nextElementSibling;
    if (!movable(sibling, container)) return;
    container.insertBefore(item, step < 0 ? sibling : sibling.nextSibling);
    button.focus();
    moved(container);
  });
}
