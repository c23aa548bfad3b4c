"""Information states of the trick-taking games: the shared parts (numpy only).

An *information state* is everything one player knows at a decision point: the set-up,
their own current hand, the table cards, the bids or contract, and every card played so
far, by whom and in which trick. Each game module (``analyzer/boerenbridge_play.py``, …)
defines a state class with the same small API:

* ``state.to_move`` — the position to act (``None`` once the deal is over);
* ``state.is_terminal`` — every trick played;
* ``state.legal_actions()`` — card codes, increasing. For the state's own player these are
  the legal cards; for another player, the cards that player might still play as far as
  this player knows (unseen and not of a suit they showed themselves void in);
* ``state.apply(card)`` — a new state with ``card`` played by ``to_move`` (validated);
* a full-information *deal state* (all hands known) with the same API plus
  ``deal.info_state(position)``.

:func:`decide` asks a built-in policy for its card; this module also parses the play
history notation shared by the play queries and computes the weighted summaries.

History notation: the tricks so far in play order from their leader, ``|`` between
tricks, the trick in progress last and possibly partial or empty, e.g.
``"2C 5C KC 9C | AD"``. The first trick is led by position 0 (left of the dealer); every
later trick by the previous trick's winner.
"""
import numpy as np

from fastsim.cards import DECK32, CardError, card_str, parse_card
from fastsim.common import RulesError
from .stats_core import Z95, wilson

FULL32 = sum(1 << int(c) for c in DECK32)   # the 32-card deck's mask

__all__ = ["parse_history", "parse_bid_list", "decide", "weighted_summary", "ess",
           "RulesError", "CardError"]

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def parse_history(history, notation="en", deck=52):
    """History text → list of tricks, each a list of card codes in play order.

    ``""``/``None``: nothing played yet. A trailing ``|`` (or a last trick left empty)
    means the trick in progress has no card yet. Lists of lists of codes or card strings
    are accepted too. Only the last trick may be partial; the caller checks trick sizes.
    """
    if history is None:
        return []
    if not isinstance(history, str):
        out = []
        for trick in history:
            out.append([parse_card(c, notation, deck) if isinstance(c, str) else int(c)
                        for c in trick])
        return out
    text = history.strip()
    if text == "":
        return []
    parts = text.split("|")
    out = []
    for i, part in enumerate(parts):
        tokens = [x for x in part.replace(",", " ").replace(";", " ").split() if x]
        if not tokens and i < len(parts) - 1:
            raise CardError(f"history: trick {i + 1} is empty (two '|' in a row?)")
        out.append([parse_card(x, notation, deck) for x in tokens])
    if out and not out[-1]:
        out.pop()
        out.append([])
    return out


def parse_tricks(history, n, notation="en", deck=52, per_trick=None):
    """The history's tricks (:func:`parse_history`) for ``n`` players: every finished trick
    has ``n`` cards (else one line, saying it has ``per_trick``, by default ``n``); after a
    finished last trick the trick in progress is an empty one."""
    tricks = parse_history(history, notation, deck)
    for i, tr in enumerate(tricks):
        if len(tr) > n or (len(tr) < n and i < len(tricks) - 1):
            raise RulesError(f"history: trick {i + 1} has {len(tr)} cards; every finished "
                             f"trick has {n if per_trick is None else per_trick}")
    if tricks and len(tricks[-1]) == n:
        tricks.append([])
    return tricks


