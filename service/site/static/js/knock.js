// The knock (or gin) confirmation: which card goes face down, the melds laid down (changeable),
// the deadwood. The melds shown are sent with the knock, so the server lays down exactly those.
import { allMelds, bestMelds, cardList, deadwoodOf, face, spokenList } from "./cards.js";
import { $, el } from "./dom.js";

export function openKnockDialog(view, knocks, act) {
  const dialog = $("knock-dialog");
  const select = $("knock-discard");
  const best = view.arrangement && view.arrangement.best_discard;
  const discards = knocks.map((k) => k.discard);
  select.replaceChildren(...discards.map((card) => el("option", { value: card, selected: card === best }, face(card))));
  let chosen = [];

  const remaining = () => view.hand.filter((c) => c !== select.value);
  const update = () => {
    const cards = remaining();
    const boxes = [...$("knock-melds").querySelectorAll("input")];
    chosen = boxes.filter((b) => b.checked).map((b) => b.value.split(" "));
    const used = chosen.flat();
    const overlap = used.length !== new Set(used).size;
    const { deadwood, points } = deadwoodOf(cards, chosen);
    const over = points > view.knock_limit;
    $("knock-deadwood").textContent = overlap ? "A card is in two melds: untick one."
      : `Deadwood ${points} (${cardList(deadwood) || "none"}); the limit is ${view.knock_limit}.` + (over ? " Too much to knock." : "");
    $("knock-confirm").disabled = overlap || over;
    $("knock-confirm").textContent = points === 0 && !overlap ? "Go gin" : "Knock";
    $("knock-title").textContent = points === 0 && !overlap ? "Gin" : "Knock";
  };
  const listMelds = () => {
    const cards = remaining();
    const best = bestMelds(cards).map((m) => m.join(" "));
    $("knock-melds").replaceChildren(...allMelds(cards).map((meld, i) => el("p", {},
      el("input", { type: "checkbox", id: `meld-${i}`, value: meld.join(" "), checked: best.includes(meld.join(" ")), onchange: update }),
      " ", el("label", { for: `meld-${i}`, "aria-label": spokenList(meld) }, cardList(meld)))));
    update();
  };
  select.onchange = listMelds;
  listMelds();
  dialog.onclose = () => {
    if (dialog.returnValue === "knock") act({ type: "knock", discard: select.value, melds: chosen });
  };
  dialog.returnValue = "";
  dialog.showModal();
}

// A yes/no question in a dialog; resolves true on the confirming button.
export function confirmDialog(title, text, button) {
  const dialog = $("confirm-dialog");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = button;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => { dialog.onclose = () => resolve(dialog.returnValue === "ok"); });
}
