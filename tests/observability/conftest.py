from tests.assistant.conftest import answer_models, dinner_chat, local_price_book

__all__ = ["answer_models", "dinner_chat", "local_price_book"]
