// @ts-check
// The scenario editor page (templates/scenarios/scenario_editor.html): the map read-only on the painter's canvas
// (canvas/), the scenario drawn over it (layer.js), tools that turn clicks into edits (tools/) and panels for the
// metadata, each side and the jobs (panels/). Edits go through the same edit session as the painter's
// (session.js): applied here at once, sent in the background with the revision they were made on, undoable; the
// server's answer is the truth (a refused edit is rolled back and its message shown). What the game offers (counter
// facings, a perimeter, secret briefs) is its ruleset's `capabilities` (GET /api/rulesets/<id>/), never its id.
// Started by the page bootstrap (lib/page.js); the tools follow the tool protocol of canvas/tools.js.
import { get, urls } from "../lib/api.js";
import { $, $$, banner, el } from "../lib/dom.js";
import { onKeys } from "../lib/keys.js";
import { startPage } from "../lib/page.js";
import { Progress } from "../lib/progress.js";
import { MapView, Styles } from "../canvas/layers.js";
import { offered, toolContext } from "../canvas/tools.js";
import { attachPointer, zoomKey } from "../canvas/view.js";
import { MapModel } from "../documents/map.js";
import { scenarioKind } from "../documents/scenario.js";
import { Session } from "../session.js";
import { wireSession } from "../sessionbar.js";
import { parseFacing } from "./forms.js";
import { drawScenario } from "./layer.js";
import { runChecks } from "./panels/checks.js";
import { terrainChanges } from "./panels/rules.js";
import { scenarioPanel } from "./panels/scenario.js";
import { addSide, sidePanel } from "./panels/side.js";
import { runSight } from "./panels/sight.js";
import { entry, marker } from "./tools/markers.js";
import { objective } from "./tools/objectives.js";
import { place, placeUnit, remove, turn } from "./tools/placements.js";
import { perimeter, zone } from "./tools/zones.js";
import { words } from "./words.js";
import { outsideZones } from "./zones.js";

const pan = { id: "pan", name: "Pan", edit: false };
const TOOLS = [pan, zone, place, remove, turn, objective, marker, entry, perimeter];
const POLL_MS = 5000;   // a scenario is read whole to see whether it changed: less often than a map

class ScenarioEditor {
  constructor(config) {
    this.config = config;
    this.id = config.scenario;
    this.canEdit = config.canEdit;
    this.tab = "scenario";
    this.tool = this.canEdit ? zone : pan;
    this.selectedUnit = null;      // OOB id of the active side
    this.selectedReinforcement = 0;
    this.markerKind = (config.markerKinds || [])[0] || "control";
    this.facing = null;
    this.findings = [];
    this.activeFinding = null;
    this.sight = null;
    this.sightSide = null;
    this.progress = new Progress($("#job-progress"), $("#job-message"));
  }

  get doc() { return this.session.local.data; }
  get sideIndex() { return typeof this.tab === "number" ? this.tab : 0; }
  get side() { return this.doc.sides[this.sideIndex]; }
  // What the tests and the console read: the revision shown once nothing is waiting, the document, the sentences.
  get scenario() { return { revision: this.shownRevision, document: this.doc, victory: this.victory }; }

