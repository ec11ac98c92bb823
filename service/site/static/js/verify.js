// Recomputing a deal's commitment in the browser: hex(SHA-256(salt + ":" + deck joined by spaces)).
export async function commitmentOf(deal) {
  const text = `${deal.salt}:${deal.deck.join(" ")}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// "ok" when the revealed deck hashes to the commitment, and that is the one shown at the deal.
export async function checkDeal(deal, seenAtDeal) {
  const computed = await commitmentOf(deal);
  if (computed !== deal.commitment) return { ok: false, text: "The revealed deck does NOT match its commitment." };
  if (seenAtDeal && seenAtDeal !== deal.commitment) {
    return { ok: false, text: "The commitment shown when this hand was dealt was different: the deck was changed." };
  }
  return { ok: true, text: `Deck verified: its SHA-256 (${computed.slice(0, 12)}…) matches the commitment ` +
    (seenAtDeal ? "this page saw when the hand was dealt." : "published for the hand.") };
}
