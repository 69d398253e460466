// @ts-check
// Hex grid geometry: the browser's copy of engine/hexgrid.py (offset/axial, labels, sides, centres, the hex and
// the hexside under a point). Map space: circumradius 1, x right, y down, as docs/map-format.md says.
// Checked in the browser against the Python module by tests/browser/test_geometry.py.

export const SQRT3 = Math.sqrt(3);
export const SIDES = { flat: ["N", "NE", "SE", "S", "SW", "NW"], pointy: ["NE", "E", "SE", "SW", "W", "NW"] };
const AXIAL_STEPS = {
  flat: [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]],
  pointy: [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]],
};
const FIRST_CORNER_ANGLE = { flat: 240, pointy: 270 };

// Python's floor division and modulo, which the offset formulas rely on for negative columns.
const fdiv = (a, b) => Math.floor(a / b);
const odd = (n) => ((n % 2) + 2) % 2 === 1;

export function columnLetters(index) {
  return String.fromCharCode(65 + (index % 26)).repeat(Math.floor(index / 26) + 1);
}

export function columnIndex(letters) {
  const up = letters.toUpperCase();
  if (!/^[A-Z]+$/.test(up) || new Set(up).size !== 1) throw new Error(`${letters} is not a column name`);
  return (up.length - 1) * 26 + up.charCodeAt(0) - 65;
}

export function rotateAxial(dq, dr, steps) {
  let x = dq, y = dr, z = -dq - dr;
  for (let i = 0; i < (((steps % 6) + 6) % 6); i++) [x, y, z] = [-y, -z, -x];
  return [x, y];
}

export function cubeRound(qf, rf) {
  const sf = -qf - rf;
  let q = pyRound(qf), r = pyRound(rf);
  const s = pyRound(sf);
  const dq = Math.abs(q - qf), dr = Math.abs(r - rf), ds = Math.abs(s - sf);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return [q, r];
}

