// @ts-check
// The one job progress bar: a <progress> and a message beside it, shown while a job runs, hidden after.

export class Progress {
  constructor(bar, message = null) { this.bar = bar; this.message = message; }

  // show(job): its progress and status; show(null): done, hide it.
  show(job) {
    const done = !job || job.status === "succeeded";
    this.bar.hidden = done;
    if (this.message) this.message.textContent = done ? "" : this.describe(job);
    if (done) return;
    this.bar.value = job.progress || 0;
    this.bar.title = this.describe(job);
  }

  describe(job) { return `${job.kind || "job"}: ${job.status}${job.message ? ", " + job.message : ""}`; }
  hide() { this.show(null); }
}
