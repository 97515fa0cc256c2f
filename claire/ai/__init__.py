"""The AI runtime: task profiles, verified model capabilities, streamed generation,
embeddings and local models. The only package that imports litellm or a provider SDK.

Entry points: ``claire.ai.generate.generate`` (streamed events for a profile),
``claire.ai.embeddings.embed_many`` / ``embedding_model_identity``, and the types in
``claire.ai.types``. Importing this package is cheap: torch and litellm load on first use.
"""
