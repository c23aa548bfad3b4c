"""What the play-query tests of every game share: the bad-input cases' parametrization
and the one-line input error check."""
import pytest

from fastsim.cards import CardError
from fastsim.common import RulesError


def bad_inputs(cases):
    """``pytest.mark.parametrize`` over ``(name, expect, change)`` cases, named by ``name``."""
    return pytest.mark.parametrize("name,expect,change", cases, ids=[b[0] for b in cases])


def assert_one_line_error(call, expect, *args, **kw):
    """``call(*args, **kw)`` raises the project's input error: one line containing ``expect``."""
    with pytest.raises((RulesError, CardError)) as e:
        call(*args, **kw)
    msg = str(e.value)
    assert expect in msg and "\n" not in msg, msg


def one_line_error_test(query, base, cases, samples=10):
    """The test that ``query(**base changed by a case, samples=samples)`` gives a one-line
    input error for every bad-input case (bind it to a ``test_…`` name)."""
    @bad_inputs(cases)
    def test(name, expect, change):
        assert_one_line_error(query, expect, **dict(base, **change), samples=samples)
    return test
