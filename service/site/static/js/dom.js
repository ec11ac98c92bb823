// Building DOM without innerHTML: names and cards from the server are text, never markup.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export function $(id) { return document.getElementById(id); }

export function show(node, visible) { node.hidden = !visible; }

// The time to a deadline in the words the mails use (notify/scene.py's duration): "2 days 23 h",
// "5 h 10 min", "40 min", so a page and a mail about one moment say the same.
export function duration(ms) {
  const total = Math.floor(ms / 60000), days = Math.floor(total / 1440), hours = Math.floor(total / 60) % 24;
  if (days) return `${days} day${days === 1 ? "" : "s"} ${hours} h`;
  return hours ? `${hours} h ${total % 60} min` : `${total % 60} min`;
}

export function timeLeft(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  return ms <= 0 ? "time is up" : `${duration(ms)} left`;
}
