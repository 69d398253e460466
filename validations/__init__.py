"""**Batch validation** (docs/validation.md): a file or a zip of many checked on the workers, one batch file check
per file, with a report. The one module called "validation": the other kinds have names of their own."""
