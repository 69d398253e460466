"""Which Celery task runs each kind of job. Tasks are sent by name, so the web process need not import them."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    name: str
    task: str  # runs the job; for a job split into parts, assembles them
    part_task: str = ""  # runs one part, for a job split into parts

    @property
    def split(self):
        return bool(self.part_task)


KINDS = {
    "los": Kind("los", "maps.los"),
    "viewshed": Kind("viewshed", "maps.viewshed"),
    "analysis": Kind("analysis", "maps.analysis_assemble", part_task="maps.analysis_part"),
    "map-image": Kind("map-image", "maps.map_image"),
    "batch-validation": Kind("batch-validation", "validations.batch_validation_assemble",
                             part_task="validations.batch_validation_part"),
    "scenario-checks": Kind("scenario-checks", "authoring.scenario_checks"),
    "sight-lines": Kind("sight-lines", "authoring.sight_lines"),
    "export": Kind("export", "authoring.export"),  # a card PDF or a print PNG, of a scenario or of a map
    # "validation" has its place in Job.Kind; they get a line here when their tasks exist.
}


def get(name):
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"no task runs {name!r} jobs yet") from None
