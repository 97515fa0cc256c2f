from tests.assistant.conftest import local_price_book  # noqa: F401
