"""The web helpers the apps, documents/ and jobs/ share: a library below them, importing only Django, DRF and
the engine. A package of its own, not inside hexside/, so that the project (above every app) and its helpers
(below them) are not one package that arrows would run both up and down.

permissions.py (IsOwnerOrReadOnly), serializers.py (StrictSerializer, HexField), responses.py (the errors
shape, errors_response, StoredJSON), parsers.py (StrictJSONParser), throttles.py (the rates), docs.py (the API's
documentation page). The project's own modules (settings, urls, the Celery app, the exception handler) are in
hexside/ above every app; nothing below them imports them (docs/architecture.md, .importlinter).
"""
