// @ts-check
// The legend: a swatch per terrain and hexside feature of the ruleset, and the LOS results' palette.
import { $, el } from "../../lib/dom.js";
import { PALETTE, resultFill } from "../../canvas/results.js";

export function buildLegend(styles, hexTerrains, sideTerrains) {
  const list = $("#legend-list");
  const swatch = (t) => {
    const c = el("canvas", { width: 28, height: 20, "aria-hidden": "true" }), g = c.getContext("2d");
    const st = styles.style(t.id);
    if (t.layer === "hexside") {
      g.strokeStyle = st.stroke; g.lineWidth = Math.max(2, (st.stroke_width || 0.1) * 40); g.beginPath();
      g.moveTo(2, 10); g.lineTo(26, 10); g.stroke();
    } else {
      g.fillStyle = st.fill; g.fillRect(0, 0, 28, 20);
      const pat = styles.pattern(g, st, 8);
      if (pat) { g.fillStyle = pat; g.fillRect(0, 0, 28, 20); }
    }
    return c;
  };
  for (const t of [...hexTerrains, ...sideTerrains]) {
    list.append(el("li", { title: `${t.name || t.id}: LOS ${t.los}${t.rule ? ", " + t.rule : ""}` }, swatch(t),
                   el("span", {}, t.name || t.id)));
  }
  const results = $("#results-legend");
  for (const [k, p] of Object.entries(PALETTE)) {
    const c = el("canvas", { width: 28, height: 20, "aria-hidden": "true" }), g = c.getContext("2d");
    g.beginPath(); g.rect(0, 0, 28, 20);
    resultFill(g, { scale: 1, dpr: 1 }, k, 0.6);
    results.append(el("li", {}, c, el("span", {}, p.label)));
  }
}
