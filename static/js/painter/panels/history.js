// @ts-check
// The map's revisions, newest first, each one restorable (a new revision bringing the old map back).
import { get, urls } from "../../lib/api.js";
import { $, banner, el } from "../../lib/dom.js";

export class History {
  constructor(p) { this.p = p; }

  async refresh() {
    let data;
    try { data = await get(urls.revisions(this.p.mapId)); } catch { return; }
    const p = this.p, rows = Array.isArray(data) ? data : data.results || [];
    $("#history-list").replaceChildren(...rows.slice(0, 50).map((r) => el("li", {},
      el("span", { class: "rev" }, `r${r.number}`), " ", el("span", { class: "summary" }, r.summary || ""),
      " ", el("span", { class: "muted" }, r.author || ""),
      p.canEdit && r.number !== p.editor.revision
        ? el("button", { type: "button", class: "small", title: `Bring revision ${r.number} back as a new revision`,
                         onclick: () => this.restore(r.number) }, "Restore") : null)));
  }

  async restore(number) {
    try { await this.p.editor.restore(number); this.p.say(`restored revision ${number}`); } catch (err) {
      banner("error", `Could not restore revision ${number}: ${err.message}`);
    }
  }
}
