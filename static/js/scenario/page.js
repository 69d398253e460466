// The scenario editor page (templates/authoring/scenario_editor.html): the map read-only on the painter's canvas
// (mapview.js), the scenario drawn over it (setup zones, objectives, markers, entry hexes, counters), and panels
// for the metadata, each side (OOB, reinforcements, victory conditions) and the special rules. Every change is an
// edit request with the revision it was made on (engine/scenarios/edits.py); the server's answer is the truth, so the
// page reloads the scenario after each one (a 409 or a refused edit says so in the banner).
import { ApiError, get, post } from "./api.js";
import { MapModel } from "./edits.js";
import { runJob } from "./jobs.js";
import { MapView, Styles } from "./mapview.js";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "value") node.value = v ?? "";
    else if (k === "checked") node.checked = !!v;
    else if (v !== false && v != null) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c != null && c !== false));
  return node;
};
const clone = (v) => JSON.parse(JSON.stringify(v));
const EDGES = ["N", "E", "S", "W"];
const KINDS = ["control", "vp", "casualties", "exit", "hold", "eliminate", "text"];
const TOOLS = [
  { id: "pan", name: "Pan", edit: false },
  { id: "zone", name: "Setup zone", edit: true, note: "Click or drag to paint the side's setup zone; start on a zone hex to erase." },
  { id: "place", name: "Place unit", edit: true, note: "Pick a unit in the OOB (or drag its row onto the map), then click a hex." },
  { id: "remove", name: "Remove unit", edit: true, note: "Click a hex to take the side's last counter off it." },
  { id: "turn", name: "Turn unit", edit: true, note: "Click a hex to turn the side's top counter there to the next facing." },
  { id: "objective", name: "Objective", edit: true, note: "Click a hex to add an objective there, or remove the one there." },
  { id: "marker", name: "Marker", edit: true, note: "Click a hex to place the marker chosen below; click a marker to remove it." },
  { id: "entry", name: "Entry hexes", edit: true, note: "Click hexes to add or remove entry hexes of the selected reinforcement." },
  { id: "perimeter", name: "Perimeter", edit: true, game: "tocs", note: "TOCS: click or drag to give hexes to the side; start on one of its hexes to make them no man's land." },
];

class ScenarioEditor {
  constructor(config) {
    this.config = config;
    this.id = config.scenario;
    this.canEdit = config.canEdit;
    this.tab = "scenario";
    this.tool = this.canEdit ? "zone" : "pan";
    this.selectedUnit = null;      // OOB id of the active side
    this.selectedReinforcement = 0;
    this.markerKind = (config.markerKinds || [])[0] || "control";
    this.findings = [];
    this.activeFinding = null;
    this.sight = null;
    this.sightSide = null;
  }

  get url() { return `/api/scenarios/${this.id}/`; }
  get doc() { return this.scenario.document; }
  get sideIndex() { return typeof this.tab === "number" ? this.tab : 0; }
  get side() { return this.doc.sides[this.sideIndex]; }

  async start() {
    this.scenario = await get(this.url);
    const entry = this.doc.maps[0];
    const mapDocument = entry.document || (await get(`/api/maps/${this.config.map}/`)).document;
    const ruleset = (await get(`/api/rulesets/${this.config.ruleset}/`)).ruleset;
    this.styles = new Styles(ruleset);
    this.model = new MapModel(mapDocument);
    this.grid = this.model.grid;
    if (this.config.game === "miniatures") {
      this.inchesPerHex = this.doc.rules.inches_per_hex || Math.round((mapDocument.grid.hex_metres / 22.86) * 1000) / 1000;
    }
    this.view = new MapView($("#map-canvas"), this.model, this.styles);
    this.view.addLayer({ draw: (ctx) => this.drawScenario(ctx) });
    this.buildTools();
    this.bindCanvas();
    $("#fit").addEventListener("click", () => this.view.fit());
    $("#run-checks").addEventListener("click", () => this.runChecks());
    $("#run-sight").addEventListener("click", () => this.runSight());
    this.render();
    this.state("saved", `revision ${this.scenario.revision}`);
    document.body.dataset.ready = "1";
    window.scenarioEditor = this;   // for the tests and the console
  }

  // -- talking to the server ------------------------------------------------------------------------------
  state(kind, text) { const s = $("#save-state"); s.dataset.state = kind; s.textContent = text; }
  banner(text) { const b = $("#banner"); b.textContent = text || ""; b.hidden = !text; }

  async reload() {
    this.scenario = await get(this.url);
    this.render();
    this.view.request();
  }

  // Send operations made on the revision shown; the answer (or a refusal) is followed by a reload. Requests go
  // one at a time, each on the revision the one before it left.
  send(operations, label = "edit") {
    if (!this.canEdit || !operations.length) return Promise.resolve(false);
    this.busy = (this.busy || Promise.resolve()).then(() => this.sendNow(operations, label));
    return this.busy;
  }

