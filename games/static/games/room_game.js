// On a room's game page: the "Leave the game" button goes once the game is over (the end
// panel shows, with its way back to the room). It watches the board's own end panel.
const leave = document.querySelector(".room-leave");
const end = document.getElementById("end");
if (leave && end) {
  const update = () => { leave.hidden = !end.hidden; };
  new MutationObserver(update).observe(end, { attributes: true, attributeFilter: ["hidden"] });
  update();
}
