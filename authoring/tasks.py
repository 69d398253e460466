"""The Celery tasks of scenario jobs: the checks, and the sight lines between the sides.

A job computes for the scenario content it was asked about (``parameters["content_hash"]``): the document
comes from the scenario if unchanged, else from the revision with that hash. The sight lines run on the LOS
engine's batch path (numpy arrays of observer/target pairs), so a side's setup zone against the whole map is
one call, not a loop over pairs in Python.
"""


from celery import shared_task

from authoring import scenario_maps
from authoring.models import Scenario
from engine.exports import kit, vassal, vassal_scenario
from engine.scenarios import cards, victory, visibility
from engine.scenarios import checks as rule_checks
from engine.scenarios.cards import vectormap
from engine.scenarios.cards.los_examples import los_examples_pdf
from engine.scenarios.sightlines import sight_lines_of
from jobs import runner
from jobs.runner import JobError, JobTask


@shared_task(base=JobTask, bind=True, name="authoring.scenario_checks")
def scenario_checks(self, job_id):
    runner.run(self, job_id, answer_checks)


@shared_task(base=JobTask, bind=True, name="authoring.sight_lines")
def sight_lines(self, job_id):
    runner.run(self, job_id, answer_sight_lines)


def doc_for(job):
    """The ScenarioDoc with the job's content hash (the scenario's own if unchanged, else from its history), on
    the maps the job was asked about (``parameters["maps"]``: ids and content hashes, as its requester could read
    them), read here and not on the web process."""
    parameters = job.parameters
    try:
        scenario = Scenario.objects.get(pk=parameters["scenario"])
    except Scenario.DoesNotExist:
        raise JobError("the scenario was deleted") from None
    document = scenario.content_at(parameters["content_hash"])
    if document is None:
        raise JobError("the scenario no longer holds the content this job was asked about")
    if "maps" not in parameters:
        raise JobError("the job was asked before scenarios' maps were pinned to their jobs; ask again")
    try:
        doc = rule_checks.scenariofile.parse(document, scenario_maps.pinned_lookup(parameters["maps"],
                                                                                   job.requested_by))
    except rule_checks.scenariofile.ScenarioFormatError as exc:
        raise JobError(f"the scenario no longer reads: {exc}") from None
    # what the job's reader may see of it, read whole first (a job made before jobs carried sides: the owner's)
    return rule_checks.scenariofile.ScenarioDoc(data=visibility.view(doc.data, parameters.get("sides", visibility.ALL)),
                                                maps=doc.maps)


def answer_checks(job):
    return checks_result(doc_for(job))


def checks_result(doc):
    """What the checks job stores, and what `validate_scenario --json` prints per file (findings first). On a
    reader's view (visibility.view) the findings about what was withheld from them are left out."""
    withheld = visibility.withheld_paths(doc.data)
    findings = [f for f in rule_checks.check(doc) if not visibility.about_withheld(f.path, withheld)]
    return {"ok": not any(f.severity == "error" for f in findings),
            "findings": [f.as_dict() for f in findings],
            "summary": rule_checks.summary(doc),
            "victory": victory.sentences_for(doc)}


def answer_sight_lines(job):
    return sight_lines_of(doc_for(job), progress=lambda p, m: runner.report(job, p, m))


# -- exports: the card PDF and the scenario's map PNG (a map's own print is maps.tasks.export) ------------

@shared_task(base=JobTask, bind=True, name="authoring.export")
def export(self, job_id):
    runner.run(self, job_id, answer_export)


def answer_export(job):
    """An export job's file: a scenario's card sheet (PDF), its map (PNG) or its VASSAL module, public or a side's
    (from the requester's view, so a side they do not hold is never in it). The same request on the same
    content is the same job (dispatch's request key), so it is drawn once."""
    parameters = job.parameters
    report = lambda progress, message: runner.report(job, progress, message)  # noqa: E731
    doc = doc_for(job)
    if parameters["format"] == "kit":
        content = kit.kit_zip(doc, parameters["sides"], paper=parameters["paper"], hex_mm=parameters["hex_mm"],
                              counter_size=parameters["counter_size"], offset=tuple(parameters["offset"]),
                              map_layer=parameters["map_layer"], progress=report)
        held = "" if parameters["sides"] == visibility.ALL else "-" + "-".join(parameters["sides"])
        name = f"{cards.safe_name(doc.data['title'])}-kit{held}.zip"
        return runner.Outcome({"filename": name, "bytes": len(content), "sides": parameters["sides"]},
                              file=(name, content))
    if parameters["format"] == "vassal":
        report(10, "drawing the board and the counters")
        side = parameters.get("side")
        try:
            content = vassal_scenario.scenario_module(doc, side=side, hex_mm=parameters["hex_mm"],
                                                      dpi=parameters["dpi"])
        except vassal.ModuleError as exc:
            raise JobError(f"{exc.path}: {exc}") from None
        name = cards.sheet_filename(doc, side or "card", "vmod")
        return runner.Outcome({"filename": name, "bytes": len(content), "side": side}, file=(name, content))
    if parameters["format"] == "los-examples":
        content = los_examples_pdf(doc, parameters.get("paper", "a4"))
        name = cards.sheet_filename(doc, "card", "los-examples.pdf")
        return runner.Outcome({"filename": name, "bytes": len(content)}, file=(name, content))
    report(10, "drawing the card" if parameters["format"] == "pdf" else "drawing the map")
    sheet = cards.sheet_name(parameters.get("sheet"))
    if parameters["format"] == "pdf":
        content = cards.card_pdf(doc, parameters.get("paper", "a4"), sheet)
        name = cards.sheet_filename(doc, sheet, "pdf")
    elif parameters["format"] in ("svg", "map-pdf"):
        kind = "svg" if parameters["format"] == "svg" else "pdf"
        content = vectormap.scenario_map_vector(doc, sheet, parameters["hex_mm"], kind)
        name = cards.sheet_filename(doc, sheet, f"map.{kind}")
    else:
        content = cards.scenario_map_png(doc, sheet, parameters["dpi"], parameters["hex_mm"])
        name = cards.sheet_filename(doc, sheet, "png")
    return runner.Outcome({"filename": name, "bytes": len(content), "sheet": sheet}, file=(name, content))
