// @ts-check
// The tools' options (terrain, radius, level mode, hexside feature, overlay action and template, LOS marker):
// inputs with data-option="key" mirror p.options; overlay templates come from the map and from selections.
import { $, $$, el } from "../../lib/dom.js";

const NUMBERS = ["radius", "rotation", "level", "storeys"];
const MARKERS = ["smoke", "smoke2", "wreck", "vehicle", "rubble", "dust", "flame"];

export class Options {
  constructor(p, hexTerrains, sideTerrains) {
    this.p = p;
    this.templates = [];
    const fillSelect = (sel, items) => { for (const t of items) sel.append(el("option", { value: t.id }, t.name || t.id)); };
    fillSelect($("#opt-terrain"), hexTerrains);
    fillSelect($("#opt-hexside"), sideTerrains);
    const r = p.ruleset;
    for (const id of ["#opt-level", "#los-from-level", "#los-to-level"]) {
      const input = $(id);
      if (r.level_min != null) input.min = r.level_min;
      if (r.level_max != null) input.max = r.level_max;
      input.step = r.level_step || 1;
    }
    const markers = r.terrain.filter((t) => t.layer === "marker");
    for (const k of MARKERS) {
      const entry = markers.find((t) => t.id === k);
      $("#opt-marker").append(el("option", { value: k }, entry ? entry.name || k : k));
    }
    for (const input of $$("[data-option]")) {
      const key = input.dataset.option;
      if (input.type === "checkbox") input.checked = !!p.options[key];
      else input.value = p.options[key];
      input.addEventListener("change", () => {
        const v = input.type === "checkbox" ? input.checked : input.value;
        p.options[key] = NUMBERS.includes(key) ? Number(v) : v;
        if (key === "overlayMode" || key === "template") p.view.request();
        if (key === "template") this.set({ overlayName: (this.template() || {}).title || "" });
      });
    }
    $("#rotate").addEventListener("click", () => this.rotate());
    this.refreshTemplates();
  }

  set(values) {
    Object.assign(this.p.options, values);
    for (const [k, v] of Object.entries(values)) {
      const input = /** @type {HTMLInputElement | null} */ (document.querySelector(`[data-option="${k}"]`));
      if (input) input.value = v;
    }
  }

  rotate() {
    const o = this.p.options;
    o.rotation = (o.rotation + 1) % 6;
    $("#opt-rotation").value = o.rotation;
    this.p.view.request();
  }

  template() { return this.templates.find((t) => t.key === this.p.options.template) || null; }

  // A template made from a dragged selection, named by the Name box (listed as "Selection n" without one);
  // stamps take the Name box's name.
  addTemplate(t) {
    const n = this.templates.filter((x) => x.key.startsWith("selection-")).length + 1, key = `selection-${n}`;
    // Unnamed, its stamps carry no name until one is given (the name action): nothing is printed on them.
    const title = this.p.options.overlayName.trim(), shown = title || `Selection ${n}`;
    this.templates.push({ key, base: "sel", title, name: `${shown} (${t.hexes.length} hexes)`, ...t });
    this.p.options.template = key;
    this.refreshTemplates();
    this.set({ overlayMode: "stamp", overlayName: title });
    this.p.say(`made the overlay template "${shown}" of ${t.hexes.length} hexes; click a hex to stamp it`);
  }

  // The map's own overlays are templates too, listed again whenever the map's overlays change. With none, the
  // list says so, and the panel says what the game's rulebook says of printed overlays (its game.json).
  refreshTemplates() {
    const sel = $("#opt-template"), m = this.p.model;
    const fromMap = m.overlays.map((o) => {
      const title = m.overlayTitle(o) || "unnamed overlay";
      return { key: `map-${o.id}`, base: o.id.replace(/-\d+$/, ""), title: m.overlayNames[o.id] || "",
               name: `${title} (on the map)`, hexes: o.hexes, hexsides: o.hexsides };
    });
    this.templates = [...this.templates.filter((t) => !t.key.startsWith("map-")), ...fromMap];
    const none = !this.templates.length;
    sel.replaceChildren(el("option", { value: "" }, none ? "none yet: make one from a selection" : "— choose —"));
    for (const t of this.templates) sel.append(el("option", { value: t.key }, t.name));
    const note = $("#overlay-note");
    note.textContent = none ? this.p.config.overlays || "" : "";
    note.hidden = !note.textContent;
    sel.value = this.p.options.template;
  }
}