  async start() {
    const data = await get(urls.scenario(this.id));
    this.session = new Session(scenarioKind, this.id, data.document, data.revision);
    this.victory = data.victory;
    this.shownRevision = data.revision;
    const first = this.doc.maps[0];
    // A map the scenario names that is not this reader's to see (private): the server says which.
    if (!first.document && this.config.map == null) {
      throw Object.assign(new Error(this.config.mapProblem || "its map is not available"), { whole: !!this.config.mapGone });
    }
    this.mainKey = this.mapKey = first.key;
    this.shownChanges = JSON.stringify(terrainChanges(this.doc, first.key));
    const mapDocument = await this.mapDocument(first.key);
    const answer = await get(urls.ruleset(this.config.ruleset));
    this.ruleset = answer.ruleset;
    this.capabilities = answer.capabilities;
    this.styles = new Styles(this.ruleset);
    this.model = new MapModel(mapDocument);
    this.grid = this.mainGrid = this.model.grid;
    // The catalogue's one reckoning (the server's, in the page's config); a scale the designer typed wins.
    this.inchesPerHex = this.doc.rules.inches_per_hex || this.config.inchesPerHex || null;
    this.view = new MapView($("#map-canvas"), this.model, this.styles);
    this.view.addLayer({ draw: (ctx) => drawScenario(ctx, this) });
    this.buildTools();
    this.bindCanvas();
    this.bindSession();
    $("#fit").addEventListener("click", () => this.view.fit());
    this.buildMapChoice();
    $("#run-checks").addEventListener("click", () => runChecks(this));
    $("#run-sight").addEventListener("click", () => runSight(this));
    onKeys((e) => {
      if (this.tool.onKey && this.tool.onKey(toolContext(this, this.view, e))) { e.preventDefault(); return; }
      if (e.key === "Escape" && this.tool.cancel) { this.tool.cancel(); this.view.request(); return; }
      zoomKey(this.view, e);
    });
    this.render();
    setInterval(() => this.session.poll().catch(() => {}), POLL_MS);
  }

  // -- editing --------------------------------------------------------------------------------------------
  bindSession() {
    const s = this.session;
    wireSession(s, { canEdit: this.canEdit });
    s.local.onChange(() => { this.render(); this.view.request(); });
    s.on("remote", (detail) => { if (detail.data && detail.data.victory) this.victory = detail.data.victory; this.render(); });
    s.addEventListener("state", () => {
      if (s.busy) return;
      this.shownRevision = s.revision;
      this.redrawChangedMap();
    });
  }

  // Once a change of the special rules' terrain changes is saved, the map shown is read again as they change it.
  redrawChangedMap() {
    const changes = JSON.stringify(terrainChanges(this.doc, this.mapKey));
    if (changes === this.shownChanges) return;
    this.showMap(this.mapKey, true).catch((err) => this.banner(`The changed map cannot be shown: ${err.message}`));
  }

  banner(text) { banner("error", text); }

  // Operations made on what is shown: applied at once, saved in the background. One that cannot apply here
  // (the document moved under a stale panel) is not sent.
  send(operations, label = "edit") {
    if (!this.canEdit || !operations.length) return;
    try {
      this.session.commit(operations, label);
    } catch (err) {
      this.banner(`Not changed: ${err.message}`);
    }
  }

  // A change of one value; nothing is sent when the value is already that (a field losing focus again).
  set(path, value, label) {
    if (JSON.stringify(this.session.local.valueAt(path)) === JSON.stringify(value)) return;
    this.send([{ op: "set", path, value }], label || words(path, this.doc));
  }

  // -- the map --------------------------------------------------------------------------------------------
  // Every map of the scenario can be shown, one at a time: the main map's hexes are written "C4", another
  // map's "key:C4" (docs/scenario-format.md); what is drawn and what the tools write are the shown map's.
  hexOf(ref) {
    if (typeof ref !== "string") return null;
    const at = ref.indexOf(":"), key = at < 0 ? this.mainKey : ref.slice(0, at);
    if (key !== this.mapKey) return null;   // a hex of a map not shown
    try { return this.grid.parseLabel(at < 0 ? ref : ref.slice(at + 1)); } catch { return null; }
  }
  label(col, row) {
    const label = this.grid.label(col, row);
    return this.mapKey === this.mainKey ? label : `${this.mapKey}:${label}`;
  }

  // A map's document: embedded in the scenario, or the library map's (config.maps, from the page's view).
  // A special rule that changes the terrain (rules.js) makes it the server's changed map, what LOS and the checks read.
  async mapDocument(key) {
    if (terrainChanges(this.doc, key).length) return (await get(urls.scenarioMap(this.id, key))).document;
    const entry = this.doc.maps.find((m) => m.key === key);
    if (entry && entry.document) return entry.document;
    const library = (this.config.maps || []).find((m) => m.key === key);
    const id = library ? library.id : key === this.mainKey ? this.config.map : null;
    if (id == null) throw new Error(`the map “${entry && (entry.name || key)}” is not yours to read`);
    return (await get(urls.map(id))).document;
  }

