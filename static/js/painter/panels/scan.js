// @ts-check
// The board scan: uploaded under the painted map, faded, and aligned by two handles dragged onto two known
// hexes' centres (or by the numbers). Every change of alignment is an edit (set_background), so it is undoable.
import { post, urls } from "../../lib/api.js";
import { $ } from "../../lib/dom.js";

export class Scan {
  constructor(p) {
    this.p = p;
    this.aligning = null;
    $("#scan-form").addEventListener("submit", (e) => { e.preventDefault(); this.upload(); });
    $("#scan-hide").addEventListener("change", (e) => {
      if (p.view.background) { p.view.background.visible = !e.target.checked; p.view.request(); }
    });
    $("#scan-opacity").addEventListener("input", (e) => {
      const bg = p.view.background;
      if (bg) { bg.entry = { ...bg.entry, opacity: Number(e.target.value) }; p.view.request(); }
    });
    $("#scan-opacity").addEventListener("change", () => this.save());
    $("#scan-apply").addEventListener("click", () => this.save());
    $("#scan-align").addEventListener("click", () => this.startAlign());
    $("#scan-align-done").addEventListener("click", () => this.finishAlign());
    $("#scan-remove").addEventListener("click", () => p.commit([{ op: "set_background", background: null }], "remove scan"));
  }

  // The map's background entry onto the view and the fields.
  load() {
    const p = this.p, entry = p.model.background, view = p.view;
    $("#scan-fields").hidden = !entry;
    if (!entry) { view.background = null; view.request(); return; }
    const src = `${urls.background(p.mapId)}?image=${encodeURIComponent(entry.image)}`;
    if (!view.background || view.background.src !== src) {
      const image = new Image();
      image.addEventListener("load", () => { if (view.background?.image === image) $("#scan-message").textContent = ""; view.request(); });
      image.addEventListener("error", () => {
        if (view.background?.image !== image) return;
        const message = $("#scan-message");
        const fix = document.querySelector("#scan-form") ? ": upload it here, or remove the scan" : "";
        message.textContent = `The board scan “${entry.image}” is not on the server${fix}. The map is drawn without it.`;
        message.dataset.error = "1";
        $("#scan-panel").setAttribute("open", "");
      });
      image.src = src;
      view.background = { image, src, entry, visible: !$("#scan-hide").checked };
    }
    view.background.entry = entry;
    for (const key of ["hex_px", "rotation", "opacity"]) $(`#scan-${key}`).value = entry[key];
    $("#scan-origin-x").value = entry.origin[0]; $("#scan-origin-y").value = entry.origin[1];
    view.request();
  }

  async upload() {
    const p = this.p, input = $("#scan-file"), message = $("#scan-message");
    if (!input.files.length) { message.textContent = "Choose a PNG or JPEG scan first."; return; }
    const form = new FormData();
    form.append("image", input.files[0]);
    await p.editor.waitIdle();
    form.append("revision", p.editor.revision);
    message.textContent = "Uploading…";
    delete message.dataset.error;
    try {
      const answer = await post(urls.background(p.mapId), form);
      message.textContent = `Scan uploaded (${answer.size[0]} × ${answer.size[1]} px). Align it: drag the two handles onto the hexes' centres.`;
      await p.editor.poll();
      input.value = "";
    } catch (err) {
      message.textContent = `Not uploaded: ${err.message}`;
      message.dataset.error = "1";
    }
  }

  fromFields() {
    const v = (id) => Number($(id).value);
    return { image: this.p.model.background.image, origin: [v("#scan-origin-x"), v("#scan-origin-y")],
             hex_px: v("#scan-hex_px"), rotation: v("#scan-rotation"), opacity: v("#scan-opacity") };
  }

  save(entry = null) {
    if (!this.p.model.background) return;
    this.p.commit([{ op: "set_background", background: entry || this.fromFields() }], "align scan");
  }

