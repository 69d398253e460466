// @ts-check
// The victory conditions of a side: the server's sentence, one item a line, and a builder that adds one more
// (combined with "and" or "or" with those already there).
import { el } from "../../lib/dom.js";
import { clone } from "../../documents/scenario.js";
import { EDGES, numberOrNull } from "../forms.js";

const KINDS = ["control", "vp", "casualties", "exit", "hold", "eliminate", "text"];

export function victoryBuilder(ed, i) {
  const side = ed.doc.sides[i], path = `sides[${i}].victory`, v = side.victory;
  const sentences = (ed.victory || {})[side.id];
  const box = el("div", { id: "victory" }, el("h3", {}, "Victory conditions"));
  if (!v) box.append(el("p", { class: "muted" }, "None yet."));
  else {
    // The sentence one item a line, as the card prints it, indented by level; each condition the outer "and" or
    // "or" combines (a line of depth 1, or the one condition) can be removed.
    let part = -1;
    (sentences ? sentences.lines : []).forEach(({ depth, text }) => {
      if (depth === 1) part += 1;
      const k = part, removable = ed.canEdit && (depth === 1 || !["and", "or"].includes(v.kind));
      box.append(el("div", { class: `sentence row depth-${Math.min(depth, 4)}` }, el("span", {}, text),
        removable ? el("button", { type: "button", class: "small", title: "Remove", onclick: () => ed.set(path, withoutPart(v, k), "remove a victory condition") }, "✕") : null));
    });
  }
  if (!ed.canEdit) return box;
  const form = el("div", { class: "fields", id: "victory-form" });
  const kind = el("select", { id: "victory-kind", onchange: () => fill() }, ...KINDS.map((k) => el("option", { value: k }, k)));
  const combine = el("select", { id: "victory-combine" }, el("option", { value: "and" }, "and"), el("option", { value: "or" }, "or"));
  const inputs = el("div", { class: "fields", id: "victory-inputs" });
  const objectives = ed.doc.objectives.map((o) => [o.id, `${o.name || o.id} (${o.hex})`]);
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
      case "exit": num("units"); num("vp"); add("edge", el("select", {}, el("option", { value: "" }, "—"), ...EDGES.map(([e, words]) => el("option", { value: e }, words))));
        add("hexes", el("input", { type: "text", placeholder: "A5, A6" })); num("by_turn"); break;
      case "hold": add("objective", el("select", {}, ...objectives.map(([id, t]) => el("option", { value: id }, t)))); num("turns"); num("by_turn"); break;
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
    ed.set(path, next, `victory: ${c.kind}`);
  };
  form.append(el("label", {}, "Kind ", kind));
  if (v) form.append(el("label", {}, "Combine with ", combine));
  box.append(form, inputs, el("button", { type: "button", id: "add-victory", onclick: addCondition }, "+ Condition"));
  return box;
}

function withoutPart(v, k) {
  if (!["and", "or"].includes(v.kind)) return null;
  const rest = v.conditions.filter((_, i) => i !== k);
  return rest.length === 1 ? rest[0] : { ...v, conditions: rest };
}