  buildMapChoice() {
    const choice = $("#map-choice"), maps = this.doc.maps;
    $("#map-choice-label").hidden = maps.length < 2;
    choice.replaceChildren(...maps.map((m, i) => el("option", { value: m.key },
      `${m.name || (m.document && m.document.name) || m.key}${i === 0 ? " (main)" : ""}`)));
    choice.value = this.mapKey;
    choice.onchange = () => this.showMap(choice.value).catch((err) => {
      choice.value = this.mapKey;
      this.banner(`That map cannot be shown: ${err.message}`);
    });
  }

  async showMap(key, again = false) {
    if (key === this.mapKey && !again) return;
    const model = new MapModel(await this.mapDocument(key));
    if (this.tool.cancel) this.tool.cancel();
    this.mapKey = key;
    this.shownChanges = JSON.stringify(terrainChanges(this.doc, key));
    this.model = model;
    this.grid = model.grid;
    this.lastHex = null;
    this.view.model = model;
    this.view.cache = null;
    model.onChange((what) => this.view.invalidate(what));
    this.view.invalidate({ all: true });
    this.view.fit();
    document.body.dataset.map = key;
  }

  // Facings a counter may have: the vertices 0-5 where the game's counters face a vertex, else the grid's hexsides.
  facings() { return this.capabilities.facing === "vertex" ? [0, 1, 2, 3, 4, 5] : [...this.grid.sides]; }

  buildTools() {
    const nav = $("#tools");
    nav.replaceChildren();
    for (const tool of offered(TOOLS, this)) {
      nav.append(el("button", { type: "button", class: "tool", "data-tool": tool.id, "aria-pressed": String(this.tool === tool),
                                title: tool.note || tool.name, onclick: () => this.useTool(tool.id) }, tool.name));
    }
    if (!this.canEdit) return;
    const kinds = el("select", { id: "marker-kind", onchange: (e) => { this.markerKind = e.target.value; } },
                     ...(this.config.markerKinds || []).map((k) => el("option", { value: k }, k)));
    kinds.value = this.markerKind;
    const facing = el("select", { id: "facing", onchange: (e) => { this.facing = e.target.value === "" ? null : parseFacing(e.target.value); } },
                      ...[["", "none"], ...this.facings().map((f) => [String(f), String(f)])].map(([v, t]) => el("option", { value: v }, t)));
    facing.value = this.facing == null ? "" : String(this.facing);
    nav.append(el("label", {}, "Marker", kinds), el("label", { title: "The facing new counters and markers get" }, "Facing", facing));
  }

  useTool(id) {
    if (this.tool.cancel) this.tool.cancel();
    this.tool = TOOLS.find((t) => t.id === id) || pan;
    for (const b of $$("#tools .tool")) b.setAttribute("aria-pressed", String(b.dataset.tool === id));
    $("#map-canvas").dataset.tool = id;
    $("#status-note").textContent = this.tool.note || "";
  }

