import logging
import sys

from claire.celery import app, task_send


def test_a_task_is_sent_by_name_through_its_own_apply_async(monkeypatch):
    sent = []
    app.autodiscover_tasks(force=True)
    task = app.tasks["indexing.run_job"]
    monkeypatch.setattr(task, "apply_async", lambda **options: sent.append(options))
    task_send("indexing.run_job", args=[7], queue="celery", countdown=3)
    assert sent == [{"args": [7], "queue": "celery", "countdown": 3}]


def test_finding_an_unregistered_task_imports_the_tasks_modules_and_keeps_logging(monkeypatch):
    root_handlers = list(logging.getLogger().handlers)
    monkeypatch.delitem(app.tasks, "proposals.receipt_execute")
    monkeypatch.delitem(sys.modules, "proposals.tasks")
    sent = []
    monkeypatch.setattr(
        "celery.app.task.Task.apply_async", lambda self, **options: sent.append(self.name)
    )
    task_send("proposals.receipt_execute", args=[1])
    assert sent == ["proposals.receipt_execute"]
    assert logging.getLogger().handlers == root_handlers
