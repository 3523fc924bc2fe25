"""Hand masks read back as ids and names (app.engine.tiles), for every size of set."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.engine.tiles import tile_set

SETS = [6, 9, 12, 15]


def _bits(mask: int) -> list[int]:
    """The ids of `mask` one bit at a time, lowest first: the obvious way."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


@given(st.sampled_from(SETS), st.data())
def test_members_and_names_list_every_tile_of_a_mask_lowest_first(max_pip: int,
                                                                  data: st.DataObject) -> None:
    ts = tile_set(max_pip)
    ids = data.draw(st.sets(st.integers(0, len(ts.tiles) - 1)))
    mask = ts.mask(ids)
    assert ts.members(mask) == _bits(mask) == sorted(ids)
    assert ts.names_of(mask) == [ts.names[i] for i in sorted(ids)]


def test_the_empty_and_the_full_mask() -> None:
    for max_pip in SETS:
        ts = tile_set(max_pip)
        assert ts.members(0) == [] and ts.names_of(0) == []
        assert ts.members(ts.all) == list(range(len(ts.tiles)))
        assert ts.names_of(ts.all) == list(ts.names)
