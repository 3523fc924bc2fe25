// Telling a player that the table needs him: the tab title, a short sound (unless
// muted), a desktop notification when the tab is hidden and he allowed them, and a
// warning when his clock runs low.

import { t } from "./i18n.js";
import { muted } from "./prefs.js";

let baseTitle = "";
let flagged = null; // the alert shown in the title, if any
let audio = null;

/** The page's own title (without any alert mark). */
export function setTitle(text) {
  baseTitle = text;
  document.title = flagged ? `${t("alert.title_mark")} ${flagged} — ${baseTitle}` : baseTitle;
}

/** Mark the tab title (e.g. "● Your turn — Dominoes") until `clearTitleAlert`. */
export function titleAlert(text) {
  flagged = text;
  document.title = `${t("alert.title_mark")} ${text} — ${baseTitle}`;
}

export function clearTitleAlert() {
  if (!flagged) return;
  flagged = null;
  document.title = baseTitle;
}

/** A short tone: "turn" (two rising notes), "start" or "warning" (low, repeated). */
export function sound(kind) {
  if (muted()) return;
  // Counted on the page so players' tests (and the curious) can see a sound was made.
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  document.body.dataset.lastSound = kind;
  try {
    audio = audio || new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
    const notes = kind === "warning" ? [440, 0, 440] : kind === "start" ? [523, 659, 784] : [660, 880];
    const now = audio.currentTime;
    notes.forEach((freq, i) => {
      if (!freq) return;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.12);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.14);
      osc.stop(now + i * 0.14 + 0.13);
    });
  } catch {
    // No audio device: the title and the notification still tell.
  }
}

// The notification permission as the table's header offers to ask for it: reading
// Notification.permission asks the browser each time, and the header is redrawn often.
// It changes by askNotifications or in the site's settings (the permission's change event).
let permission = "Notification" in window ? Notification.permission : "unsupported";
if (permission !== "unsupported" && navigator.permissions) {
  navigator.permissions.query({ name: "notifications" }).then((status) => {
    status.addEventListener("change", () => { permission = Notification.permission; });
  }).catch(() => {});
}

export function notificationsAllowed() {
  return "Notification" in window && Notification.permission === "granted"; // read when notifying only
}

export function canAskNotifications() {
  return permission === "default";
}

export async function askNotifications() {
  if (!canAskNotifications()) return notificationsAllowed();
  permission = await Notification.requestPermission();
  return permission === "granted";
}

/** A desktop notification, only while the tab is hidden (a visible tab has the title). */
export function notify(title, body, tag) {
  if (!document.hidden || !notificationsAllowed()) return;
  try {
    const note = new Notification(title, { body, tag });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // Some browsers only allow notifications from a service worker: the title suffices.
  }
}

/** Everything at once: title, sound and (hidden tab) notification. */
export function alertPlayer(kind, text, body) {
  titleAlert(text);
  sound(kind);
  notify(text, body || "", kind);
}
