// It tells you when it is your turn (issue 24): play.js puts "(Your turn)" in the tab's title; here,
// with the player's permission asked from a click (never on load), a notification when the turn
// becomes theirs while the tab is hidden, and a short sound, off by default. Kept in this browser.
import { $ } from "./dom.js";

const KEY = "gin.alerts.v1";
const prefs = () => { try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; } };
const save = (changes) => localStorage.setItem(KEY, JSON.stringify({ ...prefs(), ...changes }));
const canNotify = () => "Notification" in window && Notification.permission === "granted";

export function setUpTurnAlerts() {
  const button = $("notify-toggle"), sound = $("sound-toggle");
  const show = () => {
    const on = Boolean(prefs().notify && canNotify());
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "Notifications on (turn off)" : "Notify me when it is my turn";
    sound.checked = Boolean(prefs().sound);
  };
  button.addEventListener("click", async () => {
    if (!("Notification" in window)) { $("notify-result").textContent = "This browser cannot notify."; return; }
    if (prefs().notify && canNotify()) { save({ notify: false }); show(); return; }
    const answer = await Notification.requestPermission();
    save({ notify: answer === "granted" });
    $("notify-result").textContent = answer === "granted"
      ? "You will be notified when it is your turn and this tab is in the background." : "Notifications are not allowed.";
    show();
  });
  sound.addEventListener("change", () => save({ sound: sound.checked }));
  show();
}

let wasMyTurn = null;  // unknown until the first view: opening the page on your turn is not news

// Called with every view drawn: calls the player once, when the turn has just become theirs.
export function turnChanged(myTurn, title) {
  const became = myTurn && wasMyTurn === false;
  wasMyTurn = myTurn;
  if (became) callPlayer(title);
}

const mineBefore = new Map();  // game id -> its turn was this browser's at the last look (My games)

// My games, looked at now and then: calls the player once for each game whose turn has just become
// theirs (`games`: [{gameId, mine, text}]); the first look only learns where each game stands.
export function turnsChanged(games) {
  const became = games.filter((g) => g.mine && mineBefore.get(g.gameId) === false);
  for (const g of games) mineBefore.set(g.gameId, g.mine);
  if (became.length) callPlayer(became.map((g) => g.text).join(", "));
}

// As the player chose: a notification while the tab is in the background, and the sound.
function callPlayer(games) {
  if (prefs().notify && canNotify() && document.hidden) new Notification("Your turn", { body: games, tag: "gin-turn" });
  if (prefs().sound) beep();
}

function beep() {
  try {
    const audio = new AudioContext(), tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch { /* no audio here: the title (and the notification) still say it */ }
}