def position_arg(x, n, message):
    """``x`` as a position 0..n−1 (an integer, not a bool), else ``RulesError(message)``."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= x < n:
        raise RulesError(message)
    return int(x)


def suit_cards(suits):
    """The cards of the suits whose bits are set in ``suits`` (a void mask) as a card mask."""
    return sum(0x1FFF << (16 * s) for s in range(4) if suits >> s & 1)


def recommended(cards, choice, key="value", tie=None):
    """The recommended row of a play query's ``cards``: the highest ``key``; among the rows
    tied for it the policy's own card ``choice``, else ``tie(tied rows)`` (by default the
    first)."""
    top = max(x[key] for x in cards)
    tied = [x for x in cards if x[key] == top]
    return next((x for x in tied if x["card"] == choice), tied[0] if tie is None else tie(tied))


def query_state(state, make, threads=None):
    """The state a play query scores: ``make()`` (built from the inputs) when ``state`` is
    None, else ``state``, whose own player must be the one to move; ``threads`` (None:
    as they are) sets the engine's threads. Returns ``(state, its legal actions as an
    int64 array)``."""
    if state is None:
        state = make()
    elif state.to_move != state.position:
        raise RulesError(f"it is position {state.to_move}'s turn, not position {state.position}'s")
    if threads is not None:
        from fastsim.common import set_threads
        set_threads(threads)
    return state, np.array(state.legal_actions(), dtype=np.int64)


def parse_bid_list(text, n, what="bids"):
    """``"b0,b1,…"`` (or a sequence) → list of ``n`` ints, one per position."""
    if text is None or (isinstance(text, str) and text.strip() == ""):
        raise RulesError(f"{what} are needed: one per position, e.g. 1,0,2,1")
    if isinstance(text, str):
        try:
            vals = [int(x) for x in text.split(",")]   # int() strips; "1 2" is no 12
        except ValueError:
            raise RulesError(f"{what} must be integers separated by commas, got {text!r}") from None
    else:
        try:
            vals = [int(x) for x in text]
        except (TypeError, ValueError):
            raise RulesError(f"{what} must be integers, got {text!r}") from None
    if len(vals) != n:
        raise RulesError(f"{what}: need one per position ({n}), got {len(vals)}")
    return vals


def describe_card(code, notation="en"):
    return card_str(code, notation)


def decide(state, policy="heuristic", seed=0, **kw):
    """The card the built-in ``policy`` plays in ``state`` (its ``to_move`` must be the
    state's own player). ``seed`` (and for Boerenbridge ``deal``, the global deal index)
    key the random and pimc policies exactly as in the simulator."""
    return state.decide(policy=policy, seed=seed, **kw)


def check_policy(policy, policies):
    """A built-in policy name of the game, else one line (exit 2)."""
    if policy not in policies:
        raise RulesError(f"unknown policy {policy!r}; known: {', '.join(policies)}")


# bytes a play query holds per sampled world, an upper bound from its arrays: the world
# (a hand mask per holder, int64), its log weights, and per legal card (at most 17) the
# kernel's int8/int16 outcomes and their float64 copies
PLAY_BYTES_PER_SAMPLE = 8 * 8 + 16 + 17 * 27


def play_args(samples, policy, policies, usual, worlds=None, seed=0, searching=("strong",)):
    """The checks every play query makes: the policy, ``--samples`` (None: ``usual``, or
    the strong default for the policies in ``searching``), ``--worlds`` (1..4096; None: not
    used) and the seed. Returns ``(samples, seed as uint64)``."""
    from fastsim.common import check_seed
    from .stats_core import default_samples
    samples = default_samples(samples, policy, usual, searching)
    check_policy(policy, policies)
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise RulesError(f"--samples must be a positive integer, got {samples!r}")
    if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer))
                               or not 1 <= worlds <= 4096):
        raise RulesError(f"worlds must be 1..4096, got {worlds!r}")
    from . import limits
    limits.check_samples(samples, PLAY_BYTES_PER_SAMPLE, command="play")
    return samples, check_seed(seed)


# a play query of at most this many world-card play-outs, on one thread, runs the
# ahead-of-time kernels where they are built (fastsim/aot.py); a bigger one numba's
# parallel kernels (the same results: every world is keyed by its index)
AOT_MAX_PLAYOUTS = 100_000


def query_kernels(pq, threads, playouts, policy):
    """The kernel namespace a play query runs: ``pq`` (a :func:`fastsim.aot.kernels`
    namespace) with its ahead-of-time functions, when built, for a small heuristic query
    on one thread; else numba's kernels (``pq.jit``) on ``threads`` threads (None: all
    cores)."""
    return pq.pick(threads, policy == "heuristic" and playouts <= AOT_MAX_PLAYOUTS)


def ess(weights):
    """Effective sample size (Σw)² / Σw² of importance weights."""
    w = np.asarray(weights, dtype=np.float64)
    s2 = float((w * w).sum())
    return min(float(w.sum()) ** 2 / s2, float(len(w))) if s2 > 0 else 0.0


def weighted_summary(values, weights, success=None, exact=False):
    """Weighted mean of ``values`` with a 95% interval (normal approximation on the
    effective sample size) and, with ``success`` (bool array), the weighted proportion
    with a Wilson interval on the effective sample size. ``exact``: the outcome is
    determined, the intervals collapse onto the value."""
    v = np.asarray(values, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    sw = w.sum()
    mean = float((w * v).sum() / sw)
    n_eff = ess(w)
    out = {"mean": mean}
    if exact:
        out["mean_ci"] = [mean, mean]
    else:
        var = float((w * (v - mean) ** 2).sum() / sw)
        if n_eff > 1:
            var *= n_eff / (n_eff - 1)
        se = (var / n_eff) ** 0.5 if n_eff > 0 else float("nan")
        out["mean_ci"] = [mean - Z95 * se, mean + Z95 * se]
    if success is not None:
        p = float((w * np.asarray(success, dtype=np.float64)).sum() / sw)
        out["p"] = p
        if exact:
            out["p_ci"] = [p, p]
        else:
            lo, hi = wilson(p * n_eff, n_eff)
            out["p_ci"] = [max(0.0, min(float(lo), p)), min(1.0, max(float(hi), p))]
    return out


def render_play(r):
    """A play query's answer as text lines (every game)."""
    from .evidence import NA, with_rules
    ess = r.get("effective_samples", r["samples"])
    extra = ""
    if r.get("top1_weight_share") is not None:
        extra = f"; the top 1% carry {r['top1_weight_share']:.1%} of the weight"
    if r.get("bid_model"):
        extra += f"; bids weighed by the {r['bid_model']} heuristic bidder"
    if r.get("calls_model"):
        extra += f"; the calling round weighed by the {r['calls_model']} heuristic caller"
    if r.get("choice_model"):
        extra += f"; the contract choice weighed by the {r['choice_model']} heuristic chooser"
    drawn = r.get("worlds_drawn")
    if drawn is not None and drawn != r["samples"]:
        extra += f"; {drawn:,} drawn"
    lines = [f"{r['game']}: position {r['to_move']} to play; {r['samples']:,} sampled worlds "
             f"(effective {ess:,.0f}{extra}), everyone plays {r['policy']}, seed {r['seed']}"]
    if r.get("note"):
        lines.append(f"note: {r['note']}")
    has_make = any(c.get("p_make") is not None for c in r["cards"])
    lines += ["", "card   value   95% interval        " + ("P(make)  95% interval" if has_make else "")]
    for c in r["cards"]:
        mark = ("  <- recommended" if c["card"] == r["recommended"] else "") + (
            "  (the policy's card)" if c["card"] == r["policy_choice"] else "")
        if c["value_ci"] is None:
            iv = f"{NA:<20}"
        else:
            lo, hi = c["value_ci"]
            iv = f"[{lo:7.2f}, {hi:7.2f}]"
        make = ""
        if has_make and c.get("p_make") is not None:
            if c.get("p_make_ci") is None:
                make = f"{c['p_make']:>7.1%}"
            else:
                mlo, mhi = c["p_make_ci"]
                make = f"{c['p_make']:>7.1%}  [{mlo:5.1%}, {mhi:5.1%}]"
        lines.append(f"{c['card']:<5} {c['value']:>7.2f}  {iv}  {make}{mark}")
    lines += ["", f"recommended: {r['recommended']}; {r['policy']} would play {r['policy_choice']}"]
    lines += [f"warning: {x}" for x in r.get("warnings", ())]
    return with_rules(lines, r)