  // Two handles, each on a known hex's centre: drag each onto where that hex's centre is on the scan.
  startAlign() {
    const p = this.p, g = p.grid, parse = (id, fallback) => { try { return g.parseLabel($(id).value); } catch { return fallback; } };
    const a = parse("#align-a", [0, 0]), b = parse("#align-b", [g.columns - 1, g.rows - 1]);
    this.aligning = { handles: [{ hex: a, at: g.centre(...a) }, { hex: b, at: g.centre(...b) }], dragging: null };
    $("#scan-align-done").hidden = false;
    p.say("Drag each handle onto its hex's centre on the scan, then press Done");
    p.view.request();
  }

  // Pointer events while aligning: true when a handle took the event.
  down(e) {
    if (!this.aligning) return false;
    const [x, y] = this.p.mapPoint(e), near = 14 / this.p.view.scale;
    const h = this.aligning.handles.find((k) => Math.hypot(k.at[0] - x, k.at[1] - y) < near);
    if (!h) return false;
    this.aligning.dragging = h;
    return true;
  }

  move(e) {
    if (!this.aligning || !this.aligning.dragging) return false;
    this.aligning.dragging.at = this.p.mapPoint(e);
    this.p.view.request();
    return true;
  }

  up() {
    if (!this.aligning || !this.aligning.dragging) return false;
    this.aligning.dragging = null;
    this.p.view.request();
    return true;
  }

  draw(ctx, view) {
    if (!this.aligning) return;
    for (const [i, h] of this.aligning.handles.entries()) {
      const [x, y] = h.at, r = 10 / view.scale;
      ctx.beginPath(); ctx.arc(x, y, r, 0, 7); ctx.fillStyle = "rgba(255,255,255,.7)"; ctx.fill();
      ctx.lineWidth = 3 / view.scale; ctx.strokeStyle = i ? "#CC79A7" : "#009E73"; ctx.stroke();
      ctx.beginPath(); ctx.moveTo(x - r, y); ctx.lineTo(x + r, y); ctx.moveTo(x, y - r); ctx.lineTo(x, y + r); ctx.stroke();
      ctx.font = `bold ${12 / view.scale}px system-ui`; ctx.fillStyle = "#000"; ctx.fillText(this.p.grid.label(...h.hex), x + r, y - r);
    }
  }

  // The scan pixel under a map point, by the current alignment.
  imagePixel(entry, [x, y]) {
    const [c0x, c0y] = this.p.grid.centre(0, 0), t = ((entry.rotation || 0) * Math.PI) / 180;
    const dx = x - c0x, dy = y - c0y;
    return [entry.origin[0] + entry.hex_px * (Math.cos(t) * dx - Math.sin(t) * dy),
            entry.origin[1] + entry.hex_px * (Math.sin(t) * dx + Math.cos(t) * dy)];
  }

  finishAlign() {
    const p = this.p, entry = p.model.background, al = this.aligning;
    this.aligning = null;
    $("#scan-align-done").hidden = true;
    p.say("scan aligned");
    if (!entry || !al) return;
    const [A, B] = al.handles, g = p.grid;
    const Ia = this.imagePixel(entry, A.at), Ib = this.imagePixel(entry, B.at);
    const Pa = g.centre(...A.hex), Pb = g.centre(...B.hex), [c0x, c0y] = g.centre(0, 0);
    const dP = [Pb[0] - Pa[0], Pb[1] - Pa[1]], dI = [Ib[0] - Ia[0], Ib[1] - Ia[1]];
    const hexPx = Math.hypot(...dI) / Math.hypot(...dP);
    if (!isFinite(hexPx) || hexPx <= 0) { p.say("the two hexes must differ"); return; }
    const t = Math.atan2(dI[1], dI[0]) - Math.atan2(dP[1], dP[0]);
    const ax = Pa[0] - c0x, ay = Pa[1] - c0y;
    const origin = [Ia[0] - hexPx * (Math.cos(t) * ax - Math.sin(t) * ay), Ia[1] - hexPx * (Math.sin(t) * ax + Math.cos(t) * ay)];
    let deg = (t * 180) / Math.PI;
    if (deg > 180) deg -= 360;
    if (deg < -180) deg += 360;
    const r3 = (v) => Math.round(v * 1000) / 1000;
    this.save({ image: entry.image, origin: origin.map(r3), hex_px: r3(hexPx), rotation: r3(deg), opacity: entry.opacity ?? 0.5 });
  }
}
