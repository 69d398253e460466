// @ts-check
// Analysis: the whole map's visibility as a heat map of how many hexes each hex sees (or is seen from).
export const analysis = {
  id: "analysis", name: "Analysis", key: "n",
  title: "Whole-map analysis (N): a heat map of how much each hex sees; click anywhere to run it",
  down({ editor }) { editor.runAnalysis(); },
};
