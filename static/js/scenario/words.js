// @ts-check
// A scenario path in a designer's words, for the label of a change (the Undo button's tooltip, the banner of a
// refused change): "sides[0].oob[2].count" -> "the count of Rifle Squad (German OOB line 3)", "sides[1].name" ->
// "the name of German". The short cousin of engine/scenarios/naming.py, which words the server's messages.

const NOUNS = { maps: "map", placements: "placement", reinforcements: "reinforcement", units: "unit",
                markers: "marker", objectives: "objective", special_rules: "special rule", setup_zone: "hex",
                conditions: "condition", hexes: "hex" };

// A field as the designer says it, where its key does not ("victory" -> "victory condition"), as naming.py does.
const FIELDS = { victory: "victory condition", fields: "side values", sets_up_first: "who sets up first",
                 moves_first: "who moves first", off_map: "off-map flag", dummy: "dummy flag" };

export function words(path, doc) {
  let owner = null, node = doc, side = null;
  const fields = [];
  for (const [, key, index] of String(path).matchAll(/([A-Za-z0-9_-]+)(?:\[(\d+)\])?/g)) {
    node = node && typeof node === "object" ? node[key] : undefined;
    if (index === undefined) { fields.push(FIELDS[key] || key.replace(/_/g, " ")); continue; }
    const n = Number(index);
    node = Array.isArray(node) ? node[n] : undefined;
    const entry = node && typeof node === "object" ? node : {};
    const of = fields.length || owner ? ` of ${phrase(owner, fields)}` : "";
    if (key === "sides") owner = entry.name || `side ${n + 1}`;
    else if (key === "oob" && side) owner = entry.unit ? `${entry.unit} (${owner} OOB line ${n + 1})` : `OOB line ${n + 1} of ${owner}`;
    else owner = `${NOUNS[key] || key.replace(/_/g, " ")} ${n + 1}${of}`;
    side = key === "sides" ? entry : null;
    fields.length = 0;
  }
  return phrase(owner, fields) || "the scenario";
}

function phrase(owner, fields) {
  const said = fields.map((f) => (f.startsWith("who ") ? f : `the ${f}`)).reverse().join(" of ");
  return owner ? (said ? `${said} of ${owner}` : owner) : said;
}
