// @ts-check
// The checks (a background job): how many errors and warnings, the derived figures, and each finding listed
// and outlined on the map; a click on one picks it out.
import { urls } from "../../lib/api.js";
import { $, el } from "../../lib/dom.js";
import { runJob } from "../../lib/jobs.js";

export async function runChecks(ed) {
  $("#checks-summary").textContent = "Checking…";
  try {
    const job = await runJob(urls.scenarioJob("checks", ed.id), undefined, (j) => ed.progress.show(j));
    ed.findings = job.result.findings;
    ed.activeFinding = null;
    const errors = ed.findings.filter((f) => f.severity === "error").length;
    $("#checks-summary").textContent = ed.findings.length
      ? `${errors} error${errors === 1 ? "" : "s"}, ${ed.findings.length - errors} warning${ed.findings.length - errors === 1 ? "" : "s"}`
      : "No problems found.";
    $("#checks-summary").append(el("div", { class: "muted", id: "checks-figures" }, ...summaryLines(job.result.summary, ed.doc)));
    const list = $("#findings");
    list.replaceChildren(...ed.findings.map((f) => el("li", { class: f.severity, "data-hex": f.hex || "", onclick: (e) => {
      ed.activeFinding = f;
      for (const li of list.children) li.classList.toggle("active", li === e.currentTarget);
      ed.view.request();
    } }, `${f.hex ? f.hex + ": " : ""}${f.message}`, el("span", { class: "muted" }, ` [${f.code}]`))));
    document.body.dataset.checks = String(ed.findings.length);
  } catch (err) {
    $("#checks-summary").textContent = `The checks could not run: ${err.message}`;
  }
  ed.view.request();
}

// The derived figures the checks give: units per side, OST casualty points, Assault points, the miniatures deck.
function summaryLines(summary, doc) {
  const lines = [];
  for (const side of doc.sides) {
    const s = summary.sides[side.id];
    if (!s) continue;
    let text = `${side.name}: ${s.units} units (${s.placed} placed, ${s.arriving} arriving)`;
    if (s.casualty_points !== undefined) text += `, ${s.casualty_points} casualty points`;
    if (s.points !== undefined) text += `, ${s.points} points`;
    if (s.deck) text += `, ${s.deck.total} cards = ${s.deck.platoons} platoons + ${s.deck.foos} FOO + ${s.deck.elite_commanders} elite PC + ${s.deck.company_commanders} CC`;
    lines.push(el("div", {}, text));
  }
  if (summary.deck_size !== undefined) lines.push(el("div", {}, `Activation deck: ${summary.deck_size} cards; 1 hex = ${summary.inches_per_hex}"`));
  return lines;
}
