"""The columns a run's mode adds to its CSV export, and each member's cells in them.

A live run adds none. An assigned run adds when each member started and finished, and lists
every member who started, so one who answered nothing still gets a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class MemberCells:
    """One member's cells in a mode's extra columns."""

    user_id: str
    name: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class ExtraColumns:
    """A mode's extra columns: their header, and the members the mode lists, in order.

    A listed member who answered nothing gets a row of their own: no answer, their cells.
    """

    header: tuple[str, ...] = ()
    members: Mapping[str, MemberCells] = field(default_factory=dict)
    """The listed members by user id, in the mode's order."""

    @classmethod
    def listing(cls, header: tuple[str, ...], members: Iterable[MemberCells]) -> ExtraColumns:
        """Columns with their header and members, in the order given."""
        return cls(header, {member.user_id: member for member in members})

    def cells_of(self, user_id: str) -> tuple[str, ...]:
        """A member's cells in these columns; empty cells for a member not listed."""
        listed = self.members.get(user_id)
        return listed.cells if listed is not None else ("",) * len(self.header)
