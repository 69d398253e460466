// @ts-check
// A scenario document and its edit operations, mirroring engine/scenarios/edits.py: each operation names a
// place by its JSON path ("sides[0].oob[2].count") and sets, inserts, removes or moves there. apply() changes
// the document in place and gives the inverse operations (undo is a new edit of them). The server also reads the
// edited file whole again (its checks are not repeated here): it may refuse what applies here, and its answer
// is the truth. `scenarioKind` at the end is what the edit session (session.js) needs to edit a scenario.

export const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
/** @type {(string | number)[]} */
const FIXED = ["format", "version"];
const STEP = /\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/y;

// ["sides", 0, "oob"] from "sides[0].oob" (engine/scenarios/edits.py parse_path); throws when it is not a path.
export function parsePath(path) {
  if (typeof path !== "string" || !path) throw new Error('expected a JSON path such as "sides[0].oob[2].count"');
  const steps = [];
  let at = 0;
  while (at < path.length) {
    STEP.lastIndex = at;
    const m = STEP.exec(path);
    if (!m || (at === 0 && path[0] === ".")) throw new Error(`cannot read the path ${path} at character ${at + 1}`);
    steps.push(m[1] !== undefined ? m[1] : Number(m[2]));
    at = STEP.lastIndex;
  }
  return steps;
}

// The path of steps, written as the server reads it.
export function formatPath(steps) {
  return steps.map((s, i) => (typeof s === "number" ? `[${s}]` : i ? `.${s}` : s)).join("");
}

const isList = Array.isArray;
const isObject = (v) => v !== null && typeof v === "object" && !isList(v);
const nothing = () => { throw new Error("nothing is there"); };

// Python's here[step] for a list or a dict: a missing index or key, or the wrong kind of step, is an error.
function step(here, s) {
  if (isList(here)) { if (typeof s !== "number" || s >= here.length) nothing(); return here[s]; }
  if (isObject(here)) { if (typeof s !== "string" || !(s in here)) nothing(); return here[s]; }
  return nothing();
}

// The container holding the last step, and that step (engine/scenarios/edits.py _walk).
function walk(data, steps) {
  let here = data;
  for (const s of steps.slice(0, -1)) here = step(here, s);
  const last = steps.at(-1);
  if ((isList(here) && typeof last !== "number") || (isObject(here) && typeof last !== "string") || !(isList(here) || isObject(here))) {
    throw new Error("wrong kind of step");
  }
  return [here, last];
}

function get(data, steps) { return steps.reduce(step, data); }

const index = (i, n) => Number.isInteger(i) && typeof i === "number" && i >= 0 && i <= n;

// One operation on the document; gives its inverse operations.
function run(data, op, steps) {
  const path = op.path;
  switch (op.op) {
    case "set": {
      const [here, last] = walk(data, steps);
      if (isList(here) && last >= here.length) nothing();
      const had = last in here, old = here[last];
      here[last] = clone(op.value);
      return had ? [{ op: "set", path, value: clone(old) }] : [{ op: "remove", path }];
    }
    case "insert": {
      const target = get(data, steps);
      if (!isList(target)) throw new Error("insert needs a list");
      const at = op.index === undefined ? target.length : op.index;
      if (!index(at, target.length)) throw new Error(`index must be from 0 to ${target.length}`);
      target.splice(at, 0, clone(op.value));
      return [{ op: "remove", path: formatPath([...steps, at]) }];
    }
    case "remove": {
      const [here, last] = walk(data, steps);
      const old = step(here, last);
      if (isList(here)) {
        here.splice(last, 1);
        return [{ op: "insert", path: formatPath(steps.slice(0, -1)), index: last, value: old }];
      }
      delete here[last];
      return [{ op: "set", path, value: old }];
    }
    case "move": {
      const target = get(data, steps);
      if (!isList(target)) throw new Error("move needs a list");
      const n = target.length - 1;
      if (!index(op.from, n) || !index(op.to, n)) throw new Error(`from and to must be from 0 to ${n}`);
      target.splice(op.to, 0, ...target.splice(op.from, 1));
      return [{ op: "move", path, from: op.to, to: op.from }];
    }
    default:
      throw new Error(`unknown operation ${op.op}`);
  }
}

const KEYS = { set: ["path", "value"], insert: ["path", "value", "index"], remove: ["path"], move: ["path", "from", "to"] };

export class ScenarioModel {
  constructor(document) {
    this.data = document;
    /** @type {((what: any) => void)[]} */
    this.listeners = [];
  }

  onChange(fn) { this.listeners.push(fn); }
  changed(what) { for (const fn of this.listeners) fn(what); }

  // Apply operations all or nothing: {inverse, touched}; an Error naming the operation when one cannot apply.
  apply(ops) {
    const work = clone(this.data), inverse = [];
    ops.forEach((op, i) => {
      const where = `operations[${i}]`;
      if (!op || !KEYS[op.op]) throw new Error(`${where}.op: expected an operation, one of set, insert, remove, move`);
      for (const k of Object.keys(op)) if (k !== "op" && !KEYS[op.op].includes(k)) throw new Error(`${where}.${k}: unknown key`);
      const steps = parsePath(op.path);
      if (FIXED.includes(steps[0])) throw new Error(`${where}.path: ${steps[0]} cannot be changed`);
      try {
        inverse.unshift(...run(work, op, steps));
      } catch (err) {
        throw new Error(`${where}.path: ${op.path}: ${err.message}`, { cause: err });
      }
    });
    this.data = work;
    this.changed({ all: true });
    return { inverse, touched: { all: true } };
  }

  assign(other) { this.data = clone(other.data); this.changed({ all: true }); }
  toDocument() { return clone(this.data); }
  valueAt(path) { try { return get(this.data, parsePath(path)); } catch { return undefined; } }
}

// -- what the edit session needs to know of a scenario ------------------------------------------------------

// A stroke's footprint is the paths it writes; a clash is one the server's copy changed too.
function footprint(model, ops) { return new Set(ops.map((op) => op.path)); }
function stateOf(model, path) { return JSON.stringify(model.valueAt(path) ?? null); }
function describeClash(theirs, mine, path) {
  return { where: path, theirs: stateOf(theirs, path), mine: stateOf(mine, path) };
}

export const scenarioKind = {
  name: "scenario",
  urls: {
    document: (id) => `/api/scenarios/${id}/`,
    edits: (id) => `/api/scenarios/${id}/edits/`,
    current: (id) => `/api/scenarios/${id}/`,   // small: the whole scenario is its own revision check
    restore: (id, n) => `/api/scenarios/${id}/revisions/${n}/restore/`,
    undo: (id) => `/api/scenarios/${id}/undo/`,
  },
  model: (document) => new ScenarioModel(clone(document)),
  footprint, stateOf, describeClash,
  // The server writes the file it read back (defaults filled in, colours lower-cased): after a save the
  // session takes the server's copy rather than trusting its own.
  refetchAfterSave: true,
};
