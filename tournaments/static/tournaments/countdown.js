// Countdowns to a deadline (check-in closes, sealed answers, the DMO pick): <time datetime
// data-countdown> shows the time left, every second, until zero.

function remaining(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export function startCountdowns(root) {
  for (const time of root.querySelectorAll("time[data-countdown]:not([data-counting])")) {
    time.dataset.counting = "yes";
    const end = Date.parse(time.getAttribute("datetime"));
    const tick = () => {
      const left = (end - Date.now()) / 1000;
      time.textContent = remaining(left);
      if (left <= 0 || !time.isConnected) clearInterval(timer);
    };
    const timer = setInterval(tick, 1000);
    tick();
  }
}
