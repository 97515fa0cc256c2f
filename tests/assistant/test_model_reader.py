"""``ModelReader``: deltas that are ready together go out together; a cancelled wait cancels
the model's stream."""

import asyncio
from dataclasses import dataclass

import pytest

from assistant.streaming import ModelReader


@dataclass(frozen=True)
class End:
    reason: str


END = End("stop")


class Script:
    """An async stream of words: each entry is (seconds to wait before it, word), then an
    ending. Records how it ended."""

    def __init__(self, steps, ending=END):
        self.steps = steps
        self.ending = ending
        self.outcome = ""

    async def items(self):
        try:
            for delay, word in self.steps:
                if delay:
                    await asyncio.sleep(delay)
                yield word
            yield self.ending
            self.outcome = "completed"
        except asyncio.CancelledError:
            self.outcome = "cancelled"
            raise
        except GeneratorExit:
            self.outcome = "closed"
            raise


def _read_all(script):
    async def run():
        reader = ModelReader(script.items())
        reads = []
        try:
            while not reader.is_exhausted:
                text, ending = await reader.read()
                reads.append((text, ending))
                if ending is not None:
                    break
        finally:
            await reader.aclose()
        return reads

    return asyncio.run(run())


def test_words_that_are_ready_together_are_read_as_one_text():
    script = Script([(0, "a "), (0, "b "), (0.02, "c "), (0, "d "), (0.02, "e")])
    assert _read_all(script) == [("a b ", None), ("c d ", None), ("e", END)]
    # Read to its ending, then closed (not cancelled).
    assert script.outcome == "closed"


def test_a_word_that_waits_is_read_on_its_own_and_nothing_is_lost():
    script = Script([(0.01, "one "), (0.01, "two "), (0.01, "three")])
    reads = _read_all(script)
    assert "".join(text for text, _ in reads) == "one two three"
    assert reads[-1][1] == END
    assert len(reads) >= 3


def test_a_stream_without_an_ending_reads_as_exhausted():
    async def items():
        yield "only"

    async def run():
        reader = ModelReader(items())
        first = await reader.read()
        second = await reader.read()
        return first, second, reader.is_exhausted

    assert asyncio.run(run()) == (("only", None), ("", None), True)


def test_cancelling_the_waiting_task_cancels_the_stream():
    script = Script([(0, "a "), (5.0, "b ")])

    async def run():
        reader = ModelReader(script.items())
        assert await reader.read() == ("a ", None)
        task = asyncio.ensure_future(reader.read())
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await reader.aclose()

    asyncio.run(run())
    assert script.outcome == "cancelled"


def test_closing_with_a_read_under_way_cancels_the_stream():
    # "a " is read; the read of "b " starts (it waits) and is left under way.
    script = Script([(0, "a "), (5.0, "b ")])

    async def run():
        reader = ModelReader(script.items())
        assert await reader.read() == ("a ", None)
        await reader.aclose()

    asyncio.run(run())
    assert script.outcome == "cancelled"
