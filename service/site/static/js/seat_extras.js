// The seat page's extras for a game between players, and for any seat: a watch link to share
// (create, copy, revoke) and, when the match is over, a rematch to offer or answer: a challenge
// between players, a seat rematch (POST /games/{id}/seat-rematch) for seats that are not.
import { call, describe } from "./api.js";
import { $, el } from "./dom.js";
import { followStream, signedIn } from "./player.js";
import { showRatings } from "./rating_result.js";
import { getSeat, saveSeat } from "./seats.js";

const REMATCH_POLL_MS = 4000;  // an answer changes no game of ours: look for one now and then

export function setUpExtras({ gameId, token }) {
  const auth = () => ({ token: token() });
  let watchShown = false;
  let rematchTimer = null;
  let rematchStarted = false;
  let offerStream = null;  // the finished game's stream, while a seat rematch may be offered to us

  async function listLinks() {
    try {
      const { data } = await call("GET", `/games/${gameId}/watch-links`, auth());
      $("watch-links").replaceChildren(...data.links.map((link) => el("li", { dataset: { linkId: link.id } },
        `Watch link ${link.id}, made ${new Date(link.created_at).toLocaleString()} `,
        el("button", { type: "button", onclick: () => revoke(link.id) }, "Revoke"))));
    } catch (error) { $("watch-result").textContent = describe(error); }
  }

  async function revoke(linkId) {
    try {
      await call("DELETE", `/games/${gameId}/watch-links/${linkId}`, auth());
      $("watch-result").textContent = "Revoked: that link shows nothing any more.";
      if ($("watch-url").dataset.linkId === linkId) { $("watch-url").value = ""; $("watch-copy-row").hidden = true; }
    } catch (error) { $("watch-result").textContent = describe(error); }
    listLinks();
  }

  $("watch-create").addEventListener("click", async () => {
    try {
      const { data } = await call("POST", `/games/${gameId}/watch-links`, auth());
      // The key rides in the fragment, which browsers never send: the watch page reads it there.
      $("watch-url").value = `${location.origin}/watch/${gameId}#key=${data.key}`;
      $("watch-url").dataset.linkId = data.id;
      $("watch-copy-row").hidden = false;
      $("watch-result").textContent = "Shown once: copy it now.";
    } catch (error) { $("watch-result").textContent = describe(error); }
    listLinks();
  });

  $("watch-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("watch-url").value);
      $("watch-result").textContent = "Copied.";
    } catch {
      $("watch-url").select();
      $("watch-result").textContent = "Selected: press Ctrl+C (or ⌘C) to copy.";
    }
  });

  async function showRematch() {
    const player = signedIn();
    try {
      const { data } = await call("GET", `/games/${gameId}/rematch`, auth());
      const offer = data.rematch;
      const parts = [];
      if (data.rematch_of) parts.push(el("p", {}, "This game is a rematch of ", el("a", { href: `/play/${data.rematch_of}` }, "the one before"), "."));
      if (!offer) {
        parts.push(el("button", { id: "offer-rematch", type: "button", class: "primary", onclick: offerRematch }, "Offer a rematch"));
      } else if (offer.status === "accepted") {
        parts.push(el("p", {}, "The rematch is on: ", el("a", { id: "rematch-link", href: `/play/${offer.game_id}` }, "go to the rematch"), "."));
        stopPolling();
      } else if (offer.status !== "pending") {
        parts.push(el("p", {}, `The rematch was ${offer.status}${offer.reason ? ` (${offer.reason})` : ""}.`));
        stopPolling();
      } else if (offer.seats) {  // at a table: every seat must accept
        parts.push(...tableOffer(offer, player));
      } else if (player && offer.to === player.name) {
        parts.push(el("p", {}, `${offer.from} offers a rematch.`),
          el("button", { id: "accept-rematch", type: "button", class: "primary", onclick: () => answer(offer, "accept") }, "Accept the rematch"), " ",
          el("button", { id: "decline-rematch", type: "button", onclick: () => answer(offer, "decline") }, "Decline"));
      } else {
        parts.push(el("p", {}, `Rematch offered to ${offer.to}; waiting for an answer.`));
      }
      $("rematch-body").replaceChildren(...parts);
    } catch (error) { $("rematch-body").replaceChildren(el("p", { class: "error" }, describe(error))); }
  }

  function tableOffer(offer, player) {
    const list = el("ul", { id: "rematch-seats" }, ...offer.seats.map((s) => el("li", {},
      `${s.player}: ${s.answer === "offered" ? "offers it" : s.answer === "accepted" ? "accepts" : "has not answered"}`)));
    const mine = player && offer.seats.find((s) => s.player === player.name);
    const parts = [el("p", {}, `${offer.from} offers a rematch at this table: it starts when every player accepts.`), list];
    if (mine && mine.answer === "pending") {
      parts.push(el("button", { id: "accept-rematch", type: "button", class: "primary", onclick: () => answer(offer, "accept") }, "Accept the rematch"), " ",
        el("button", { id: "decline-rematch", type: "button", onclick: () => answer(offer, "decline") }, "Decline"));
    }
    return parts;
  }

  async function offerRematch() {
    try {
      await call("POST", `/games/${gameId}/rematch`, auth());
    } catch (error) { $("rematch-result").textContent = describe(error); }
    showRematch();
  }

  async function answer(offer, verb) {
    const player = signedIn();
    try {
      const { data } = await call("POST", `/challenges/${offer.challenge_id}/${verb}`,
        { token: player.token, body: verb === "decline" ? { reason: "other" } : undefined });
      // At a table the game is made when the last seat accepts (201); before that 202, still pending.
      if (verb === "accept" && data.game_id) return location.assign(`/play/${data.game_id}`);
    } catch (error) { $("rematch-result").textContent = describe(error); }
    showRematch();
  }

  // A seat rematch: the offering seat takes the new game's seat 0 at once (its token kept in this
  // browser), the other seat accepts with its token of this game and is taken to the new one.
  async function showSeatRematch(view, known = null) {
    try {
      const data = known || (await call("GET", `/games/${gameId}/seat-rematch`, auth())).data;
      const other = (view.players[1 - view.seat] || {}).name || "your opponent";
      const held = data.game_id && getSeat(data.game_id);
      const parts = [];
      if (!data.game_id) {
        parts.push(el("button", { id: "offer-rematch", type: "button", class: "primary", onclick: () => offerSeatRematch(view) }, "Offer a rematch"));
      } else if (data.declined) {
        parts.push(el("p", {}, data.offered_by === view.seat ? `${other} declined the rematch.` : "You declined the rematch."));
        stopPolling();
      } else if (held && held.token) {
        parts.push(el("p", {}, data.accepted ? `${other} took the rematch: ` : `Rematch offered to ${other}; waiting for an answer. `,
          el("a", { id: "rematch-link", href: `/play/${data.game_id}` }, "go to the rematch"), "."));
        if (data.accepted) stopPolling();
      } else if (data.offered_by !== view.seat && !data.accepted) {
        parts.push(el("p", {}, `${other} offers a rematch: the same rules and move time. Accept or decline?`),
          el("button", { id: "accept-rematch", type: "button", class: "primary", onclick: () => acceptSeatRematch(view) }, "Accept the rematch"), " ",
          el("button", { id: "decline-rematch", type: "button", onclick: () => declineSeatRematch(view) }, "Decline"));
      } else {
        parts.push(el("p", {}, "The rematch was taken up in another browser."));
        stopPolling();
      }
      $("rematch-body").replaceChildren(...parts);
      watchSeatRematch(view, data);
    } catch (error) { $("rematch-body").replaceChildren(el("p", { class: "error" }, describe(error))); }
  }

  // Until an offer is made, the finished game's stream stays open for one and tells us of the
  // other seat's (`rematch_offered`); once we offered, it stays open for a decline
  // (`rematch_declined`), and we look now and then whether the other seat took it.
  function watchSeatRematch(view, data) {
    const ours = data.game_id && data.offered_by === view.seat && !data.accepted && !data.declined;
    if (!data.game_id || ours) {
      if (!offerStream) {
        offerStream = new AbortController();
        followStream(token(), { path: `/games/${gameId}/stream`, signal: offerStream.signal,
          onEvent: (event) => { if (["rematch_offered", "rematch_declined"].includes(event.event)) showSeatRematch(view); } });
      }
      if (ours && !rematchTimer) rematchTimer = setInterval(() => showSeatRematch(view), REMATCH_POLL_MS);
      return;
    }
    if (offerStream) offerStream.abort();
  }

  async function offerSeatRematch(view) {
    try {
      const { data } = await call("POST", `/games/${gameId}/seat-rematch`, auth());
      saveSeat(data.game_id, { token: data.token, seat: 0, name: view.players[view.seat].name });
    } catch (error) { $("rematch-result").textContent = describe(error); }
    showSeatRematch(view);
  }

  async function declineSeatRematch(view) {
    try {
      const { data } = await call("POST", `/games/${gameId}/seat-rematch/decline`, auth());
      return showSeatRematch(view, data);
    } catch (error) { $("rematch-result").textContent = describe(error); }
    showSeatRematch(view);
  }

  async function acceptSeatRematch(view) {
    try {
      const { data } = await call("POST", `/games/${gameId}/seat-rematch/accept`, auth());
      saveSeat(data.game_id, { token: data.token, seat: data.seat, name: view.players[view.seat].name });
      location.assign(`/play/${data.game_id}`);
    } catch (error) { $("rematch-result").textContent = describe(error); showSeatRematch(view); }
  }

  // The match is over: a seat rematch where the game offers one, else the players' rematch (a
  // signed-in browser; at a table every seat must hold a player).
  async function startRematch(view) {
    let seats = null;
    if (!view.format) {  // two seats (a table's view has a format)
      try { seats = (await call("GET", `/games/${gameId}/seat-rematch`, auth())).data; } catch { seats = null; }
    }
    if (seats && seats.available) {
      $("rematch").hidden = false;
      return showSeatRematch(view, seats);  // the answer just read; it watches for what comes next
    }
    if (signedIn() === null) return;
    showRematch();
    $("rematch").hidden = false;
    rematchTimer = setInterval(showRematch, REMATCH_POLL_MS);
  }

  function stopPolling() { if (rematchTimer) { clearInterval(rematchTimer); rematchTimer = null; } }

  // Each new view: the watch panel once every seat is taken; the rematch at the match's end.
  return function update(view) {
    if (view.status !== "waiting_for_opponent" && !watchShown) {
      watchShown = true;
      $("watch").hidden = false;
      listLinks();
    }
    if (view.status !== "finished") $("rematch").hidden = true;
    else if (!rematchStarted) {
      rematchStarted = true;
      showRatings(gameId, auth(), view.seat);  // the result: what the match did to the ratings
      startRematch(view);
    }
  };
}