def dealt_masks(hands, n, notation="en", deck=52, check=True):
    """Every position's dealt hand (card strings, code lists or masks) as bit masks; with
    ``check``, exactly ``n`` hands and no card dealt twice (one-line errors)."""
    import numpy as np
    from fastsim.cards import CardError, mask_of, parse_cards
    from fastsim.common import RulesError
    if check and len(hands) != n:
        raise RulesError(f"need {n} hands (one per position), got {len(hands)}")
    masks = [int(hd) if isinstance(hd, (int, np.integer)) else
             mask_of(parse_cards(hd, notation, deck=deck) if isinstance(hd, str) else hd)
             for hd in hands]
    total = 0
    for m in masks:
        if check and total & m:
            raise CardError("a card is dealt to two players")
        total |= m
    return masks


def bits(mask):
    """The card codes of a bit mask, increasing."""
    return [c for c in range(64) if mask >> c & 1]


class InfoState:
    """Base of every game's information state: immutable, ``__slots__`` only; ``apply``
    returns a changed copy made by ``_copy``. Every state has ``position`` (whose view)
    and ``hand`` (that player's cards now, a bit mask)."""
    __slots__ = ()
    ENDED = "the deal is over"     # the messages' words once nothing can be played

    def _copy(self):
        return copy_state(self)

    @property
    def hand_cards(self):
        return bits(self.hand)

    def _check_holder(self, p, card, cs):
        """Position ``p`` may hold ``card`` as far as this player's hand tells: my own card
        must be in my hand, another player's must not."""
        mine = self.hand >> card & 1
        if p == self.position and not mine:
            raise CardError(f"{cs} is not in the hand of position {p}")
        if p != self.position and mine:
            raise CardError(f"{cs} is in the hand of position {self.position}; "
                            f"position {p} cannot play it")

    def _my_turn(self, policy, policies, over=None):
        """``decide``'s checks: a built-in policy, and this player to play (``over``: the
        message once nothing is left to play). Returns the position to move."""
        check_policy(policy, policies)
        p = self.to_move
        if p is None:
            raise RulesError(over or f"{self.ENDED}: no card to play")
        if p != self.position:
            raise RulesError(f"it is position {p}'s turn, not position {self.position}'s")
        return p


