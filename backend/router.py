"""Where a transport's request for a room goes: the :class:`Router` interface, and
:class:`LocalRouter`, its implementation for one process.

The transports (:mod:`backend.sockets`, :mod:`backend.api`) are handed a router and never ask
where a room lives. In one process every room is this process's service's
(:class:`LocalRouter`); in cluster mode each room runs on the process that owns it, and
:class:`backend.cluster.routing.ClusterRouter` forwards to it.
"""

from __future__ import annotations

from typing import Protocol

from .service import Caller, LoungeService


class Router(Protocol):
    """The rooms, wherever they live, as the transports see them."""

    def resolve(self, key: str) -> str:
        """The id of the open room with this code or id; not_found otherwise."""
        ...

    def dispatch(self, name: str, caller: Caller, data: dict) -> dict | None:
        """Run the operation ``name`` (one of :data:`backend.service.OPERATIONS`) for the
        caller, in the caller's room; its result."""
        ...

    def create_room(self, user_id: str, slug: str, name: str, public: bool) -> dict:
        """Open a room hosted by ``user_id``; its room object."""
        ...

    def room_summary(self, key: str) -> dict:
        """The room object of a room, by code or id."""
        ...

    def public_rooms(self, waiting: bool = True) -> list[dict]:
        """Public rooms still waiting for players (or, not ``waiting``, playing), newest
        first."""
        ...


class LocalRouter(Router):
    """One process: every room is the local service's."""

    def __init__(self, service: LoungeService) -> None:
        self.service = service

    def resolve(self, key: str) -> str:
        """The id of the open room with this code or id; not_found otherwise."""
        return self.service.resolve(key)

    def dispatch(self, name: str, caller: Caller, data: dict) -> dict | None:
        """Run the operation here."""
        return self.service.operation(name)(caller, data)

    def create_room(self, user_id: str, slug: str, name: str, public: bool) -> dict:
        """Open a room here."""
        return self.service.create_room(user_id, slug, name, public)

    def room_summary(self, key: str) -> dict:
        """The room object of one of this process's rooms."""
        return self.service.room_summary(key)

    def public_rooms(self, waiting: bool = True) -> list[dict]:
        """This process's public rooms."""
        return self.service.public_rooms(waiting)
