"""Plans read on demand from messages: when is it, did it move, who drives.

Stored plans start from an activity word ("dinner", "trip"); many plans are only a name and a
time ("Kayak day at the reservoir, Fri Jun 12?", "electrician Tue 9-11"), and their changes
are often said somewhere else ("can come Wed instead of Tuesday" in a text from the person who
booked it). A question about one names its topic, a person or a time window, so the plan is
read when the question is asked:

1. **Seeds** (``topic_plan``): the messages of the last ``TOPIC_HORIZON`` that use the most of
   the question's rare topic words (a group's title counts as its messages' words: "Mena's
   move" is discussed in "Moving Mena"); a word used by many messages names no one plan, and
   a kind of event ("party", "trip") only narrows when nothing rarer is asked. A person the
   question names adds their own messages about a day still ahead ("Biscuit's party": what
   Biscuit announced). ``window_plans`` seeds from every message that names a day inside the
   question's window ("this weekend").
2. **Linking** (``_plan_read``): the conversation around each seed (same chat, shortly before
   and ``THREAD_WINDOW`` after); then, in time order, messages in direct chats with the
   plan's participants (or in its chats) that name the plan's current day ("Adeyemi can come
   Wed instead of Tuesday", texted by the person who booked it on Tuesday) with their own
   conversation after them. Participants are the people who wrote in the plan's messages.
3. **Steps**: every message that names a time or says something about the plan. The first
   time sets it; the same day or clock again makes it more precise; another time with a
   change word ("instead", "move", "now", "delayed", "cambio de planes") moves it; another
   time without one is a detail (a pickup time) that moves nothing; a cancellation cancels
   it (one person's "can't make it" in a group does not); an agreement confirms it.

The result is a ``PlanTimeline`` like a stored plan, rendered the same way. Deterministic; no
model; bounded reads.
"""

from __future__ import annotations

from memory.timeline.seeds import plan_read_on, topic_plan, window_plans

__all__ = [
    "plan_read_on",
    "topic_plan",
    "window_plans",
]
