"""A member's own settings (pings off everywhere, the language of their private replies): defaults
without a row, partial updates, refusals that change nothing, the muted among many — on both backends."""

from __future__ import annotations

from datetime import UTC

import pytest

from bot.store import MemberSettingsRecord, Store

ANN, BOB = 2**62 + 11, 42


def test_member_settings_default_without_storing(store: Store) -> None:
    assert store.member_settings(ANN) == MemberSettingsRecord(ANN, False, None, None)
    assert store.muted_members([ANN, BOB]) == frozenset()


def test_member_settings_round_trip_and_partial_updates(store: Store) -> None:
    first = store.set_member_settings(ANN, mute_pings=True)
    assert (first.user_id, first.mute_pings, first.language) == (ANN, True, None)
    assert first.updated_at is not None and first.updated_at.tzinfo is UTC
    second = store.set_member_settings(ANN, language="en")
    assert (second.mute_pings, second.language) == (True, "en")
    assert store.member_settings(ANN) == second
    back = store.set_member_settings(ANN, language=None, mute_pings=False)  # back to their Discord's language
    assert (back.mute_pings, back.language) == (False, None)
    assert store.member_settings(BOB) == MemberSettingsRecord(BOB)


def test_muted_members_reads_the_muted_among_many(store: Store) -> None:
    store.set_member_settings(ANN, mute_pings=True)
    store.set_member_settings(BOB, language="fr")
    assert store.muted_members([ANN, BOB, 7]) == {ANN}
    with store.request():
        assert store.muted_members([BOB]) == frozenset()
        store.set_member_settings(BOB, mute_pings=True)  # a write forgets what the request read
        assert store.muted_members([BOB]) == {BOB}
        assert store.member_settings(BOB).mute_pings is True


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"language": "de"}, ValueError, "unknown language 'de'"),
        ({"mute_pings": "yes"}, TypeError, "mute_pings must be a bool"),
        ({"colour": "red"}, TypeError, "unknown member settings: colour"),
    ],
)
def test_member_settings_bad_input_changes_nothing(
    store: Store, fields: dict[str, str], error: type[Exception], message: str
) -> None:
    before = store.set_member_settings(ANN, language="en")
    with pytest.raises(error, match=message):
        store.set_member_settings(ANN, **fields)
    assert store.member_settings(ANN) == before