  async sendNow(operations, label) {
    this.state("pending", `saving ${label}…`);
    try {
      const answer = await post(`${this.url}edits/`, { revision: this.scenario.revision, operations });
      this.banner("");
      await this.reload();
      this.state("saved", `saved: ${label} (revision ${answer.revision})`);
      document.body.dataset.revision = String(answer.revision);
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        this.banner("The scenario was changed elsewhere; it has been reloaded. Make the change again.");
        this.state("conflict", "reloaded after a conflict");
      } else {
        this.banner(`Not saved: ${err.message}`);
        this.state("conflict", "not saved");
      }
      await this.reload();
      return false;
    }
  }

  // A change of one value; nothing is sent when the value is already that (a field losing focus again).
  set(path, value, label) {
    if (JSON.stringify(valueAt(this.doc, path)) === JSON.stringify(value)) return Promise.resolve(false);
    return this.send([{ op: "set", path, value }], label || path);
  }

  // -- the map --------------------------------------------------------------------------------------------
  hexOf(ref) {
    if (typeof ref !== "string" || ref.includes(":")) return null;   // hexes of other maps are not drawn here
    try { return this.grid.parseLabel(ref); } catch { return null; }
  }
  label(col, row) { return this.grid.label(col, row); }

  drawScenario(ctx) {
    const view = this.view, g = this.grid, res = view.scale;
    const outline = (hexes, colour, width, dash) => {
      ctx.beginPath();
      for (const [c, r] of hexes) view.hexPath(ctx, c, r, -0.06);
      ctx.setLineDash(dash || []); ctx.lineWidth = width / res; ctx.strokeStyle = colour; ctx.stroke(); ctx.setLineDash([]);
    };
    const hexes = (refs) => refs.map((r) => this.hexOf(r)).filter(Boolean);
    // The play area: everything outside it greyed.
    if (this.doc.play_area) {
      const [a, b] = this.doc.play_area.corners.map((r) => this.hexOf(r));
      if (a && b) {
        const outside = [];
        for (let c = 0; c < g.columns; c++) for (let r = 0; r < g.rows; r++) {
          if (c < Math.min(a[0], b[0]) || c > Math.max(a[0], b[0]) || r < Math.min(a[1], b[1]) || r > Math.max(a[1], b[1])) outside.push([c, r]);
        }
        ctx.globalAlpha = 0.45;
        view.fillHexes(ctx, outside, (c) => { c.fillStyle = "#f4f1ea"; c.fill(); });
        ctx.globalAlpha = 1;
      }
    }
    // TOCS perimeter: each side's hexes hatched lightly in its colour.
    if (this.doc.perimeter) {
      for (const side of this.doc.sides) {
        ctx.globalAlpha = 0.1;
        view.fillHexes(ctx, hexes(this.doc.perimeter[side.id] || []), (c) => { c.fillStyle = side.colour; c.fill(); });
        ctx.globalAlpha = 1;
      }
    }
    // Setup zones, in each side's colour.
    this.doc.sides.forEach((side, i) => {
      ctx.globalAlpha = i === this.sideIndex ? 0.33 : 0.18;
      view.fillHexes(ctx, hexes(side.setup_zone), (c) => { c.fillStyle = side.colour; c.fill(); });
      ctx.globalAlpha = 1;
      if (i === this.sideIndex) outline(hexes(side.setup_zone), side.colour, 2);
    });
    if (this.pendingZone) {
      ctx.globalAlpha = 0.4;
      view.fillHexes(ctx, [...this.pendingZone.hexes].map((k) => k.split(",").map(Number)),
                     (c) => { c.fillStyle = this.pendingZone.erase ? "#ffffff" : this.side.colour; c.fill(); });
      ctx.globalAlpha = 1;
    }
    // Sight lines of the chosen side: dead ground shaded, what it sees ringed.
    if (this.sight && this.sightSide && this.sight.sides[this.sightSide]) {
      const s = this.sight.sides[this.sightSide];
      ctx.globalAlpha = 0.35;
      view.fillHexes(ctx, hexes(s.dead_ground), (c) => { c.fillStyle = "#1d1d1d"; c.fill(); });
      ctx.globalAlpha = 1;
      outline(hexes(s.enemy_setup.seen), "#e69f00", 2.5, [4 / res, 3 / res]);
    }
    // Entry hexes of every reinforcement, as arrows into the map.
    this.doc.sides.forEach((side) => {
      for (const r of side.reinforcements) {
        for (const [c, rr] of hexes(r.hexes)) {
          const [x, y] = g.centre(c, rr);
          ctx.beginPath(); ctx.moveTo(x - 0.45, y - 0.3); ctx.lineTo(x + 0.1, y); ctx.lineTo(x - 0.45, y + 0.3);
          ctx.lineWidth = 3 / res; ctx.strokeStyle = side.colour; ctx.stroke();
        }
      }
    });
    // Markers: a small diamond with the kind's first letters.
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    const atHex = new Map();
    for (const m of this.doc.markers) {
      const h = this.hexOf(m.hex); if (!h) continue;
      const k = h.join(","), n = atHex.get(k) || 0; atHex.set(k, n + 1);
      const [x, y] = g.centre(...h), mx = x + 0.45 - n * 0.3, my = y + 0.5;
      ctx.beginPath(); ctx.moveTo(mx, my - 0.2); ctx.lineTo(mx + 0.2, my); ctx.lineTo(mx, my + 0.2); ctx.lineTo(mx - 0.2, my);
      ctx.closePath(); ctx.fillStyle = "#fff7d6"; ctx.fill(); ctx.lineWidth = 1.5 / res; ctx.strokeStyle = "#4a3b1a"; ctx.stroke();
      ctx.font = `bold ${Math.max(7, 0.16 * res) / res}px system-ui`; ctx.fillStyle = "#4a3b1a";
      ctx.fillText(m.kind.slice(0, 2).toUpperCase(), mx, my);
    }
    // Objectives: a ring in the first owner's colour with a star.
    for (const o of this.doc.objectives) {
      const h = this.hexOf(o.hex); if (!h) continue;
      const [x, y] = g.centre(...h), owner = this.doc.sides.find((s) => s.id === o.owner);
      ctx.beginPath(); ctx.arc(x, y, 0.62, 0, 2 * Math.PI);
      ctx.fillStyle = "rgba(255, 214, 64, 0.35)"; ctx.fill();
      ctx.lineWidth = 6 / res; ctx.strokeStyle = "#d4a017"; ctx.stroke();
      ctx.lineWidth = 2.5 / res; ctx.strokeStyle = owner ? owner.colour : "#777777"; ctx.stroke();
      if (this.sight && this.sightSide) {
        const row = (this.sight.sides[this.sightSide].objectives || []).find((r) => r.id === o.id);
        if (row) { ctx.beginPath(); ctx.arc(x, y, 0.75, 0, 2 * Math.PI); ctx.lineWidth = 3 / res;
                   ctx.strokeStyle = row.seen ? "#009e73" : "#d55e00"; ctx.stroke(); }
      }
      ctx.font = `bold ${Math.max(9, 0.36 * res) / res}px system-ui`; ctx.fillStyle = "#8a6a00";
      ctx.fillText("★", x, y - 0.4);
    }
    // Counters: one per placement; a stack fans out up and to the right.
    const stacks = new Map();
    this.doc.sides.forEach((side) => {
      const units = new Map(side.oob.map((u) => [u.id, u]));
      for (const p of side.placements) {
        const h = this.hexOf(p.hex); if (!h) continue;
        const k = h.join(",");
        if (!stacks.has(k)) stacks.set(k, []);
        stacks.get(k).push({ side, unit: units.get(p.unit) || { unit: p.unit }, facing: p.facing });
      }
    });
    const size = 0.62;
    for (const [k, stack] of stacks) {
      const [c, r] = k.split(",").map(Number), [x, y] = g.centre(c, r);
      stack.forEach((item, n) => {
        const cx = x - size / 2 - 0.12 + n * 0.16, cy = y - size / 2 + 0.08 - n * 0.16;
        ctx.fillStyle = item.side.colour; ctx.fillRect(cx, cy, size, size);
        ctx.lineWidth = 1.2 / res; ctx.strokeStyle = "#111"; ctx.strokeRect(cx, cy, size, size);
        ctx.fillStyle = "#fff"; ctx.font = `bold ${Math.max(7, 0.2 * res) / res}px system-ui`;
        ctx.fillText(abbreviation(item.unit), cx + size / 2, cy + size / 2);
        if (item.unit.leader) { ctx.fillText("★", cx + size / 2, cy + 0.12); }
        if (item.facing != null) {
          const angle = this.facingAngle(item.facing), mx = cx + size / 2, my = cy + size / 2;
          const tip = [mx + Math.cos(angle) * size * 0.62, my + Math.sin(angle) * size * 0.62];
          const side = (a) => [mx + Math.cos(a) * size * 0.36, my + Math.sin(a) * size * 0.36];
          ctx.beginPath(); ctx.moveTo(...tip); ctx.lineTo(...side(angle + 0.5)); ctx.lineTo(...side(angle - 0.5)); ctx.closePath();
          ctx.fillStyle = "#ffd84d"; ctx.fill(); ctx.lineWidth = 1 / res; ctx.strokeStyle = "#111"; ctx.stroke();
        }
      });
    }
    // Findings: every hex named by a finding outlined in red; the chosen one thicker.
    const found = this.findings.filter((f) => f.hex).map((f) => this.hexOf(f.hex)).filter(Boolean);
    outline(found, "#d00000", 3);
    if (this.activeFinding && this.activeFinding.hex) {
      const h = this.hexOf(this.activeFinding.hex);
      if (h) outline([h], "#d00000", 7);
    }
  }

  // The direction (radians, y downward) of a facing: a hexside's middle, or an Assault vertex (a corner).
  facingAngle(facing) {
    const flat = this.grid.flat;
    if (typeof facing === "number") return ((flat ? 240 : 270) + 60 * facing) * Math.PI / 180;   // corner i
    const i = this.grid.sides.indexOf(facing);
    return ((flat ? 270 : 300) + 60 * i) * Math.PI / 180;   // between corners i and i + 1
  }

  buildTools() {
    const nav = $("#tools");
    nav.replaceChildren();
    for (const tool of TOOLS) {
      if ((tool.edit && !this.canEdit) || (tool.game && tool.game !== this.config.game)) continue;
      nav.append(el("button", { type: "button", class: "tool", "data-tool": tool.id, "aria-pressed": String(this.tool === tool.id),
                                title: tool.note || tool.name, onclick: () => this.useTool(tool.id) }, tool.name));
    }
    if (this.canEdit) {
      const kinds = el("select", { id: "marker-kind", onchange: (e) => { this.markerKind = e.target.value; } },
                       ...(this.config.markerKinds || []).map((k) => el("option", { value: k }, k)));
      kinds.value = this.markerKind;
      const facing = el("select", { id: "facing", onchange: (e) => { this.facing = e.target.value === "" ? null : parseFacing(e.target.value); } },
                        ...[["", "none"], ...this.facings().map((f) => [String(f), String(f)])].map(([v, t]) => el("option", { value: v }, t)));
      facing.value = this.facing == null ? "" : String(this.facing);
      nav.append(el("label", {}, "Marker", kinds), el("label", { title: "The facing new counters and markers get" }, "Facing", facing));
    }
  }

  useTool(id) {
    this.tool = id;
    for (const b of document.querySelectorAll("#tools .tool")) b.setAttribute("aria-pressed", String(b.dataset.tool === id));
    $("#map-canvas").dataset.tool = id;
    const tool = TOOLS.find((t) => t.id === id);
    $("#status-note").textContent = tool && tool.note ? tool.note : "";
  }

  bindCanvas() {
    const canvas = $("#map-canvas");
    let drag = null;
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [sx, sy] = this.view.eventPoint(e);
      this.view.zoomAt(sx, sy, e.deltaY < 0 ? 1.15 : 1 / 1.15);
    }, { passive: false });
    canvas.addEventListener("pointermove", (e) => {
      const hex = this.view.hexAtEvent(e);
      $("#status-hex").textContent = hex && this.grid.contains(...hex) ? this.describe(...hex) : "—";
      if (!drag) return;
      if (drag.pan) { this.view.panBy(e.clientX - drag.x, e.clientY - drag.y); drag.x = e.clientX; drag.y = e.clientY; return; }
      if (drag.zone && hex && this.grid.contains(...hex)) { this.pendingZone.hexes.add(hex.join(",")); this.view.request(); }
    });
    canvas.addEventListener("pointerdown", (e) => {
      canvas.setPointerCapture(e.pointerId);
      const hex = this.view.hexAtEvent(e);
      if (this.tool === "pan" || e.button === 1) { drag = { pan: true, x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY }; return; }
      if (!hex || !this.grid.contains(...hex) || !this.doc.sides.length && this.tool !== "objective" && this.tool !== "marker") return;
      if (this.tool === "zone" || this.tool === "perimeter") {
        const own = this.tool === "zone" ? this.side.setup_zone : ((this.doc.perimeter || {})[this.side.id] || []);
        const erase = own.includes(this.label(...hex));
        this.pendingZone = { erase, perimeter: this.tool === "perimeter", hexes: new Set([hex.join(",")]) };
        drag = { zone: true };
        this.view.request();
      }
    });
    canvas.addEventListener("pointerup", (e) => {
      const hex = this.view.hexAtEvent(e), was = drag;
      drag = null;
      if (was && was.pan) {
        // A click without a drag marks the hex distances are measured from.
        if (Math.hypot(e.clientX - was.x0, e.clientY - was.y0) < 4 && hex && this.grid.contains(...hex)) this.lastHex = hex;
        return;
      }
      if (was && was.zone) { this.commitZone(); return; }
      if (hex && this.grid.contains(...hex)) this.click(hex);
    });
    canvas.addEventListener("dragover", (e) => { if (this.canEdit) e.preventDefault(); });
    canvas.addEventListener("drop", (e) => {
      e.preventDefault();
      const unit = e.dataTransfer.getData("text/plain"), hex = this.view.hexAtEvent(e);
      if (unit && hex && this.grid.contains(...hex)) this.placeUnit(unit, hex);
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

  commitZone() {
    const pending = this.pendingZone;
    this.pendingZone = null;
    if (!pending) return;
    const labels = [...pending.hexes].map((k) => this.label(...k.split(",").map(Number)));
    if (pending.perimeter) {
      const perimeter = {};
      for (const side of this.doc.sides) perimeter[side.id] = ((this.doc.perimeter || {})[side.id] || []).filter((h) => !labels.includes(h));
      if (!pending.erase) perimeter[this.side.id].push(...labels);
      this.set("perimeter", perimeter, `perimeter: ${labels.length} hex${labels.length > 1 ? "es" : ""} ${pending.erase ? "to no man's land" : "to " + this.side.name}`);
      return;
    }
    const zone = new Set(this.side.setup_zone);
    for (const l of labels) { if (pending.erase) zone.delete(l); else zone.add(l); }
    this.set(`sides[${this.sideIndex}].setup_zone`, [...zone],
             `${pending.erase ? "erase" : "paint"} ${labels.length} setup hex${labels.length > 1 ? "es" : ""}`);
  }

  click(hex) {
    const label = this.label(...hex), s = this.sideIndex;
    this.lastHex = hex;
    if (!this.side && ["place", "remove", "entry", "zone"].includes(this.tool)) { this.banner("Add a side first (+ Side)."); return; }
    if (this.tool === "place") {
      if (!this.selectedUnit) { this.banner("Pick a unit in the side's OOB first (click its row)."); return; }
      this.placeUnit(this.selectedUnit, hex);
    } else if (this.tool === "remove") {
      const at = this.side.placements.map((p, i) => [p, i]).filter(([p]) => p.hex === label);
      if (at.length) this.send([{ op: "remove", path: `sides[${s}].placements[${at[at.length - 1][1]}]` }], `remove a counter from ${label}`);
    } else if (this.tool === "turn") {
      const at = this.side.placements.map((p, i) => [p, i]).filter(([p]) => p.hex === label);
      if (!at.length) return;
      const [p, i] = at[at.length - 1], all = this.facings(), k = all.indexOf(p.facing);
      this.set(`sides[${s}].placements[${i}].facing`, all[(k + 1) % all.length], `turn ${p.unit} in ${label}`);
    } else if (this.tool === "objective") {
      const i = this.doc.objectives.findIndex((o) => o.hex === label);
      if (i >= 0) { this.removeObjective(i); return; }
      const id = freshId("obj", this.doc.objectives.map((o) => o.id));
      const owner = (this.doc.sides.find((side) => side.setup_zone.includes(label)) || {}).id || null;
      this.send([{ op: "insert", path: "objectives", value: { id, hex: label, name: `Objective ${this.doc.objectives.length + 1}`, owner } }],
                `objective in ${label}`);
    } else if (this.tool === "marker") {
      const i = this.doc.markers.findIndex((m) => m.hex === label && m.kind === this.markerKind);
      if (i >= 0) this.send([{ op: "remove", path: `markers[${i}]` }], `remove ${this.markerKind} from ${label}`);
      else this.send([{ op: "insert", path: "markers", value: { kind: this.markerKind, hex: label, side: this.side ? this.side.id : null,
                                                                 facing: this.facing ?? null } }], `${this.markerKind} in ${label}`);
    } else if (this.tool === "entry") {
      const r = this.side.reinforcements[this.selectedReinforcement];
      if (!r) { this.banner("Add a reinforcement to this side first, then pick it in the schedule."); return; }
      const hexes = r.hexes.includes(label) ? r.hexes.filter((h) => h !== label) : [...r.hexes, label];
      this.set(`sides[${s}].reinforcements[${this.selectedReinforcement}].hexes`, hexes, `entry hex ${label}`);
    }
  }

  placeUnit(unitId, hex) {
    const label = this.label(...hex), value = { unit: unitId, hex: label };
    if (this.facing != null) value.facing = this.facing;
    this.send([{ op: "insert", path: `sides[${this.sideIndex}].placements`, value }], `place ${unitId} in ${label}`);
  }

  // Facings a counter may have: Assault's vertices 0-5, else the grid's hexsides.
  facings() {
    return this.config.game === "assault" ? [0, 1, 2, 3, 4, 5] : [...this.grid.sides];
  }

  removeObjective(i) {
    const id = this.doc.objectives[i].id;
    const used = this.doc.sides.some((s) => JSON.stringify(s.victory || {}).includes(`"${id}"`));
    if (used) { this.banner(`Objective ${id} is named by a victory condition: remove the condition first.`); return; }
    this.send([{ op: "remove", path: `objectives[${i}]` }], `remove objective ${id}`);
  }

  // -- the panels -----------------------------------------------------------------------------------------
  render() {
    $("#scenario-title").textContent = this.doc.title;
    const tabs = $("#tabs");
    tabs.replaceChildren();
    const tab = (key, text) => el("button", { type: "button", role: "tab", "aria-selected": String(this.tab === key),
                                              onclick: () => { this.tab = key; this.selectedUnit = null; this.render(); this.view.request(); } }, text);
    tabs.append(tab("scenario", "Scenario"));
    this.doc.sides.forEach((side, i) => tabs.append(tab(i, side.name)));
    if (this.canEdit) tabs.append(el("button", { type: "button", id: "add-side", onclick: () => this.addSide() }, "+ Side"));
    if (typeof this.tab === "number" && !this.doc.sides[this.tab]) this.tab = "scenario";
    const panel = $("#panel");
    panel.replaceChildren(this.tab === "scenario" ? this.scenarioPanel() : this.sidePanel(this.tab));
    if (!this.canEdit) for (const input of panel.querySelectorAll("input, select, textarea, button")) input.disabled = true;
  }

  field(label, value, onchange, attrs = {}) {
    const input = attrs.type === "textarea"
      ? el("textarea", { rows: attrs.rows || 3, onchange: (e) => onchange(e.target.value) })
      : el("input", { type: attrs.type || "text", onchange: (e) => onchange(attrs.type === "number" ? numberOrNull(e.target.value) : (attrs.type === "checkbox" ? e.target.checked : e.target.value)), ...attrs });
    if (attrs.type === "checkbox") input.checked = !!value; else input.value = value ?? "";
    if (attrs.name) input.name = attrs.name;
    return el("label", {}, label, " ", input);
  }

  select(label, value, options, onchange, attrs = {}) {
    const s = el("select", { onchange: (e) => onchange(e.target.value === "" ? null : e.target.value), ...attrs },
                 ...options.map(([v, text]) => el("option", { value: v ?? "" }, text)));
    s.value = value ?? "";
    return el("label", {}, label, " ", s);
  }

  scenarioPanel() {
    const d = this.doc, sides = [["", "a roll decides"], ...d.sides.map((s) => [s.id, s.name])];
    const box = el("div", { id: "scenario-panel" });
    box.append(el("h3", {}, "Scenario"),
      this.field("Title", d.title, (v) => this.set("title", v), { name: "title" }),
      this.field("Subtitle", d.subtitle, (v) => this.set("subtitle", v)),
      el("div", { class: "fields" }, this.field("Date", d.date, (v) => this.set("date", v)),
         this.field("Place", d.place, (v) => this.set("place", v)),
         this.field("Designer", d.designer, (v) => this.set("designer", v)),
         this.field("Play area from", d.play_area ? d.play_area.corners[0] : "", (v) => this.setPlayArea(0, v), { name: "area-from", placeholder: "whole map" }),
         this.field("to", d.play_area ? d.play_area.corners[1] : "", (v) => this.setPlayArea(1, v), { name: "area-to", placeholder: "whole map" }),
         this.field("Turns", d.turns.count, (v) => this.set("turns", { ...d.turns, count: v }), { type: "number", min: 1, name: "turns" }),
         this.select("Track counts", d.turns.counts, [["up", "up"], ["down", "down (OST)"]], (v) => this.set("turns", { ...d.turns, counts: v })),
         this.select("Sets up first", d.sets_up_first, sides, (v) => this.set("sets_up_first", v)),
         this.select("Moves first", d.moves_first, sides, (v) => this.set("moves_first", v)),
         this.field("Weather", d.environment.weather, (v) => this.set("environment", { ...d.environment, weather: v })),
         this.field("Night", d.environment.night, (v) => this.set("environment", { ...d.environment, night: v }), { type: "checkbox" }),
         this.field("Visibility (hexes)", d.environment.visibility, (v) => this.set("environment", { ...d.environment, visibility: v }), { type: "number", min: 1 })),
      this.field("Historical introduction", d.introduction, (v) => this.set("introduction", v), { type: "textarea", rows: 4 }));
    if (this.inchesPerHex) {
      box.append(el("p", { class: "muted", id: "inches" }, `1 hex = ${this.inchesPerHex}" on the table (1" = 25 yards); `
        + "the status line gives the distance in inches from the last hex clicked."));
    }
    if ((this.config.rulesFields || []).length) {
      box.append(el("h3", {}, `${this.config.game} rules`),
                 el("div", { class: "fields" }, ...this.config.rulesFields.map((k) => this.freeField(k, d.rules[k], (v) => {
                   const rules = { ...d.rules }; if (v === null) delete rules[k]; else rules[k] = v; this.set("rules", rules, `rules ${k}`);
                 }))));
    }
    box.append(el("h3", {}, "Objectives and control hexes"));
    const table = el("table", { class: "oob" }, el("tr", {}, ...["Hex", "Name", "Kind", "First owner", "VP", ""].map((h) => el("th", {}, h))));
    d.objectives.forEach((o, i) => {
      const path = `objectives[${i}]`;
      table.append(el("tr", {},
        el("td", {}, o.hex),
        el("td", {}, el("input", { type: "text", value: o.name, onchange: (e) => this.set(`${path}.name`, e.target.value) })),
        el("td", {}, selectBare(o.kind, [["objective", "objective"], ["control", "control"]], (v) => this.set(`${path}.kind`, v))),
        el("td", {}, selectBare(o.owner, [["", "neutral"], ...d.sides.map((s) => [s.id, s.name])], (v) => this.set(`${path}.owner`, v || null))),
        el("td", {}, el("input", { type: "number", value: o.vp, onchange: (e) => this.set(`${path}.vp`, numberOrNull(e.target.value)) })),
        el("td", {}, el("button", { type: "button", class: "small", title: "Remove", onclick: () => this.removeObjective(i) }, "✕"))));
    });
    box.append(d.objectives.length ? table : el("p", { class: "muted" }, "None yet: use the Objective tool on the map."));
    box.append(el("h3", {}, "Special rules"));
    const rules = el("ol", { id: "special-rules" });
    d.special_rules.forEach((text, i) => rules.append(el("li", {},
      el("textarea", { rows: 2, onchange: (e) => this.set(`special_rules[${i}]`, e.target.value, `special rule ${i + 1}`) }, text),
      el("button", { type: "button", class: "small", onclick: () => this.send([{ op: "remove", path: `special_rules[${i}]` }], `remove special rule ${i + 1}`) }, "✕"))));
    box.append(rules, el("button", { type: "button", id: "add-rule", onclick: () => this.send([{ op: "insert", path: "special_rules", value: "New special rule." }], "add a special rule") }, "+ Special rule"));
    return box;
  }

  // The play area is the rectangle between two corner hexes; both empty is the whole map.
  setPlayArea(which, label) {
    const g = this.grid, corners = this.doc.play_area ? [...this.doc.play_area.corners]
      : [g.label(0, 0), g.label(g.columns - 1, g.rows - 1)];
    corners[which] = label.trim().toUpperCase();
    const whole = corners.every((c) => !c);
    return this.set("play_area", whole ? null : { corners }, "play area");
  }

  freeField(key, value, onchange) {
    const numeric = typeof value === "number" || /^(gut_check|luck_cards|hand_limit|deck|command_cards|ta_oas|smoke|op_minimum|op_reserve|turn_hours|inches_per_hex)$/.test(key);
    if (typeof value === "boolean" || /^(extended_play|early_victory|minefields)$/.test(key)) {
      return this.field(key.replaceAll("_", " "), value, onchange, { type: "checkbox" });
    }
    if (value !== undefined && typeof value === "object" && value !== null) {
      return this.field(key.replaceAll("_", " ") + " (JSON)", JSON.stringify(value), (v) => {
        try { onchange(v.trim() ? JSON.parse(v) : null); } catch { this.banner(`${key}: not valid JSON`); }
      });
    }
    return this.field(key.replaceAll("_", " "), value, (v) => onchange(v === "" ? null : v), numeric ? { type: "number", step: "any" } : {});
  }

  sidePanel(i) {
    const side = this.doc.sides[i], path = `sides[${i}]`, box = el("div", { id: "side-panel" });
    const counts = unitCounts(side);
    box.append(el("div", { class: "fields" },
      this.field("Name", side.name, (v) => this.set(`${path}.name`, v)),
      this.field("Nationality", side.nationality, (v) => this.set(`${path}.nationality`, v)),
      this.field("Colour", side.colour, (v) => this.set(`${path}.colour`, v), { type: "color" }),
      ...(this.config.sideFields || []).map((k) => this.freeField(k, side.fields[k], (v) => {
        const fields = { ...side.fields }; if (v === null) delete fields[k]; else fields[k] = v;
        this.set(`${path}.fields`, fields, `${side.name} ${k}`);
      }))));
    // The order of battle.
    const total = side.oob.reduce((n, u) => n + u.count, 0);
    const placed = side.placements.length, arriving = side.reinforcements.reduce((n, r) => n + r.units.reduce((m, u) => m + u.count, 0), 0);
    box.append(el("h3", {}, "Order of battle ", el("span", { class: "counts", id: "oob-counts" },
      `${total} units: ${placed} placed, ${arriving} arriving, ${Math.max(0, total - placed - arriving)} free in the zone`)));
    const extra = this.config.oobExtra || [];
    const head = ["Unit", "Name", "Count", "Class", "Quality", "Leader", "Formation", "Hidden", ...extra.map((k) => k.replaceAll("_", " ")), "Placed", ""];
    const table = el("table", { class: "oob", id: "oob" }, el("tr", {}, ...head.map((h) => el("th", {}, h))));
    side.oob.forEach((u, j) => {
      const up = `${path}.oob[${j}]`;
      const setKey = (k, v) => this.set(`${up}.${k}`, v, `${u.id} ${k}`);
      const row = el("tr", { draggable: this.canEdit ? "true" : false, "data-unit": u.id, class: this.selectedUnit === u.id ? "selected" : "",
                             ondragstart: (e) => e.dataTransfer.setData("text/plain", u.id),
                             onclick: (e) => { if (e.target.tagName === "TD" || e.target.tagName === "TR") { this.selectedUnit = u.id; this.useTool("place"); this.render(); } } },
        el("td", {}, el("input", { type: "text", value: u.unit, "aria-label": "unit", onchange: (e) => setKey("unit", e.target.value) })),
        el("td", {}, el("input", { type: "text", value: u.name, "aria-label": "name", onchange: (e) => setKey("name", e.target.value) })),
        el("td", {}, el("input", { type: "number", min: 1, value: u.count, "aria-label": "count", onchange: (e) => setKey("count", numberOrNull(e.target.value)) })),
        el("td", {}, selectBare(u.class, (this.config.unitClasses || []).map((c) => [c, c]), (v) => setKey("class", v))),
        el("td", {}, selectBare(u.quality, [["", "—"], ...(this.config.qualities || []).map((q) => [q, q])], (v) => setKey("quality", v || null))),
        el("td", {}, el("input", { type: "checkbox", checked: u.leader, "aria-label": "leader", onchange: (e) => setKey("leader", e.target.checked) })),
        el("td", {}, el("input", { type: "text", value: u.formation || "", "aria-label": "formation", onchange: (e) => setKey("formation", e.target.value || null) })),
        el("td", {}, el("input", { type: "checkbox", checked: u.hidden, "aria-label": "hidden", onchange: (e) => setKey("hidden", e.target.checked) })),
        ...extra.map((k) => el("td", {}, el("input", { type: "text", value: u[k] ?? "", "aria-label": k, onchange: (e) => {
          const v = e.target.value; setKey(k, v === "" ? null : (v === "true" ? true : v === "false" ? false : (isNaN(Number(v)) ? v : Number(v))));
        } }))),
        el("td", { class: "counts" }, `${counts.placed[u.id] || 0}+${counts.arriving[u.id] || 0}/${u.count}`),
        el("td", {}, el("span", { class: "row" },
          el("button", { type: "button", class: "small", title: "Copy", onclick: () => this.copyUnit(j) }, "⧉"),
          el("button", { type: "button", class: "small", title: "Up", disabled: j === 0, onclick: () => this.send([{ op: "move", path: `${path}.oob`, from: j, to: j - 1 }], "reorder the OOB") }, "↑"),
          el("button", { type: "button", class: "small", title: "Down", disabled: j === side.oob.length - 1, onclick: () => this.send([{ op: "move", path: `${path}.oob`, from: j, to: j + 1 }], "reorder the OOB") }, "↓"),
          el("button", { type: "button", class: "small", title: "Remove (and its counters)", onclick: () => this.removeUnit(j) }, "✕"))));
      table.append(row);
    });
    box.append(el("div", { class: "oob-wrap" }, table), el("button", { type: "button", id: "add-unit", onclick: () => this.addUnit() }, "+ Unit"));
    box.append(el("p", { class: "muted" }, "Click a row (outside its fields) to pick it for the Place tool, or drag it onto the map."));
    // Reinforcements by turn.
    box.append(el("h3", {}, "Reinforcements"));
    const list = el("ol", { id: "reinforcements" });
    side.reinforcements.map((r, k) => [r, k]).sort((a, b) => a[0].turn - b[0].turn).forEach(([r, k]) => {
      const rp = `${path}.reinforcements[${k}]`;
      const units = el("span", { class: "row" });
      r.units.forEach((g, n) => units.append(
        selectBare(g.unit, side.oob.map((u) => [u.id, u.unit + (u.name ? ` (${u.name})` : "")]), (v) => this.set(`${rp}.units[${n}].unit`, v)),
        el("input", { type: "number", min: 1, value: g.count, "aria-label": "count", onchange: (e) => this.set(`${rp}.units[${n}].count`, numberOrNull(e.target.value)) })));
      list.append(el("li", { class: this.selectedReinforcement === k ? "selected" : "" },
        el("span", { class: "row" },
          el("label", {}, el("input", { type: "radio", name: "reinforcement", checked: this.selectedReinforcement === k, onchange: () => { this.selectedReinforcement = k; this.useTool("entry"); } }), " Turn"),
          el("input", { type: "number", min: 0, value: r.turn, "aria-label": "turn", onchange: (e) => this.set(`${rp}.turn`, numberOrNull(e.target.value)) }),
          selectBare(r.edge, [["", "no edge"], ...EDGES.map((e) => [e, `${e} edge`])], (v) => this.set(`${rp}.edge`, v || null)),
          el("button", { type: "button", class: "small", onclick: () => this.send([{ op: "remove", path: rp }], "remove a reinforcement") }, "✕")),
        units,
        el("button", { type: "button", class: "small", onclick: () => this.send([{ op: "insert", path: `${rp}.units`, value: { unit: side.oob[0].id, count: 1 } }], "add units") }, "+ units"),
        el("div", { class: "muted" }, r.hexes.length ? `entry hexes ${r.hexes.join(", ")}` : "no entry hexes (use the Entry tool)")));
    });
    box.append(list, el("button", { type: "button", id: "add-reinforcement", disabled: !side.oob.length, onclick: () => this.send([{ op: "insert", path: `${path}.reinforcements`, value: { turn: 2, units: [{ unit: side.oob[0].id, count: 1 }], edge: "W" } }], "add a reinforcement") }, "+ Reinforcement"));
    box.append(this.victoryBuilder(i));
    if (this.config.game === "tocs") {
      box.append(el("h3", {}, "Secret brief"),
        this.field("Mission", side.brief.mission, (v) => this.set(`${path}.brief`, { ...side.brief, mission: v }), { type: "textarea" }),
        this.field("Intelligence report", side.brief.intelligence, (v) => this.set(`${path}.brief`, { ...side.brief, intelligence: v }), { type: "textarea" }));
    }
    if (this.canEdit) box.append(el("p", {}, el("button", { type: "button", onclick: () => { if (confirm(`Remove ${side.name}?`)) this.removeSide(i); } }, `Remove ${side.name}`)));
    return box;
  }

  victoryBuilder(i) {
    const side = this.doc.sides[i], path = `sides[${i}].victory`, v = side.victory;
    const sentences = (this.scenario.victory || {})[side.id];
    const box = el("div", { id: "victory" }, el("h3", {}, "Victory conditions"));
    if (!v) box.append(el("p", { class: "muted" }, "None yet."));
    else {
      if (["and", "or"].includes(v.kind)) box.append(el("p", {}, v.kind === "and" ? "All of these:" : "Any one of these:"));
      (sentences ? sentences.parts : []).forEach((text, k) => box.append(el("div", { class: "sentence row" }, el("span", {}, text),
        this.canEdit ? el("button", { type: "button", class: "small", title: "Remove", onclick: () => this.set(path, withoutPart(v, k), "remove a victory condition") }, "✕") : null)));
    }
    if (!this.canEdit) return box;
    const form = el("div", { class: "fields", id: "victory-form" });
    const kind = el("select", { id: "victory-kind", onchange: () => fill() }, ...KINDS.map((k) => el("option", { value: k }, k)));
    const combine = el("select", { id: "victory-combine" }, el("option", { value: "and" }, "and"), el("option", { value: "or" }, "or"));
    const inputs = el("div", { class: "fields", id: "victory-inputs" });
    const objectives = this.doc.objectives.map((o) => [o.id, `${o.name || o.id} (${o.hex})`]);
    const fill = () => {
      inputs.replaceChildren();
      const add = (name, node) => { node.dataset.key = name; inputs.append(el("label", {}, name.replaceAll("_", " "), " ", node)); };
      const num = (name) => add(name, el("input", { type: "number", min: 0 }));
      switch (kind.value) {
        case "control":
          add("objectives", el("select", { multiple: true, size: Math.min(4, Math.max(2, objectives.length)) }, ...objectives.map(([id, t]) => el("option", { value: id }, t))));
          add("at", el("select", {}, el("option", { value: "end" }, "at the end"), el("option", { value: "each-turn" }, "each turn")));
          num("vp"); num("count"); break;
        case "vp": num("at_least"); break;
        case "casualties": num("points"); add("who", el("select", {}, el("option", { value: "enemy" }, "inflict on the enemy"), el("option", { value: "own" }, "suffer at most"))); break;
        case "exit": num("units"); num("vp"); add("edge", el("select", {}, el("option", { value: "" }, "—"), ...EDGES.map((e) => el("option", { value: e }, e))));
          add("hexes", el("input", { type: "text", placeholder: "A5, A6" })); num("by_turn"); break;
        case "hold": add("objective", el("select", {}, ...objectives.map(([id, t]) => el("option", { value: id }, t)))); num("turns"); break;
        case "text": add("text", el("input", { type: "text" })); break;
        default: break;
      }
    };
    fill();
    const addCondition = () => {
      const c = { kind: kind.value };
      for (const node of inputs.querySelectorAll("[data-key]")) {
        const key = node.dataset.key;
        let value = node.multiple ? [...node.selectedOptions].map((o) => o.value) : node.value;
        if (node.type === "number") value = numberOrNull(value);
        if (key === "hexes") value = value.split(/[\s,]+/).filter(Boolean);
        if (value === null || value === "" || (Array.isArray(value) && !value.length && key !== "objectives")) continue;
        c[key] = value;
      }
      let next = c;
      if (v && ["and", "or"].includes(v.kind)) next = { ...clone(v), conditions: [...v.conditions, c] };
      else if (v) next = { kind: combine.value, conditions: [clone(v), c] };
      this.set(path, next, `victory: ${c.kind}`);
    };
    form.append(el("label", {}, "Kind ", kind));
    if (v) form.append(el("label", {}, "Combine with ", combine));
    box.append(form, inputs, el("button", { type: "button", id: "add-victory", onclick: addCondition }, "+ Condition"));
    return box;
  }

  // -- side and OOB operations -----------------------------------------------------------------------------
  addSide() {
    const ids = this.doc.sides.map((s) => s.id), n = this.doc.sides.length + 1;
    const colours = ["#3b5b92", "#9b3b2f", "#4f7a3a", "#7a4f9a"];
    const side = { id: freshId("side", ids), name: `Side ${n}`, colour: colours[(n - 1) % colours.length],
                   oob: [{ id: "unit-1", unit: "Infantry squad", count: 1 }] };
    this.tab = this.doc.sides.length;
    this.send([{ op: "insert", path: "sides", value: side }], "add a side");
  }

  removeSide(i) {
    const id = this.doc.sides[i].id, ops = [];
    this.doc.objectives.forEach((o, k) => { if (o.owner === id) ops.push({ op: "set", path: `objectives[${k}].owner`, value: null }); });
    this.doc.markers.forEach((m, k) => { if (m.side === id) ops.push({ op: "set", path: `markers[${k}].side`, value: null }); });
    for (const key of ["sets_up_first", "moves_first"]) if (this.doc[key] === id) ops.push({ op: "set", path: key, value: null });
    if (this.doc.perimeter && this.doc.perimeter[id]) { const p = { ...this.doc.perimeter }; delete p[id]; ops.push({ op: "set", path: "perimeter", value: p }); }
    ops.push({ op: "remove", path: `sides[${i}]` });
    this.tab = "scenario";
    this.send(ops, `remove ${this.doc.sides[i].name}`);
  }

  addUnit() {
    const side = this.side, id = freshId("unit", side.oob.map((u) => u.id));
    this.selectedUnit = id;
    this.send([{ op: "insert", path: `sides[${this.sideIndex}].oob`, value: { id, unit: "New unit", count: 1 } }], "add a unit");
  }

  copyUnit(j) {
    const side = this.side, copy = clone(side.oob[j]);
    copy.id = freshId(copy.id.replace(/-\d+$/, ""), side.oob.map((u) => u.id));
    this.send([{ op: "insert", path: `sides[${this.sideIndex}].oob`, index: j + 1, value: copy }], `copy ${side.oob[j].id}`);
  }

  removeUnit(j) {
    const side = clone(this.side), id = side.oob[j].id;
    side.oob.splice(j, 1);
    side.placements = side.placements.filter((p) => p.unit !== id);
    side.reinforcements = side.reinforcements.map((r) => ({ ...r, units: r.units.filter((u) => u.unit !== id) }))
      .filter((r) => r.units.length);
    this.send([{ op: "set", path: `sides[${this.sideIndex}]`, value: side }], `remove ${id}`);
  }

  // -- jobs -----------------------------------------------------------------------------------------------
  progress(job) {
    const bar = $("#job-progress");
    bar.hidden = job.status === "succeeded"; bar.value = job.progress || 0;
    $("#job-message").textContent = job.status === "succeeded" ? "" : (job.message || job.status);
  }

  async runChecks() {
    $("#checks-summary").textContent = "Checking…";
    try {
      const job = await runJob(`${this.url}checks/`, undefined, (j) => this.progress(j));
      this.findings = job.result.findings;
      this.activeFinding = null;
      const errors = this.findings.filter((f) => f.severity === "error").length;
      $("#checks-summary").textContent = this.findings.length
        ? `${errors} error${errors === 1 ? "" : "s"}, ${this.findings.length - errors} warning${this.findings.length - errors === 1 ? "" : "s"}`
        : "No problems found.";
      $("#checks-summary").append(el("div", { class: "muted", id: "checks-figures" }, ...summaryLines(job.result.summary, this.doc)));
      const list = $("#findings");
      list.replaceChildren(...this.findings.map((f) => el("li", { class: f.severity, "data-hex": f.hex || "", onclick: (e) => {
        this.activeFinding = f;
        for (const li of list.children) li.classList.toggle("active", li === e.currentTarget);
        this.view.request();
      } }, `${f.hex ? f.hex + ": " : ""}${f.message}`, el("span", { class: "muted" }, ` [${f.code}]`))));
      document.body.dataset.checks = String(this.findings.length);
    } catch (err) {
      $("#checks-summary").textContent = `The checks could not run: ${err.message}`;
    }
    this.view.request();
  }

  async runSight() {
    const box = $("#sight");
    $("#sight-panel").open = true;
    box.textContent = "Working out the sight lines…";
    try {
      const job = await runJob(`${this.url}sight-lines/`, undefined, (j) => this.progress(j));
      this.sight = job.result;
      this.sightSide = this.sightSide && this.sight.sides[this.sightSide] ? this.sightSide : Object.keys(this.sight.sides)[0];
      box.replaceChildren(...Object.entries(this.sight.sides).map(([id, s]) => el("div", { class: "sentence" },
        el("label", {}, el("input", { type: "radio", name: "sight-side", value: id, checked: id === this.sightSide,
                                      onchange: () => { this.sightSide = id; this.view.request(); } }), ` ${s.sentence}`))),
        el("p", {}, `${this.sight.dead_ground_to_all.length} hexes of the play area are seen from no side's setup zone.`),
        el("p", { class: "muted" }, "Dark: dead ground to the chosen side's setup zone. Rings: objectives seen (green) or not (red); dashed orange: enemy setup hexes it sees."),
        el("button", { type: "button", onclick: () => { this.sight = null; box.replaceChildren(); this.view.request(); } }, "Hide"));
      document.body.dataset.sight = "1";
    } catch (err) {
      box.textContent = `The sight lines could not be worked out: ${err.message}`;
    }
    this.view.request();
  }
}

// The derived figures the checks give: units per side, OST casualty points, Assault points, the miniatures deck.
function summaryLines(summary, doc) {
  const lines = [];
  for (const side of doc.sides) {
    const s = summary.sides[side.id];
    if (!s) continue;
    let text = `${side.name}: ${s.units} units (${s.placed} placed, ${s.arriving} arriving)`;
    if (s.casualty_points !== undefined) text += `, ${s.casualty_points} casualty points`;
    if (s.points !== undefined) text += `, ${s.points} points`;
    if (s.deck) text += `, ${s.deck.total} cards = ${s.deck.platoons} platoons + ${s.deck.foos} FOO + ${s.deck.elite_commanders} elite PC + ${s.deck.company_commanders} CC`;
    lines.push(el("div", {}, text));
  }
  if (summary.deck_size !== undefined) lines.push(el("div", {}, `Activation deck: ${summary.deck_size} cards; 1 hex = ${summary.inches_per_hex}"`));
  return lines;
}

function valueAt(data, path) {
  let here = data;
  for (const m of path.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) {
    if (here == null) return undefined;
    here = here[m[1] !== undefined ? m[1] : Number(m[2])];
  }
  return here;
}

function selectBare(value, options, onchange) {
  const s = el("select", { onchange: (e) => onchange(e.target.value) }, ...options.map(([v, t]) => el("option", { value: v ?? "" }, t)));
  s.value = value ?? "";
  return s;
}

function parseFacing(text) {
  return /^\d$/.test(text) ? Number(text) : text;
}

function numberOrNull(text) {
  if (text === "" || text == null) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function freshId(base, taken) {
  for (let n = 1; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}

function abbreviation(unit) {
  const words = String(unit.unit || "?").replace(/[()]/g, "").split(/[\s/-]+/).filter(Boolean);
  return words.length > 1 ? words.slice(0, 3).map((w) => w[0]).join("").toUpperCase() : words[0].slice(0, 3);
}

function unitCounts(side) {
  const placed = {}, arriving = {};
  for (const p of side.placements) placed[p.unit] = (placed[p.unit] || 0) + 1;
  for (const r of side.reinforcements) for (const u of r.units) arriving[u.unit] = (arriving[u.unit] || 0) + u.count;
  return { placed, arriving };
}

function withoutPart(v, k) {
  if (!["and", "or"].includes(v.kind)) return null;
  const rest = v.conditions.filter((_, i) => i !== k);
  return rest.length === 1 ? rest[0] : { ...v, conditions: rest };
}

const config = JSON.parse(document.getElementById("scenario-config").textContent);
const editor = new ScenarioEditor(config);
editor.start().catch((err) => {
  const b = document.getElementById("banner");
  b.textContent = `The scenario could not be loaded: ${err.message}`;
  b.hidden = false;
});
