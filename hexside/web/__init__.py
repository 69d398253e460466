"""The web helpers the apps and jobs/ share: a library below them, importing only Django, DRF and the engine.

permissions.py (IsOwnerOrReadOnly), serializers.py (StrictSerializer, HexField), responses.py (the errors
shape, errors_response, StoredJSON), parsers.py (StrictJSONParser), throttles.py (the rates), docs.py (the API's
documentation page). The project's own modules (settings, urls, the Celery app, the exception handler) are in
hexside/ above every app; nothing below them imports them (docs/architecture.md, .importlinter).
"""
