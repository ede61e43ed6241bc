// The table around the board: sound (a few tones made with WebAudio, no audio files) with a
// mute toggle that persists, the first-visit "how to play" panel, and the log folded away on
// phones. Sound is off under prefers-reduced-motion unless the player turned it on.
// It follows the board through the "game-payload" event game.js dispatches for each state.

const { gettext } = window;
const _ = (text) => (gettext ? gettext(text) : text);

const SOUND_KEY = "genius-arena.sound";
const LOW_TIME_SECONDS = 10;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (error) {
    return null; // storage refused (private mode): nothing is remembered
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (error) {
    /* storage refused: the choice lasts for this page only */
  }
}

// -- sound --------------------------------------------------------------------------------
// Each sound: [frequency Hz, start s, length s] notes on a soft sine.
const SOUNDS = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  card: [[420, 0, 0.05]],
  low: [[990, 0, 0.07], [990, 0.15, 0.07]],
  win: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.18]],
  lose: [[392, 0, 0.12], [330, 0.13, 0.12], [262, 0.26, 0.2]],
};

class Sound {
  constructor(button) {
    this.button = button;
    this.context = null;
    const choice = stored(SOUND_KEY);
    this.on = choice ? choice === "on" : !reducedMotion.matches;
    this.show();
    button.addEventListener("click", () => {
      this.on = !this.on;
      store(SOUND_KEY, this.on ? "on" : "off");
      this.show();
      if (this.on) this.play("card");
    });
    // Browsers start audio only after a gesture: the context is made on the first one.
    const wake = () => {
      if (!this.context && window.AudioContext) this.context = new AudioContext();
      if (this.context && this.context.state === "suspended") this.context.resume();
    };
    for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wake, { passive: true });
  }

  show() {
    this.button.setAttribute("aria-pressed", this.on ? "true" : "false");
    this.button.textContent = this.on ? _("Sound on") : _("Sound off");
  }

  play(name) {
    const context = this.context;
    if (!this.on || !context || context.state !== "running") return;
    const start = context.currentTime + 0.01;
    for (const [frequency, at, length] of SOUNDS[name]) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.12, start + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      tone.connect(gain).connect(context.destination);
      tone.start(start + at);
      tone.stop(start + at + length + 0.02);
    }
  }
}

function acting(payload) {
  const view = payload.view || {};
  return payload.status === "running" ? view.to_act || view.acting || [] : [];
}

function follow(root, sound) {
  let previous = null;
  let lowTimer = null;
  root.addEventListener("game-payload", (event) => {
    const payload = event.detail;
    const before = previous;
    previous = payload;
    clearTimeout(lowTimer);
    if (!before || payload.version === before.version) return;
    const seat = payload.seat;
    const over = payload.status === "finished" || payload.status === "aborted";
    if (over && before.status === "running") {
      const winners = (payload.outcome && payload.outcome.winners) || [];
      if (seat !== null) sound.play(winners.includes(seat) ? "win" : "lose");
      return;
    }
    const mine = seat !== null && acting(payload).includes(seat);
    if (mine && !acting(before).includes(seat)) sound.play("turn");
    else sound.play("card");
    const clock = seat === null ? null : (payload.clocks || {})[String(seat)];
    if (clock && clock.running && clock.allowance !== null) {
      const left = clock.allowance + (clock.reserve || 0);
      if (left > LOW_TIME_SECONDS) lowTimer = setTimeout(() => sound.play("low"), (left - LOW_TIME_SECONDS) * 1000);
    }
  });
}

// -- how to play --------------------------------------------------------------------------
function howTo(root) {
  const panel = document.getElementById("how-to");
  const open = document.getElementById("how-to-open");
  if (!panel) {
    if (open) open.hidden = true;
    return;
  }
  const key = `genius-arena.how-to.${panel.dataset.howTo}`;
  panel.hidden = stored(key) === "seen";
  panel.querySelector(".how-to-close").addEventListener("click", () => {
    store(key, "seen");
    panel.hidden = true;
    if (open) open.focus();
  });
  if (open) {
    open.addEventListener("click", () => {
      panel.hidden = false;
      panel.scrollIntoView({ block: "nearest" });
      panel.querySelector(".how-to-close").focus();
    });
  }
}

function boot() {
  const root = document.getElementById("game");
  if (!root) return;
  const toggle = document.getElementById("sound-toggle");
  if (toggle) follow(root, new Sound(toggle));
  howTo(root);
  // Desktop has room for the log beside the board; a phone keeps it folded below the hand.
  const log = document.getElementById("log-panel");
  if (log && window.matchMedia("(min-width: 960px)").matches) log.open = true;
}

boot();
