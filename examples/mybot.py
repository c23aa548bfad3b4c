"""An example policy of your own for troef (docs/policies.md).

    troef tournament boerenbridge --policies heuristic,examples/mybot.py:choose --deals 200
    troef simulate boerenbridge --hand-size 8 --deals 200 --seat-policy 0=examples/mybot.py:choose

``choose(state)`` is called at every decision of the seats it plays and returns one of
``state.legal_actions()``. ``state`` holds only what that player knows (its own hand, the
turned card, the bids, the cards played so far); ``state.decide("heuristic")`` asks a
built-in policy, ``state.rng`` is a random generator keyed by (seed, deal, decision).

Cards are integer codes ``16 * suit + rank`` (suit 0..3 = spades, hearts, diamonds,
clubs; rank 0..12 = 2 … ace).
"""


def rank(card):
    return card & 15


def choose(state):
    """Boerenbridge: bid like the heuristic, then play greedily — the highest legal card
    while I still need tricks for my bid, the lowest once I have enough. Every other game
    and phase: the built-in heuristic."""
    if state.game == "boerenbridge" and state.phase == "play":
        legal = state.legal_actions()
        me = state.position
        need = state.bids[me] - state.won[me]
        return max(legal, key=rank) if need > 0 else min(legal, key=rank)
    return state.decide("heuristic")


def noisy(state):
    """Any game: the heuristic's action, but a uniformly random legal one 10% of the time
    (reproducible: ``state.rng`` is seeded by the run's seed, the deal and the decision)."""
    if state.rng.random() < 0.1:
        legal = state.legal_actions()
        return legal[int(state.rng.integers(len(legal)))]
    return state.decide("heuristic")
