"""The answer engine's test fixtures (real ASGI app, scripted models, the local price book)."""

from tests.assistant.conftest import answer_models, local_price_book  # noqa: F401
