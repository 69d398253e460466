// @ts-check
// Picker: the clicked hex's terrain and level become the brush's and the level tool's.
export const picker = {
  id: "picker", name: "Picker", key: "i", title: "Pick terrain and level from a hex into the brush (I)",
  down({ editor: p, hex: h }) {
    if (!p.grid.contains(...h)) return;
    const cell = p.model.resolvedCell(...h);
    p.setOptions({ terrain: cell.terrain[cell.terrain.length - 1], level: cell.level });
    p.say(`picked ${cell.terrain.join("+")}, level ${cell.level} from ${p.grid.label(...h)}`);
  },
};
