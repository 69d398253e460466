// @ts-check
// Levels and storeys: set a level, raise or lower by one step, or set a building's storeys, on the hexes
// within the brush radius of the pointer's path.
import { dragStroke, groupBy, outlineHexes } from "./common.js";

export const level = {
  id: "level", name: "Level", key: "l", edit: true,
  title: "Set, raise or lower the ground level, or set storeys (L). Mode and value in the tool options.",
  ...dragStroke,
  up({ editor: p }) {
    const stroke = this.stroke; this.stroke = null;
    if (!stroke) return;
    const g = p.grid, hexes = stroke.hexes.filter(([c, r]) => g.contains(c, r)), o = p.options;
    if (!hexes.length) return;
    const labels = (hs) => hs.map(([c, r]) => g.label(c, r));
    if (o.levelMode === "storeys") {
      p.commit([{ op: "set_storeys", hexes: labels(hexes), storeys: Number(o.storeys) }], `storeys ${o.storeys}`);
      return;
    }
    if (o.levelMode === "set") {
      p.commit([{ op: "set_level", hexes: labels(hexes), level: Number(o.level) }], `level ${o.level}`);
      return;
    }
    const r = p.ruleset || {}, step = r.level_step || 1, dir = o.levelMode === "raise" ? 1 : -1;
    const lo = r.level_min ?? -Infinity, hi = r.level_max ?? Infinity;
    const ops = groupBy(hexes, ([c, rr]) => Math.max(lo, Math.min(hi, p.model.cell(c, rr).level + dir * step)))
      .map(({ value, hexes: hs }) => ({ op: "set_level", hexes: labels(hs), level: value }));
    p.commit(ops, o.levelMode);
  },
  preview(ctx, { view }) { if (this.stroke) outlineHexes(ctx, view, this.stroke.hexes, "#8a4b08", "rgba(138,75,8,.15)"); },
};
