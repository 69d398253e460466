// @ts-check
// Setup zones and, where the game's capabilities say its sides hold one, the perimeter (TOCS): drag over hexes to
// give them to the side; a drag that starts on one of the side's own hexes takes them away instead. One edit per
// drag.

function paintTool(spec) {
  return {
    ...spec,
    /** @type {{erase: boolean, hexes: Set<string>} | null} */
    pending: null,
    /** @param {import("../../canvas/tools.js").ToolContext} at */
    down({ editor: ed, hex }) {
      if (!ed.side) { ed.banner("Add a side first (+ Side)."); return; }
      const erase = this.own(ed).includes(ed.label(...hex));
      this.pending = { erase, hexes: new Set([hex.join(",")]) };
      ed.view.request();
    },
    /** @param {import("../../canvas/tools.js").ToolContext} at */
    move({ editor: ed, hex }) {
      if (!this.pending) return;
      this.pending.hexes.add(hex.join(","));
      ed.view.request();
    },
    /** @param {import("../../canvas/tools.js").ToolContext} at */
    up({ editor: ed }) {
      const pending = this.pending;
      this.pending = null;
      if (!pending) return;
      const labels = [...pending.hexes].map((k) => ed.label(...k.split(",").map(Number)));
      this.commit(ed, labels, pending.erase);
    },
    cancel() { this.pending = null; },
    /** @param {CanvasRenderingContext2D} ctx @param {import("../../canvas/tools.js").ToolContext} at */
    preview(ctx, { editor: ed }) {
      if (!this.pending) return;
      ctx.globalAlpha = 0.4;
      ed.view.fillHexes(ctx, [...this.pending.hexes].map((k) => k.split(",").map(Number)),
                        (c) => { c.fillStyle = this.pending.erase ? "#ffffff" : ed.side.colour; c.fill(); });
      ctx.globalAlpha = 1;
    },
  };
}

const plural = (n) => `${n} hex${n > 1 ? "es" : ""}`;

export const zone = paintTool({
  id: "zone", name: "Setup zone", edit: true,
  note: "Click or drag to paint the side's setup zone; start on a zone hex to erase.",
  own: (ed) => ed.side.setup_zone,
  commit(ed, labels, erase) {
    const zoneHexes = new Set(ed.side.setup_zone);
    for (const l of labels) { if (erase) zoneHexes.delete(l); else zoneHexes.add(l); }
    ed.set(`sides[${ed.sideIndex}].setup_zone`, [...zoneHexes], `${erase ? "erase" : "paint"} ${plural(labels.length)} of the setup zone`);
  },
});

export const perimeter = paintTool({
  id: "perimeter", name: "Perimeter", edit: true, needs: "perimeter",
  note: "Click or drag to give hexes to the side; start on one of its hexes to make them no man's land.",
  own: (ed) => (ed.doc.perimeter || {})[ed.side.id] || [],
  commit(ed, labels, erase) {
    const out = {};
    for (const side of ed.doc.sides) out[side.id] = ((ed.doc.perimeter || {})[side.id] || []).filter((h) => !labels.includes(h));
    if (!erase) out[ed.side.id].push(...labels);
    ed.set("perimeter", out, `perimeter: ${plural(labels.length)} ${erase ? "to no man's land" : "to " + ed.side.name}`);
  },
});
