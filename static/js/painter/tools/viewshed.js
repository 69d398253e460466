// @ts-check
// Viewshed: click a hex; every hex of the map is shaded by what the observer there sees of it.
export const viewshed = {
  id: "viewshed", name: "Viewshed", key: "w", title: "Viewshed (W): click the observer's hex; every hex is shaded",
  down({ editor: p, hex: h }) {
    if (p.grid.contains(...h)) p.runViewshed(h);
  },
};
