"""Every model of the project has a factory, and what each factory builds is a valid row:
it passes the model's own validation, satisfies the database constraints, keeps every
related row under one user, and a second call builds a second, distinct row."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict

import pytest
from django.apps import apps
from django.db import models
from factory.django import DjangoModelFactory

import tests.factories as factories

PROJECT_APPS = {
    "accounts",
    "ai",
    "assistant",
    "billing",
    "conversations",
    "indexing",
    "memory",
    "observability",
    "proposals",
    "retrieval",
}


def _project_models() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models()
        if model._meta.app_label in PROJECT_APPS and model._meta.managed and not model._meta.proxy
    ]


def _factories() -> list[type[DjangoModelFactory]]:
    return [getattr(factories, name) for name in factories.__all__]


def _factories_by_model() -> dict[type[models.Model], list[type[DjangoModelFactory]]]:
    found: dict[type[models.Model], list[type[DjangoModelFactory]]] = defaultdict(list)
    for factory_class in _factories():
        found[factory_class._meta.model].append(factory_class)
    return found


def test_every_project_model_has_a_factory() -> None:
    by_model = _factories_by_model()
    missing = [model.__name__ for model in _project_models() if model not in by_model]
    assert missing == []


def test_the_package_exports_every_factory_it_defines() -> None:
    defined = set()
    for module_info in pkgutil.iter_modules(factories.__path__):
        module = importlib.import_module(f"tests.factories.{module_info.name}")
        for name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, DjangoModelFactory) and value.__module__ == module.__name__:
                defined.add(name)
    assert defined == set(factories.__all__)


def _owners(instance: models.Model) -> set[int]:
    """The users every row reachable through the instance's foreign keys belongs to."""
    seen: set[int] = set()
    pending = [instance]
    visited: set[tuple[str, object]] = set()
    while pending:
        row = pending.pop()
        key = (row._meta.label, row.pk)
        if key in visited:
            continue
        visited.add(key)
        user_id = getattr(row, "user_id", None)
        if user_id is not None:
            seen.add(user_id)
        if row._meta.label == "accounts.User":
            seen.add(row.pk)
            continue
        for field in row._meta.concrete_fields:
            if field.many_to_one or field.one_to_one:
                related = getattr(row, field.name, None)
                if isinstance(related, models.Model):
                    pending.append(related)
    return seen


@pytest.mark.django_db
@pytest.mark.parametrize("factory_class", _factories(), ids=lambda f: f.__name__)
def test_a_factory_builds_a_valid_row_owned_by_one_user(factory_class) -> None:
    first = factory_class()
    second = factory_class()

    for row in (first, second):
        row.refresh_from_db()
        row.full_clean()
    assert first.pk != second.pk
    assert len(_owners(first)) <= 1


@pytest.mark.django_db
def test_the_owner_check_sees_a_row_that_mixes_two_users() -> None:
    stranger = factories.PersonFactory.create()
    message = factories.MessageFactory.create(sender_person=stranger)

    assert stranger.user_id != message.user_id
    assert _owners(message) == {message.user_id, stranger.user_id}
