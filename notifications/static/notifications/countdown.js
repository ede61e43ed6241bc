// Live countdowns beside deadlines ({{ moment|deadline }}): "in 2 hours", "in 41 seconds",
// "3 minutes ago", said by the browser in the page's language (Intl.RelativeTimeFormat).
const rtf = new Intl.RelativeTimeFormat(document.documentElement.lang || undefined, {
  numeric: "always",
});
const UNITS = [
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

function say(ms) {
  const seconds = Math.round(ms / 1000);
  const size = Math.abs(seconds);
  for (const [unit, length] of UNITS) {
    if (size >= length || unit === "second") {
      return rtf.format(Math.round(seconds / length), unit);
    }
  }
  return "";
}

function tick() {
  for (const el of document.querySelectorAll(".countdown[data-until]")) {
    const text = say(Date.parse(el.dataset.until) - Date.now());
    if (el.textContent !== text) el.textContent = text;
  }
}

tick();
setInterval(tick, 1000);
