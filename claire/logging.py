"""Structured log lines: ``event key=value ...``.

Callers log an event name as the message and pass fields through ``extra``; content (message
text, questions, answers, credentials) is never passed, so it never reaches a log.
"""

from __future__ import annotations

import logging

_STANDARD_ATTRIBUTES = frozenset(
    logging.LogRecord("", 0, "", 0, "", None, None).__dict__.keys()
) | {"message", "asctime", "taskName"}


class StructuredFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = {
            key: value
            for key, value in record.__dict__.items()
            if key not in _STANDARD_ATTRIBUTES and not key.startswith("_")
        }
        rendered = " ".join(f"{key}={value!r}" for key, value in sorted(fields.items()))
        line = f"{self.formatTime(record)} {record.levelname} {record.name} {record.getMessage()}"
        if rendered:
            line = f"{line} {rendered}"
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        return line
