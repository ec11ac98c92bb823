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

export function timeLeft(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (ms <= 0) return "time is up";
  const hours = Math.floor(ms / 3600000), minutes = Math.floor(ms / 60000) % 60;
  if (hours >= 48) return `${Math.floor(hours / 24)} days left`;
  return hours ? `${hours} h ${minutes} min left` : `${minutes} min left`;
}
