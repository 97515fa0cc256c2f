"""Fault-injection tests reuse the answer tests' fixtures: a scripted ``answer`` model, a chat
that answers the question, and the local price book put back after each flush."""

from tests.assistant.conftest import answer_models, dinner_chat, local_price_book

__all__ = ["answer_models", "dinner_chat", "local_price_book"]
