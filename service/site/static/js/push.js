// Web Push (issue 39): this browser told of a turn while its page is closed. Asked from a click,
// never on load: the notification permission, then a subscription made through the service worker
// (sw.js shows the pushes) with the service's public key (GET /push/key), handed to the service for
// a seat (with the seat's token) or a player (the player's). A push names the players and the
// deadline and holds the seat page's path only: the page it opens reads the seat's token from this
// browser's storage, so nothing in a push opens a seat.
import { call } from "./api.js";

export const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

// This browser's subscription, if it has one made with the service's current key (none after a
// rotation of the key: the old one is dropped).
async function current(publicKey) {
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  const key = subscription && subscription.options && subscription.options.applicationServerKey;
  if (subscription && key && text(key) !== publicKey) {
    await subscription.unsubscribe();
    return null;
  }
  return subscription;
}

// The endpoints `path` (a seat's or /me/push-subscriptions) keeps, and this browser's own, if any.
export async function pushState(path, token) {
  if (!pushSupported()) return { supported: false };
  const [{ data: kept }, { data: key }] = await Promise.all([call("GET", path, { token }), call("GET", "/push/key")]);
  const mine = Notification.permission === "granted" ? await current(key.public_key) : null;
  const endpoints = kept.subscriptions.map((s) => s.endpoint);
  return { supported: true, on: Boolean(mine && endpoints.includes(mine.endpoint)), permission: Notification.permission };
}

// Subscribe this browser (asking the permission first) and hand it to each of `targets`:
// [{path, token}]. Answers "granted", or the permission's answer when it is not.
export async function subscribeTo(targets) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission;
  const { data: key } = await call("GET", "/push/key");
  const registration = await navigator.serviceWorker.ready;
  const subscription = (await current(key.public_key))
    || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key.public_key) });
  const body = subscription.toJSON();
  for (const { path, token } of targets) await call("POST", path, { token, body });
  return "granted";
}

// Stop `targets` telling this browser (the browser's subscription stays, for other seats).
export async function unsubscribeFrom(targets) {
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return;
  for (const { path, token } of targets) await call("DELETE", path, { token, body: { endpoint: subscription.endpoint } });
}