// Python rounds halves to even; Math.round rounds them up. Points exactly between hexes must agree.
function pyRound(x) {
  const f = Math.floor(x), d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

export class Grid {
  constructor({ orientation = "flat", columns = 10, rows = 10, stagger = "even", labels = "letter-number",
                hex_metres = 50 } = {}) {
    /** "flat" or "pointy" */
    this.orientation = orientation;
    this.columns = columns;
    this.rows = rows;
    /** "even" or "odd": which columns (rows, pointy) are shifted */
    this.stagger = stagger;
    /** "letter-number", "xx.yy" or "xxyy" */
    this.labels = labels;
    this.hex_metres = hex_metres;
    this.flat = orientation === "flat";
    this.sides = SIDES[orientation];
    this.steps = AXIAL_STEPS[orientation];
    this.digits = Math.max(columns, rows) > 99 ? 3 : 2;
  }

  get size() { return this.columns * this.rows; }
  contains(col, row) { return col >= 0 && col < this.columns && row >= 0 && row < this.rows; }
  shifted(line) { return this.stagger === "odd" ? odd(line) : !odd(line); }
  key(col, row) { return col + "," + row; }

  *hexes() {
    for (let col = 0; col < this.columns; col++) for (let row = 0; row < this.rows; row++) yield [col, row];
  }

  toAxial(col, row) {
    const b = this.stagger === "odd" ? -1 : 1;
    if (this.flat) return [col, row - fdiv(col + b * (odd(col) ? 1 : 0), 2)];
    return [col - fdiv(row + b * (odd(row) ? 1 : 0), 2), row];
  }

  fromAxial(q, r) {
    const b = this.stagger === "odd" ? -1 : 1;
    if (this.flat) return [q, r + fdiv(q + b * (odd(q) ? 1 : 0), 2)];
    return [q + fdiv(r + b * (odd(r) ? 1 : 0), 2), r];
  }

  label(col, row) {
    if (this.labels === "letter-number") return columnLetters(col) + (row + 1);
    const pad = (n) => String(n).padStart(this.digits, "0");
    return pad(col + 1) + (this.labels === "xx.yy" ? "." : "") + pad(row + 1);
  }

  parseLabel(text) {
    text = String(text).trim();
    let col, row, m;
    if (this.labels === "letter-number") {
      m = /^([A-Za-z]+)(\d+)$/.exec(text);
      if (!m) throw new Error(`${text} is not a letter-number hex label such as C4`);
      col = columnIndex(m[1]); row = Number(m[2]) - 1;
    } else if (this.labels === "xx.yy") {
      m = /^(\d+)\.(\d+)$/.exec(text);
      if (!m) throw new Error(`${text} is not an xx.yy hex label such as 11.05`);
      col = Number(m[1]) - 1; row = Number(m[2]) - 1;
    } else {
      if (!/^\d+$/.test(text) || text.length !== 2 * this.digits) throw new Error(`${text} is not an xxyy label`);
      col = Number(text.slice(0, this.digits)) - 1; row = Number(text.slice(this.digits)) - 1;
    }
    if (!this.contains(col, row)) throw new Error(`hex ${text} is off the map`);
    return [col, row];
  }

  parseHex(value) { return Array.isArray(value) ? [value[0], value[1]] : this.parseLabel(value); }

  sideIndex(side) { return typeof side === "number" ? side : this.sides.indexOf(String(side).toUpperCase()); }

  step(col, row, side, distance = 1) {
    const [dq, dr] = this.steps[this.sideIndex(side)];
    const [q, r] = this.toAxial(col, row);
    return this.fromAxial(q + dq * distance, r + dr * distance);
  }

  neighbours(col, row) {
    const out = [];
    for (let i = 0; i < 6; i++) {
      const n = this.step(col, row, i);
      if (this.contains(n[0], n[1])) out.push(n);
    }
    return out;
  }

  distance(a, b) {
    const [qa, ra] = this.toAxial(a[0], a[1]), [qb, rb] = this.toAxial(b[0], b[1]);
    const dq = qb - qa, dr = rb - ra;
    return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
  }

  // Every hex within `radius` steps of a hex, on the map.
  within(col, row, radius) {
    const [q0, r0] = this.toAxial(col, row), out = [];
    for (let dq = -radius; dq <= radius; dq++) {
      for (let dr = Math.max(-radius, -dq - radius); dr <= Math.min(radius, -dq + radius); dr++) {
        const h = this.fromAxial(q0 + dq, r0 + dr);
        if (this.contains(h[0], h[1])) out.push(h);
      }
    }
    return out;
  }

  // Canonical identity [col, row, side 0-2] of an edge, the same named from either hex.
  hexside(col, row, side) {
    const i = this.sideIndex(side);
    if (i < 3) return [col, row, i];
    const [c, r] = this.step(col, row, i);
    return [c, r, i - 3];
  }

  // A canonical hexside named from a hex on the map: [col, row, side name].
  hexsideName([col, row, i]) {
    if (this.contains(col, row)) return [col, row, this.sides[i]];
    const [c, r] = this.step(col, row, i);
    return [c, r, this.sides[i + 3]];
  }

  centre(col, row) {
    if (this.flat) return [1.5 * col, SQRT3 * (row + (this.shifted(col) ? 0.5 : 0))];
    return [SQRT3 * (col + (this.shifted(row) ? 0.5 : 0)), 1.5 * row];
  }

  corners(col, row) {
    const [cx, cy] = this.centre(col, row), first = FIRST_CORNER_ANGLE[this.orientation], out = [];
    for (let i = 0; i < 6; i++) {
      const a = ((first + 60 * i) * Math.PI) / 180;
      out.push([cx + Math.cos(a), cy + Math.sin(a)]);
    }
    return out;
  }

  sideEndpoints(col, row, side) {
    const i = this.sideIndex(side), c = this.corners(col, row);
    return [c[i], c[(i + 1) % 6]];
  }

  extent() {
    const xs = [], ys = [], C = this.columns, R = this.rows;
    const probe = [[0, 0], [0, R - 1], [C - 1, 0], [C - 1, R - 1], [1 % C, 0], [1 % C, R - 1], [0, 1 % R],
                   [C - 1, 1 % R]];
    for (const [c, r] of probe) for (const [x, y] of this.corners(c, r)) { xs.push(x); ys.push(y); }
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }

  // The offset hex whose centre is nearest a map-space point (on the map or not).
  hexAt(x, y) {
    let q0, r0;
    if (this.flat) {
      q0 = x / 1.5;
      const k = this.centre(...this.fromAxial(0, 0))[1];
      r0 = (y - k) / SQRT3 - q0 / 2;
    } else {
      const k = this.centre(...this.fromAxial(0, 0))[0];
      r0 = y / 1.5;
      q0 = (x - k) / SQRT3 - r0 / 2;
    }
    const [q, r] = cubeRound(q0, r0);
    return this.fromAxial(q, r);
  }

  // The side index of the hex under a point whose middle is nearest it, and that hex.
  sideAt(x, y) {
    const [col, row] = this.hexAt(x, y), c = this.corners(col, row);
    let best = 0, bestD = Infinity;
    for (let i = 0; i < 6; i++) {
      const a = c[i], b = c[(i + 1) % 6];
      const d = ((a[0] + b[0]) / 2 - x) ** 2 + ((a[1] + b[1]) / 2 - y) ** 2;
      if (d < bestD) { best = i; bestD = d; }
    }
    return [col, row, best];
  }

  // The canonical hexside nearest a map-space point (engine/hexgrid.py Grid.hexside_at).
  hexsideAt(x, y) { return this.hexside(...this.sideAt(x, y)); }
}
