// @ts-check
// The map painter page (templates/maps/editor.html): the edit session (session.js) on the map, the view, the
// tools (tools/: the tool protocol of canvas/tools.js, operations out) and the panels (panels/), wired together,
// and the keyboard. Started by the page bootstrap (lib/page.js).
import { get, urls } from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { onKeys } from "../lib/keys.js";
import { startPage } from "../lib/page.js";
import { Progress } from "../lib/progress.js";
import { MapView, Styles } from "../canvas/layers.js";
import { offered, toolContext } from "../canvas/tools.js";
import { attachPointer, zoomKey } from "../canvas/view.js";
import { mapKind } from "../documents/map.js";
import { Session } from "../session.js";
import { wireSession } from "../sessionbar.js";
import { Findings } from "./panels/findings.js";
import { History } from "./panels/history.js";
import { buildLegend } from "./panels/legend.js";
import { Options } from "./panels/options.js";
import { Scan } from "./panels/scan.js";
import { Sight } from "./panels/sight.js";
import { Exposure } from "./panels/exposure.js";
import { Examples } from "./panels/examples.js";
import { buildToolbar, showTool, toggleHelp } from "./panels/toolbar.js";
import { analysis } from "./tools/analysis.js";
import { art } from "./tools/art.js";
import { brush } from "./tools/brush.js";
import { eraser } from "./tools/eraser.js";
import { fill } from "./tools/fill.js";
import { hexside } from "./tools/hexside.js";
import { level } from "./tools/level.js";
import { los } from "./tools/los.js";
import { overlay } from "./tools/overlay.js";
import { pan } from "./tools/pan.js";
import { picker } from "./tools/picker.js";
import { rectangle } from "./tools/rectangle.js";
import { viewshed } from "./tools/viewshed.js";

// The edit tools first (offered only to those who may edit), then the looking tools.
const TOOLS = [brush, fill, rectangle, level, hexside, art, overlay, eraser, picker, los, viewshed, analysis, pan];
const POLL_MS = 2000;

class Painter {
  constructor(config) {
    this.config = config;
    this.mapId = config.map;
    this.canEdit = config.canEdit;
    this.options = { terrain: null, mode: "replace", radius: 0, levelMode: "set", level: 1, storeys: 2, hexside: null,
                     overlayMode: "stamp", overlayName: "", rotation: 0, template: "", markerKind: "smoke", markerMode: false };
    this.highlight = null;
    this.progress = new Progress($("#job-progress"), $("#job-message"));
  }

  async start() {
    const [data, ruleset] = await Promise.all([get(urls.map(this.mapId)), get(urls.ruleset(this.config.ruleset))]);
    this.ruleset = ruleset.ruleset;
    this.styles = new Styles(this.ruleset);
    this.editor = new Session(mapKind, this.mapId, data.document, data.revision);
    this.model = this.editor.local;
    this.model.levelStep = this.ruleset.level_step || 1;
    const hexTerrains = this.styles.legend("hex"), sideTerrains = this.styles.legend("hexside");
    this.options.terrain = (hexTerrains.find((t) => t.id === "woods") || hexTerrains[0] || {}).id;
    this.options.hexside = (sideTerrains.find((t) => t.id === "hedge") || sideTerrains[0] || {}).id;
    this.options.level = Math.min(this.ruleset.level_max ?? 1, (this.ruleset.level_step || 1));
    this.view = new MapView($("#map-canvas"), this.model, this.styles);
    this.tools = offered(TOOLS, { canEdit: this.canEdit });
    this.optionsPanel = new Options(this, hexTerrains, sideTerrains);
    this.sightPanel = new Sight(this);
    this.exposurePanel = new Exposure(this);
    this.examplesPanel = new Examples(this);
    this.scan = new Scan(this);
    this.findingsPanel = new Findings(this);
    this.history = new History(this);
    this.view.addLayer({ draw: (ctx, view) => this.drawLayer(ctx, view) });
    buildToolbar(this);
    buildLegend(this.styles, hexTerrains, sideTerrains);
    this.bindCanvas();
    this.bindKeys();
    this.bindSession();
    this.useTool(this.canEdit ? brush : los);
    this.scan.load();
    this.history.refresh();
    this.findingsPanel.load();
    setInterval(() => this.editor.poll().catch(() => {}), POLL_MS);
  }

  // -- what the tools are given ----------------------------------------------------------------------------
  get grid() { return this.model.grid; }
  get findings() { return this.findingsPanel.items; }
  mapPoint(e) { return this.view.toMap(...this.view.eventPoint(e)); }
  commit(ops, label) {
    if (!this.canEdit || !ops.length) return;
    this.editor.commit(ops, label);
    this.sightPanel.markStale();
  }
  // An overlay as the designer knows it: its name or printed ID, never the internal id.
  overlayWord(id) {
    const o = this.model.overlays.find((x) => x.id === id);
    return (o && this.model.overlayTitle(o)) || "(unnamed)";
  }

  say(text) { $("#status-note").textContent = text; }
  setOptions(values) { this.optionsPanel.set(values); }
  template() { return this.optionsPanel.template(); }
  addTemplate(t) { this.optionsPanel.addTemplate(t); }
  sightChanged() { this.sightPanel.changed(); }
  toggleMarker(h) { this.sightPanel.toggleMarker(h); }
  runLos() { return this.sightPanel.runLos(); }
  runViewshed(h) { return this.sightPanel.runViewshed(h); }
  runAnalysis() { return this.sightPanel.runAnalysis(); }