class TrickInfoState(InfoState):
    """An information state of a trick game: ``tricks`` holds the finished tricks,
    ``leader``/``current`` the trick in progress. Subclasses give ``is_terminal``,
    ``unseen_mask`` and ``_own_legal_mask`` (my legal cards when I am to move); ``DECK``
    is the deck's size, ``n`` the number of players."""
    __slots__ = ()
    n = 4
    DECK = 52

    @property
    def t(self):
        """Number of finished tricks."""
        return len(self.tricks)

    @property
    def to_move(self):
        return None if self.is_terminal else (self.leader + len(self.current)) % self.n

    def legal_actions(self):
        """Legal cards (codes, increasing) of ``to_move``; for another player, the cards it
        might still hold as far as this player knows."""
        return bits(self._legal_mask())

    def _legal_mask(self):
        p = self.to_move
        if p is None:
            return 0
        if p != self.position:
            return self.unseen_mask() & ~self._cannot_hold(p)
        return self._own_legal_mask()

    def _cannot_hold(self, q):
        """Cards position ``q`` (not me) cannot hold as far as I know: here those of the
        suits it showed itself void in (``voids``, suit bits)."""
        return suit_cards(self.voids[q])

    def _out_of_play(self, card, cs):
        """A game's own refusal of ``card`` before the already-played check (none here)."""

    def _card_to_play(self, card, notation):
        """``apply``'s first checks: ``card`` (code or string) → ``(code, its text, the
        position playing it)``; the deal must go on, the card be in the deck, not played
        yet, and in my hand and legal if I play it, not in my hand if another does
        (one-line errors; ``_illegal_why`` says why my card is not legal)."""
        if isinstance(card, str):
            card = parse_card(card, notation, deck=self.DECK)
        card = int(card)
        cs = card_str(card, notation)
        if self.is_terminal:
            raise RulesError(f"{self.ENDED}: no card can be played")
        if self.DECK == 32 and not FULL32 >> card & 1:
            raise CardError(f"{cs} is not in the 32-card deck")
        self._out_of_play(card, cs)
        if self.played >> card & 1:
            raise CardError(f"{cs} was already played")
        p = self.to_move
        self._check_holder(p, card, cs)
        if p == self.position and not self._own_legal_mask() >> card & 1:
            raise RulesError(f"position {p} {self._illegal_why(cs)}")
        return card, cs, p

    def _close_trick(self, s, cur, w):
        """Book on ``s`` (the copy of this state being played on) the full trick ``cur``,
        won by position ``w``: one more trick for ``w``, who leads the next one."""
        won = list(self.won)
        won[w] += 1
        s.won = tuple(won)
        s.tricks = self.tricks + ((self.leader, cur, w),)
        s.leader = w
        s.current = ()

    def held_by_others(self):
        """How many cards each other position holds now (0 for this player); ``h`` is the
        hand size."""
        tn = len(self.current)
        return [0 if q == self.position else self.h - self.t - (1 if (q - self.leader) % self.n < tn else 0)
                for q in range(self.n)]

    def is_determined(self, policy, cannot_hold):
        """Is the outcome of every card fixed? True when nobody else holds a card any more,
        or the policy is the deterministic heuristic and every unseen card has one possible
        holder (``cannot_hold[q]``: the cards position ``q`` is known not to hold)."""
        cap = self.held_by_others()
        if sum(cap) == 0:
            return True
        if policy != "heuristic":
            return False
        unseen = self.unseen_mask()
        if bin(unseen).count("1") != sum(cap):
            return False
        return all(sum(1 for q in range(self.n) if cap[q] > 0 and not cannot_hold[q] >> c & 1) <= 1
                   for c in bits(unseen))

    def history_str(self, notation="en"):
        parts = [" ".join(card_str(c, notation) for c in cards) for _, cards, _ in self.tricks]
        parts.append(" ".join(card_str(c, notation) for c in self.current))
        return " | ".join(parts).strip(" |")


