"""Writes to billing, one module per concept (import from the module):

- ``pricing``: the cost of usage and of a plan's worst case, the price entry in force;
- ``policy``: a user's AI policy (AI on or off, spending limits);
- ``reservations``: budget reservation, settlement, release and the sweeper;
- ``price_books``: price book versions and their entries.

The answer engine's sequence per generation attempt (through ``billing.metered``)::

    reservation = budget_reserve(user=..., request_id=..., provider=..., model=..., plan=...)
    ...generate...
    reservation_settle(reservation=..., usage=..., ending=..., telemetry=...)
    # or reservation_release(reservation=...) when the attempt never reached a provider
"""
