from tests.assistant.conftest import answer_models, local_price_book

__all__ = ["answer_models", "local_price_book"]
