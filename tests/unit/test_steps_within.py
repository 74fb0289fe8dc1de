"""``_groups.steps_within``: rises and ties between neighbours of one group, never across."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens._base.groups import steps_within


def test_closed_form() -> None:
    values = np.array([3.0, 3.0, 4.0, 1.0, 1.0, 2.0, 2.0, np.nan])
    ends = np.array([3, 5, 8])  # groups [3, 3, 4] [1, 1] [2, 2, nan]
    assert steps_within(values, ends, "tie").tolist() == [0, 3, 5]
    # 4 -> 1 crosses a group; 2 -> nan is a rise (NaN is never in order)
    assert steps_within(values, ends, "rise").tolist() == [1, 6]
    assert steps_within(np.array([-0.0, 0.0]), np.array([2]), "tie").tolist() == [0]


@settings(max_examples=200, deadline=None)
@given(lengths=st.lists(st.integers(0, 5), min_size=1, max_size=8),
       data=st.data())
def test_equals_the_definition(lengths: list[int], data: st.DataObject) -> None:
    n = sum(lengths)
    values = np.array(data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=n,
                                         max_size=n)), dtype=float)
    group = np.repeat(np.arange(len(lengths)), lengths)
    same = group[1:] == group[:-1]
    ends = np.cumsum(lengths)
    for what, step in (("tie", values[1:] == values[:-1]), ("rise", values[1:] > values[:-1])):
        expected = np.flatnonzero(same & step).tolist()
        assert steps_within(values, ends, what).tolist() == expected
