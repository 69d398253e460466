// @ts-check
// The scenario list's "New scenario" form: creates the scenario through the API and opens its page.
import { request } from "../lib/api.js";
import { startPage } from "../lib/page.js";

function start() {
  const form = /** @type {HTMLFormElement} */ (document.getElementById("new-scenario"));
  // Opened from a map's page ("New scenario on this map"): its map is chosen, the title is next.
  if (new URLSearchParams(window.location.search).has("map")) /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).focus();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    try {
      const created = await request("POST", "/api/scenarios/", { title: data.get("title"), map: Number(data.get("map")) });
      window.location = created.links.page;
    } catch (err) {
      const box = document.getElementById("new-scenario-error");
      box.textContent = err.message;
      box.hidden = false;
    }
  });
}

startPage({}, () => ({ start }));
