// @ts-check
// The map page's findings (templates/maps/map_detail.html): pointing at a finding picks out its hex on the map,
// "Show more" pages through the rest with GET /api/maps/<id>/findings/, and while a large map is being checked
// the page asks now and then whether it is done, then reloads. No inline script: the page may run under a CSP.
import { get, request } from "./lib/api.js";
import { el } from "./lib/dom.js";
import { startPage } from "./lib/page.js";

const list = document.getElementById("findings-list");
const CHECK_EVERY_MS = 3000;
const CHECK_FOR_MS = 15 * 60 * 1000;

// Only the first findings are outlined on the map (their shapes come with the page); each list item names its own.
function shapeOf(item) {
  return item && document.querySelector(`.findings-overlay g[data-finding="${item.dataset.finding}"]`);
}

function start() {
  if (list) {
    list.addEventListener("mouseover", (event) => {
      const shape = shapeOf(/** @type {Element} */ (event.target).closest("li[data-finding]"));
      if (shape) shape.classList.add("picked");
    });
    list.addEventListener("mouseout", (event) => {
      const shape = shapeOf(/** @type {Element} */ (event.target).closest("li[data-finding]"));
      if (shape) shape.classList.remove("picked");
    });
  }

  function item(finding, n) {
    // the hex (and hexside) in words; the JSON path is kept for tools as the item's data-path, never shown
    const where = finding.hex ? [el("strong", {}, finding.hex + (finding.side ? `/${finding.side}` : "")), ": "] : [];
    return el("li", { "data-finding": String(n), "data-path": finding.path || null },
      el("span", { class: `severity-${finding.severity}` }, finding.severity), " ", ...where, `${finding.message} `,
      el("code", { class: "muted" }, finding.code));
  }

  const more = /** @type {HTMLButtonElement | null} */ (document.getElementById("findings-more"));
  if (more && list) {
    const shown = document.getElementById("findings-shown");
    more.addEventListener("click", async () => {
      more.disabled = true;
      try {
        const page = await get(more.dataset.url);
        const start = list.children.length;
        list.append(...page.findings.map((f, k) => item(f, start + k)));
        shown.textContent = `${list.children.length} of ${page.count} shown`;
        if (page.next) { more.dataset.url = page.next; more.disabled = false; } else more.remove();   // the last page
      } catch (err) {
        shown.textContent = `Could not load more findings: ${err.message}`;
        more.disabled = false;
      }
    });
  }

  // A large map is checked by a background job: ask until its findings are kept (200; 202 while checking).
  const checking = document.getElementById("findings-checking");
  if (checking) {
    const until = Date.now() + CHECK_FOR_MS;
    const ask = async () => {
      try {
        const response = await request("GET", checking.dataset.url, undefined, { raw: true });
        if (response.status === 200) { window.location.reload(); return; }
      } catch { /* not reachable just now: ask again */ }
      if (Date.now() < until) setTimeout(ask, CHECK_EVERY_MS);
    };
    setTimeout(ask, CHECK_EVERY_MS);
  }
}

startPage({}, () => ({ start }));