class Deal:
    """A full-information deal played step by step (every hand known): one information
    state per position, all advanced together. Subclasses set ``states`` (and ``rules``,
    ``dealt``) in ``__init__`` and give ``scores``; ``OVER`` is the message when nothing
    can be played any more."""
    __slots__ = ("rules", "dealt", "states")
    OVER = "the deal is over: no card can be played"

    @property
    def to_move(self):
        return self.states[0].to_move

    @property
    def is_terminal(self):
        return self.states[0].is_terminal

    def info_state(self, position):
        return self.states[position]

    def legal_actions(self):
        p = self.to_move
        return [] if p is None else self.states[p].legal_actions()

    def apply(self, action, notation="en"):
        """A new deal with ``action`` played by the player to move (validated by that
        player's information state, then shown to everyone)."""
        from fastsim.common import RulesError
        p = self.to_move
        if p is None:
            raise RulesError(self.OVER)
        mover = self.states[p].apply(action, notation)
        d = type(self).__new__(type(self))
        d.rules, d.dealt = self.rules, self.dealt
        d.states = tuple(mover if q == p else s.apply(action, notation)
                         for q, s in enumerate(self.states))
        return d

    def decide(self, policy="heuristic", seed=0, **kw):
        return self.states[self.to_move].decide(policy=policy, seed=seed, **kw)

    def replay_record(self, rec, notation="en"):
        """Yield ``(info_state, card_played)`` for every card of the recorded deal ``rec``
        (this deal being its start): the information state of the player to move and the
        card the simulator played there."""
        d, dealer, n = self, rec["dealer"], len(self.states)
        for tr in rec["tricks"]:
            for s, c in tr["cards"]:
                if d.to_move != (s - dealer - 1) % n:
                    raise RulesError("record: play out of turn")
                code = parse_card(c, notation, d.states[0].DECK)
                yield d.info_state(d.to_move), code
                d = d.apply(code)


