"""Behaviour unchanged: every game's results (arrays, tidy frames, metadata, play records)
hash to the values stored when the game registry refactoring began (tests/fingerprint.py)."""
import json

import pytest

from fingerprint import STORE, fingerprints


@pytest.fixture(scope="module")
def current():
    return fingerprints()


def test_every_case_is_fingerprinted(current):
    stored = json.loads(STORE.read_text())
    assert sorted(current) == sorted(stored)


@pytest.mark.parametrize("case", sorted(json.loads(STORE.read_text())))
def test_results_unchanged(current, case):
    stored = json.loads(STORE.read_text())[case]
    assert current[case] == stored, case