  useTool(tool) {
    if (this.tool && this.tool.cancel) this.tool.cancel();
    this.tool = tool;
    showTool(tool);
    this.say(tool.title);
    this.view.request();
  }

  // -- the canvas ------------------------------------------------------------------------------------------
  bindCanvas() {
    const at = (e) => toolContext(this, this.view, e);
    attachPointer(this.view, {
      panWhen: () => this.spaceHeld || this.tool === pan,
      down: (e) => {
        if (this.scan.down(e)) return;
        if (this.tool.down) this.tool.down(at(e));
        this.view.request();
      },
      hover: (e) => this.hover(e),
      move: (e) => { if (!this.scan.move(e) && this.tool.move) this.tool.move(at(e)); },
      up: (e, { panned }) => {
        if (panned || this.scan.up()) return;
        if (this.tool.up) this.tool.up(at(e));
        this.view.request();
      },
      leave: () => { this.lastPointer = null; $("#status-hex").textContent = "—"; },
    });
  }

  hover(e) {
    this.lastPointer = e;
    const [col, row] = this.view.hexAtEvent(e), g = this.grid;
    if (!g.contains(col, row)) { $("#status-hex").textContent = "—"; return; }
    const cell = this.model.resolvedCell(col, row), sides = [], all = this.model.resolvedHexsides();
    for (let i = 0; i < 6; i++) {
      const t = all.get(g.hexside(col, row, i).join(","));
      if (t) sides.push(`${g.sides[i]} ${this.styles.name(t)}`);
    }
    $("#status-hex").textContent = `${g.label(col, row)} · ${cell.terrain.map((t) => this.styles.name(t)).join(" + ")}`
      + ` · level ${cell.level}${cell.storeys > 1 ? ` · ${cell.storeys} storeys` : ""}`
      + `${cell.overlay ? ` · overlay ${this.overlayWord(cell.overlay)}` : ""}${sides.length ? " · hexsides: " + sides.join(", ") : ""}`;
  }

  // What the page draws over the map: results, findings, highlights, the scan's handles, the tool's preview.
  drawLayer(ctx, view) {
    this.exposurePanel.draw(ctx, view);
    this.sightPanel.draw(ctx, view);
    this.findingsPanel.draw(ctx, view);
    if (this.highlight) {
      ctx.lineWidth = 5 / view.scale; ctx.strokeStyle = "#CC79A7";
      for (const h of this.highlight.hexes) { ctx.beginPath(); view.hexPath(ctx, ...h, -0.05); ctx.stroke(); }
      for (const side of this.highlight.hexsides) {
        const [a, b] = this.grid.sideEndpoints(...side);
        ctx.beginPath(); ctx.moveTo(...a); ctx.lineTo(...b); ctx.lineWidth = 8 / view.scale; ctx.stroke();
      }
    }
    this.scan.draw(ctx, view);
    if (this.tool && this.tool.preview) this.tool.preview(ctx, toolContext(this, view));
  }

  // -- keyboard (Undo and Redo are the session bar's) ------------------------------------------------------
  bindKeys() {
    onKeys((e) => {
      if (this.tool && this.tool.onKey && this.tool.onKey(toolContext(this, this.view, e))) { e.preventDefault(); return; }
      if (e.key === "?") { toggleHelp(); return; }
      if (e.key === "Escape") { toggleHelp(false); if (this.tool.cancel) this.tool.cancel(); this.view.request(); return; }
      if (e.key === " ") { this.spaceHeld = true; if (e.target === document.body || /** @type {HTMLElement} */ (e.target).id === "map-canvas") e.preventDefault(); return; }
      if (zoomKey(this.view, e)) return;
      if (e.key === "[" || e.key === "]") {
        this.setOptions({ radius: Math.max(0, Math.min(3, this.options.radius + (e.key === "]" ? 1 : -1))) });
        return;
      }
      if (e.key.toLowerCase() === "q" && this.tool === overlay) { this.optionsPanel.rotate(); return; }
      if (e.key.toLowerCase() === "g") { $("#show-labels").click(); return; }
      const tool = this.tools.find((t) => t.key === e.key.toLowerCase());
      if (tool) this.useTool(tool);
    });
    document.addEventListener("keyup", (e) => { if (e.key === " ") this.spaceHeld = false; });
  }

  // -- saving ----------------------------------------------------------------------------------------------
  bindSession() {
    const ed = this.editor;
    wireSession(ed, {
      canEdit: this.canEdit,
      onConflict: ({ items }) => { this.highlight = { hexes: items.filter((i) => i.hex).map((i) => i.hex), hexsides: [] }; this.view.request(); },
      onResolved: () => { this.highlight = null; },
    });
    ed.addEventListener("state", () => { if (this.lastPointer) this.hover(this.lastPointer); });
    ed.on("saved", (detail) => { this.lastSaveMs = detail.ms; this.history.refresh(); });
    ed.addEventListener("remote", () => { this.optionsPanel.refreshTemplates(); this.history.refresh(); this.scan.load(); this.sightPanel.markStale(); });
    this.model.onChange((what) => {
      if (what.overlays || what.all) this.optionsPanel.refreshTemplates();
      if (what.background || what.all) this.scan.load();
    });
  }
}

export default startPage({ data: "painter-config", name: "painter",
                           failure: (err) => `The painter could not start: ${err.message}` }, (config) => new Painter(config));
