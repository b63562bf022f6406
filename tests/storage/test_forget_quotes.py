"""Forgetting a member takes their name and mentions out of the reasons others gave."""

from __future__ import annotations

from bot.model import Member
from storage import SqlRunStore
from tests.storage.test_repository import PLACE, new_run

STEP = "peer"
ANN, BEN, CY = Member("U1ANN", "Annabel"), Member("U2BEN", "Ben"), Member("U3CY", "Cy")


async def reasons_of(store: SqlRunStore, run_id: int, member: Member) -> str:
    """The member's first-answer reason, as stored."""
    return (await store.member_reasons(run_id, STEP, member.user_id))[1]


async def test_others_reasons_keep_their_words_but_not_the_forgotten_members_name_or_id(
    store: SqlRunStore,
) -> None:
    run_id = await new_run(store)
    await store.save_reason(run_id, STEP, ANN, 1, "a", "it has a checker")
    quoting = "<@U1ANN> and <@!U1ANN> said it, annabel too"
    await store.save_reason(run_id, STEP, BEN, 1, "a", quoting)
    await store.save_reason(run_id, STEP, CY, 1, "b", "As <@U1ANN|annabel> wrote: @Annabel, U1ANN")
    untouched = "Annabelle's idea, not <@U1ANNX>'s"
    await store.save_reason(run_id, STEP, CY, 2, "b", untouched)

    preview = await store.forget_member(PLACE.platform, PLACE.workspace, ANN.user_id, dry_run=True)
    assert preview.reasons == 1 and "U1ANN>" in await reasons_of(store, run_id, BEN)
    await store.forget_member(PLACE.platform, PLACE.workspace, ANN.user_id)
    assert await reasons_of(store, run_id, BEN) == "@… and @… said it, @… too"
    assert await reasons_of(store, run_id, CY) == "As @… wrote: @…, @…"
    assert (await store.member_reasons(run_id, STEP, CY.user_id))[2] == untouched


async def test_a_member_who_never_answered_is_taken_out_of_this_workspace_s_reasons_only(
    store: SqlRunStore,
) -> None:
    run_id = await new_run(store)
    await store.save_reason(run_id, STEP, BEN, 1, "a", "<@U1ANN> said it")
    await store.forget_member(PLACE.platform, "another-workspace", ANN.user_id)
    assert await reasons_of(store, run_id, BEN) == "<@U1ANN> said it"
    await store.forget_member(PLACE.platform, PLACE.workspace, ANN.user_id)
    assert await reasons_of(store, run_id, BEN) == "@… said it"
