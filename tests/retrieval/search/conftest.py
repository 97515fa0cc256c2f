import pytest

from claire.ai.config import ai_config_reset
from indexing.services import ModelIdentity, index_version_create

HASH_PROFILE = {"embed": {"candidates": ["local/hash-embed"]}}


@pytest.fixture
def hash_index(db, settings):
    """An active index version on the deterministic hashed-word embedder."""
    settings.AI_PROFILES = {**settings.AI_PROFILES, **HASH_PROFILE}
    ai_config_reset()
    yield index_version_create(
        profile="embed",
        identity=ModelIdentity(provider="local", model="hash-embed-384", dimensions=384),
    )
    ai_config_reset()
