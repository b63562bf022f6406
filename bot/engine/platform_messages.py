"""The platform's bookkeeping: messages that show steps, deliveries seen, whose turn it is."""

from __future__ import annotations

from bot.engine.ports import MessageStorage

MAX_DELIVERY_ID = 128
REVEAL_KEY = "+results"
NOT_POSTED = "-"
"""The results reference stored when their post was refused, to be posted on a later try."""


class PlatformMessages:
    """Step messages and delivery ids, shared by every process through storage."""

    def __init__(self, messages: MessageStorage) -> None:
        self.messages = messages

    async def first_delivery(self, platform: str, delivery_id: str) -> bool:
        """Whether this is the first time any process sees a platform delivery (not a retry)."""
        return await self.messages.claim_delivery(platform, delivery_id[:MAX_DELIVERY_ID])

    async def claim_turn(
        self, run_id: int, holder: str, seconds: float, replacing: str | None = None
    ) -> bool:
        """Take or renew a run's turn to move and post, for `seconds`; False if another has it.

        `replacing` names a holder known to be gone, whose turn is taken over at once.
        """
        return await self.messages.claim_post_turn(run_id, holder, seconds, replacing)

    async def turn_holder(self, run_id: int) -> str | None:
        """Who holds a run's turn to move and post now, if anyone."""
        return await self.messages.post_turn_holder(run_id)

    async def release_turn(self, run_id: int, holder: str) -> None:
        """Give a run's turn to move and post back."""
        await self.messages.release_post_turn(run_id, holder)

    async def remember_message(self, run_id: int, step_id: str, message_ref: str) -> None:
        """Remember which platform message shows a step, so any process can edit it."""
        await self.messages.save_message(run_id, step_id, message_ref)

    async def step_message(self, run_id: int, step_id: str) -> str | None:
        """The platform message that shows a step, if the adapter saved one."""
        return await self.messages.find_message(run_id, step_id)

    async def remember_reveal(self, run_id: int, step_id: str, message_ref: str | None) -> None:
        """Remember which platform message shows a question's results (None: it was refused)."""
        await self.messages.save_message(run_id, step_id + REVEAL_KEY, message_ref or NOT_POSTED)

    async def reveal_message(self, run_id: int, step_id: str) -> str | None:
        """The message that shows a question's results, `NOT_POSTED`, or None if never tried."""
        return await self.messages.find_message(run_id, step_id + REVEAL_KEY)
