// The ruling form shows only the fields the chosen kind of ruling takes (a winner for an
// overturn or a forfeit, the entrant for a disqualification, scores for an adjustment, the
// event for a rewind). Without JavaScript every field shows and the server ignores the rest.
const kind = document.getElementById("ruling-kind");

function showFieldsFor(ruling) {
  for (const field of document.querySelectorAll("[data-rulings]")) {
    const wanted = field.dataset.rulings.split(" ").includes(ruling);
    field.hidden = !wanted;
    for (const input of field.querySelectorAll("input, select")) input.disabled = !wanted;
  }
}

if (kind) {
  showFieldsFor(kind.value);
  kind.addEventListener("change", () => showFieldsFor(kind.value));
}