  // The tools are given the pointer on the shown map's hexes only (`up` wherever it ends, to finish a drag).
  bindCanvas() {
    const canvas = $("#map-canvas"), on = (hex) => hex && this.grid.contains(...hex);
    const at = (e) => toolContext(this, this.view, e);
    attachPointer(this.view, {
      panWhen: () => this.tool === pan,
      down: (e) => { const a = at(e); if (on(a.hex) && this.tool.down) this.tool.down(a); },
      hover: (e) => {
        const hex = this.view.hexAtEvent(e);
        $("#status-hex").textContent = on(hex) ? this.describe(...hex) : "—";
      },
      move: (e) => { const a = at(e); if (on(a.hex) && this.tool.move) this.tool.move(a); },
      up: (e, { panned, click }) => {
        const a = at(e), hex = a.hex;
        // A click without a drag (with the Pan tool) marks the hex distances are measured from.
        if (panned) { if (click && on(hex)) this.lastHex = hex; return; }
        if (this.tool.up) { this.tool.up(a); return; }
        if (!on(hex)) return;
        this.lastHex = hex;
        if (this.tool.click) this.tool.click(a);
      },
    });
    canvas.addEventListener("dragover", (e) => { if (this.canEdit) e.preventDefault(); });
    canvas.addEventListener("drop", (e) => {
      e.preventDefault();
      const unit = e.dataTransfer.getData("text/plain"), hex = this.view.hexAtEvent(e);
      if (unit && on(hex) && this.side) placeUnit(this, unit, hex);
    });
  }

  describe(col, row) {
    const label = this.label(col, row), parts = [label];
    if (this.lastHex && this.inchesPerHex) {
      const d = this.grid.distance(this.lastHex, [col, row]);
      parts.push(`${d} hex${d === 1 ? "" : "es"} = ${+(d * this.inchesPerHex).toFixed(2)}" from ${this.label(...this.lastHex)}`);
    }
    const cell = this.model.resolvedCell(col, row);
    parts.push(cell.terrain.map((t) => this.styles.name(t)).join(" + "));
    for (const side of this.doc.sides) {
      const n = side.placements.filter((p) => p.hex === label).length;
      if (n) parts.push(`${side.name}: ${n} unit${n > 1 ? "s" : ""}`);
      if (side.setup_zone.includes(label)) parts.push(`${side.name} setup zone`);
    }
    const o = this.doc.objectives.find((x) => x.hex === label);
    if (o) parts.push(`objective ${o.name || o.id}`);
    return parts.join(" · ");
  }

  // Placements outside their zone, listed above the tabs (a click shows the hex); drawn by layer.js.
  showAstray() {
    this.astray = outsideZones(this.doc);
    const box = $("#zone-flags");
    box.hidden = !this.astray.length;
    box.replaceChildren(...this.astray.map((a) => el("li", {
      "data-hex": a.hex, title: "Show this hex",
      onclick: () => { this.activeFinding = { hex: a.hex }; this.view.request(); },
    }, a.message)));
  }

  // -- the panels -----------------------------------------------------------------------------------------
  render() {
    $("#scenario-title").textContent = this.doc.title;
    this.showAstray();
    const tabs = $("#tabs");
    tabs.replaceChildren();
    const tab = (key, text) => el("button", { type: "button", role: "tab", "aria-selected": String(this.tab === key),
                                              onclick: () => { this.tab = key; this.selectedUnit = null; this.render(); this.view.request(); } }, text);
    tabs.append(tab("scenario", "Scenario"));
    this.doc.sides.forEach((side, i) => tabs.append(tab(i, side.name)));
    if (this.canEdit) tabs.append(el("button", { type: "button", id: "add-side", onclick: () => addSide(this) }, "+ Side"));
    if (typeof this.tab === "number" && !this.doc.sides[this.tab]) this.tab = "scenario";
    const panel = $("#panel");
    panel.replaceChildren(this.tab === "scenario" ? scenarioPanel(this) : sidePanel(this, this.tab));
    if (!this.canEdit) for (const input of panel.querySelectorAll("input, select, textarea, button")) input.disabled = true;
  }
}

// A scenario whose map is gone: the page's #map-gone section says so beside its "Use this map" form, so no banner
// lies over it; the save state says there is nothing to edit.
function mapGone(err) {
  if (!document.getElementById("map-gone")) return err.message;
  document.getElementById("save-state").textContent = "no map: nothing to edit";
  return "";
}

export default startPage({ data: "scenario-config", name: "scenarioEditor",
                           failure: (err) => (err.whole ? mapGone(err) : `The scenario could not be loaded: ${err.message}`) },
                          (config) => new ScenarioEditor(config));
