// @ts-check
// The map's LOS examples (extensions.los_examples, docs/map-format.md): the designer keeps an LOS answer as an
// example with a note; after every saved edit the examples are answered again (a background job) and the panel
// says which examples the edit changed, beside each example's state.
import { urls } from "../../lib/api.js";
import { $, el } from "../../lib/dom.js";
import { runJob } from "../../lib/jobs.js";

export class Examples {
  constructor(p) {
    this.p = p;
    this.last = null;   // {revision, got: Map number -> outcome} of the last run
    $("#keep-example").addEventListener("click", () => this.keep());
    p.editor.on("saved", () => this.run());
    this.render([]);
    if (p.model.losExamples.length) this.run();
  }

  keep() {
    const p = this.p, a = p.sight.answer;
    if (!a || !p.canEdit) return;
    const hindrances = a.result === "hindered" ? a.hindrances : null;
    const kept = { from: a.from, to: a.to, from_level: p.sight.fromLevel === "" ? null : a.from_level,
                   to_level: p.sight.toLevel === "" ? null : a.to_level, expect: a.blind ? "blind" : a.result,
                   hindrances, note: $("#example-note").value.trim() };
    p.commit([{ op: "set_los_examples", examples: [...p.model.losExamples, kept] }], "keep an LOS example");
    $("#example-note").value = "";
  }

  remove(index) {
    const kept = this.p.model.losExamples.filter((_, i) => i !== index);
    this.p.commit([{ op: "set_los_examples", examples: kept }], "remove an LOS example");
  }

  async run() {
    const p = this.p, revision = p.editor.revision;
    if (!p.model.losExamples.length) { this.render([]); this.last = null; return; }
    $("#examples-state").textContent = "Answering the LOS examples again…";
    try {
      const job = await runJob(urls.job("los-examples", p.mapId), {}, () => {});
      const rows = job.result.examples, got = new Map(rows.map((r) => [r.number, r.got]));
      const changed = this.last ? rows.filter((r) => this.last.got.has(r.number) && this.last.got.get(r.number) !== r.got) : [];
      this.render(rows);
      const failing = rows.length - job.result.holding;
      $("#examples-state").textContent = `${job.result.holding} of ${rows.length} examples hold (revision ${revision})`
        + (failing ? `; ${failing} no longer give the answer kept.` : ".")
        + (changed.length ? ` This edit changed ${changed.map((r) => `example ${r.number} (${r.case.from} to ${r.case.to}: `
          + `${this.last.got.get(r.number)} → ${r.got})`).join(", ")}.` : "");
      document.body.dataset.examples = `${job.result.holding}/${rows.length}`;
      this.last = { revision, got };
    } catch (err) {
      $("#examples-state").textContent = `The examples could not be answered: ${err.message}`;
    }
  }

  render(rows) {
    const p = this.p, kept = p.model.losExamples;
    const list = kept.map((c, i) => {
      const row = rows.find((r) => r.number === i + 1);
      const state = row ? (row.holds ? "holds" : "changed") : "…";
      return el("li", { class: `example ${state}` }, `${i + 1}. ${row ? row.sentence : `${c.from} to ${c.to}: ${c.expect}`} `,
        p.canEdit ? el("button", { type: "button", class: "small", onclick: () => this.remove(i) }, "Remove") : "");
    });
    $("#examples-list").replaceChildren(...list);
    if (!kept.length) $("#examples-state").textContent = "No LOS examples kept yet: ask a line, then keep it.";
  }
}
