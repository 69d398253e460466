// @ts-check
// How LOS results look on the map: a colour-blind-safe palette (Okabe & Ito) with a pattern for each answer,
// so no answer is told by hue alone; the patterns are the results' own, never a terrain's (a hindered hex must not
// read as a wheatfield: tests/engine/test_label_contrast.py). Results stay on screen for the revision they answer, marked stale after.
import { patternTile } from "./layers.js";

export const PALETTE = {
  clear: { colour: "#0072B2", pattern: null, dash: [], label: "clear" },
  hindered: { colour: "#E69F00", pattern: "zigzag", dash: [0.3, 0.15], label: "hindered" },
  blocked: { colour: "#D55E00", pattern: "crosshatch", dash: [0.08, 0.12], label: "blocked" },
  blind: { colour: "#000000", pattern: "plus", dash: [0.08, 0.12], label: "blind hex" },
};

const tiles = new Map();
export function resultFill(ctx, view, kind, alpha = 0.45) {
  const p = PALETTE[kind];
  ctx.globalAlpha = alpha; ctx.fillStyle = p.colour; ctx.fill();
  if (p.pattern) {
    const key = kind;
    if (!tiles.has(key)) tiles.set(key, ctx.createPattern(patternTile(p.pattern, "#000000", 10), "repeat"));
    const pat = tiles.get(key);
    pat.setTransform(new DOMMatrix().scale(1 / (view.scale * view.dpr)));
    ctx.globalAlpha = 0.5; ctx.fillStyle = pat; ctx.fill();
  }
  ctx.globalAlpha = 1;
}

// Heat colours for the analysis (viridis-like, readable by every kind of colour vision), 0..1.
const HEAT = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];
export function heat(t) {
  const x = Math.max(0, Math.min(0.9999, t)) * (HEAT.length - 1), i = Math.floor(x), f = x - i;
  const a = parseInt(HEAT[i].slice(1), 16), b = parseInt(HEAT[i + 1].slice(1), 16);
  const mix = (s) => Math.round(((a >> s) & 255) * (1 - f) + ((b >> s) & 255) * f);
  return `rgb(${mix(16)},${mix(8)},${mix(0)})`;
}

// A viewshed job's answer, packed (engine/los/packed.py): each distinct answer once, then per hex (hex i is column
// i / rows, row i % rows) a uint16 index into the answers and an int16 level, deflated and base64-encoded. Unpacked
// here as a Map of label -> answer, the shape the page draws. label(column, row) names a hex.
export async function unpackViewshed(result, label) {
  if (result.encoding !== "packed-1") return new Map(Object.entries(result.hexes));
  const bytes = Uint8Array.from(atob(result.hexes), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  const buffer = await new Response(stream).arrayBuffer();
  const n = result.count, rows = result.rows;
  if (buffer.byteLength !== 4 * n) throw new Error(`a packed viewshed of ${n} hexes holds ${buffer.byteLength} bytes`);
  const data = new DataView(buffer), hexes = new Map();
  for (let i = 0; i < n; i++) {
    const to = label(Math.floor(i / rows), i % rows);
    hexes.set(to, { from: result.from, to, from_level: result.level, to_level: data.getInt16(2 * (n + i), true),
                    ...result.answers[data.getUint16(2 * i, true)] });
  }
  return hexes;
}
