// The seats this browser holds, in localStorage: a token never goes in a URL the server sees.
const KEY = "gin.seats.v1";

function load() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; }
}

function store(all) { localStorage.setItem(KEY, JSON.stringify(all)); }

export function allSeats() { return load(); }

export function getSeat(gameId) { return load()[gameId] || null; }

export function saveSeat(gameId, changes) {
  const all = load();
  all[gameId] = { ...(all[gameId] || { addedAt: new Date().toISOString() }), ...changes };
  store(all);
  return all[gameId];
}

export function forgetSeat(gameId) {
  const all = load();
  delete all[gameId];
  store(all);
}

// The fragment (#a=1&b=2) carries secrets into a page; read it once, then take it out of the
// address bar so the address can be shared.
export function takeFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  return params;
}
