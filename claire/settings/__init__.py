"""Django settings for Ask Claire, one module per environment:

- ``claire.settings.base``: everything, read from the environment (or ``.env``); not used alone;
- ``claire.settings.dev``: the default of ``manage.py``, the ASGI server, the Celery app and the
  tests; ``DEBUG`` from the environment (off unless set);
- ``claire.settings.prod``: production (``DJANGO_SETTINGS_MODULE=claire.settings.prod``):
  ``DEBUG`` always off, so the secret-key check always refuses a development or short key.
"""