def check_own_cards(codes, mine, position, notation="en"):
    """The cards of my hand now (``codes``) and those the history says I played
    (``mine``): none played twice, none both played and held (one-line CardError)."""
    from fastsim.cards import CardError, card_str
    if len(set(mine)) != len(mine):
        dup = next(c for c in mine if mine.count(c) > 1)
        raise CardError(f"history: {card_str(dup, notation)} was played twice")
    if set(codes) & set(mine):
        dup = sorted(set(codes) & set(mine))[0]
        raise CardError(f"history: {card_str(dup, notation)} was played by position "
                        f"{position} but is still in the hand")


def replay(state, tricks, position, notation="en", require_turn=True, what="deal"):
    """Apply the history's tricks to the initial ``state`` (each card checked against the
    rules, errors naming the trick and card); with ``require_turn`` it must then be
    ``position``'s turn."""
    from fastsim.cards import CardError, card_str
    from fastsim.common import RulesError
    for i, tr in enumerate(tricks):
        for j, c in enumerate(tr):
            try:
                state = state.apply(c, notation=notation)
            except (RulesError, CardError) as e:
                raise type(e)(f"history trick {i + 1}, card {j + 1} "
                              f"({card_str(c, notation)}): {e}") from None
    if require_turn:
        if state.is_terminal:
            raise RulesError(f"the history finishes the {what}: there is no card left to play")
        if state.to_move != position:
            raise RulesError(f"the history says it is position {state.to_move}'s turn, "
                             f"not position {position}'s")
    return state


def record_card(s, old, p, card, led):
    """Book position ``p``'s ``card`` (``led``: the suit led, −1 when leading) on ``s``, a
    copy of state ``old``: out of my hand if it is mine, played and played by ``p``, and a
    void shown when ``p`` did not follow. Every game's ``apply`` does this."""
    bit = 1 << card
    if p == old.position:
        s.hand = old.hand & ~bit
    s.played = old.played | bit
    pb = list(old.played_by)
    pb[p] |= bit
    s.played_by = tuple(pb)
    if led >= 0 and (card >> 4) != led:
        v = list(old.voids)
        v[p] |= 1 << led
        s.voids = tuple(v)


def copy_state(state):
    """A shallow copy of a ``__slots__`` information state (states are immutable: apply
    returns a changed copy)."""
    s = type(state).__new__(type(state))
    for a in state.__slots__:
        setattr(s, a, getattr(state, a))
    return s


def sample_hidden(kernel, state, constraint, count, seed=0, start=0, extra=()):
    """The hidden hands of a 4-player trick game's play query: ``(worlds, logw)`` from the
    game's compiled sampler ``kernel`` (``constraint``: its per-player card constraints,
    e.g. shown voids; ``extra``: the game's further arguments, after the constraints)."""
    import numpy as np
    from fastsim.common import check_seed
    a = state.kernel_args()
    out_w = np.zeros((count, 4), dtype=np.int64)
    out_l = np.zeros(count, dtype=np.float64)
    kernel(check_seed(seed), state.position, a["hand"], a["played"], state.t, state.leader,
           a["tn"], a[constraint], *extra, np.int64(start), np.int64(count), out_w, out_l)
    return out_w, out_l
