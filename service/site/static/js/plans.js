// Plans and standing orders on the seat page (issue 39, docs/plans.md): "Plan this turn" beside
// the stock sends a whole turn in one request (POST /games/{id}/plans) and says what was drawn and
// what each rule decided (to this seat only); the orders panel shows, sets and cancels the seat's
// standing orders (GET, PUT, DELETE /games/{id}/orders). The answers are drawn as text.

import { call, describe } from "./api.js";
import { $ } from "./dom.js";

export function setUpPlans({ gameId, token, render }) {
  const planForm = $("plan-form"), planText = $("plan-text"), planResult = $("plan-result");
  const ordersForm = $("orders-form"), ordersText = $("orders-text"), ordersNow = $("orders-now");
  const ordersResult = $("orders-result");

  planForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    planResult.textContent = "";
    try {
      const { data } = await call("POST", `/games/${gameId}/plans`, { token: token(), body: { plan: planText.value } });
      planResult.textContent = data.settlement.answer;
      render(data.game);
    } catch (error) {
      planResult.textContent = describe(error);  // refused whole: nothing was played
    }
  });

  function showOrders(data) {
    ordersNow.textContent = data.text;
    const played = (data.played || []).map((made) => `Played now by "${made.order}": ${made.why}.`);
    ordersResult.textContent = played.join(" ");
  }

  async function send(method, body) {
    try {
      const { data } = await call(method, `/games/${gameId}/orders`, { token: token(), body });
      showOrders(data);
    } catch (error) {
      ordersResult.textContent = describe(error);
    }
  }

  ordersForm.addEventListener("submit", (event) => {
    event.preventDefault();
    send("PUT", { orders: ordersText.value });
  });
  $("orders-cancel").addEventListener("click", () => send("DELETE"));
  send("GET");
}
