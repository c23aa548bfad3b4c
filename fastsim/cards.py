"""Card codes, decks and the notations of docs/rules.md §0 (pure Python, no numba).

Card code ``c = 16 * suit + rank`` with suits ``S H D C`` = 0..3 and ranks ``2..A`` = 0..12.
The 32-card deck (7..A) uses the same codes, ranks 5..12, so every game shares one
encoding and one set of bitboard helpers (:mod:`fastsim.bits`).

Two notations, chosen explicitly (``H`` and ``K`` mean different things in each):

* ``en`` (default): rank ``2-9 T J Q K A`` (``10`` for ``T``), suit ``S H D C`` or
  ``♠ ♥ ♦ ♣``, any case: ``AS``, ``10h``, ``Q♥``.
* ``nl``: rank ``2-9``, ``10``/``T``, ``B`` (boer), ``V`` (vrouw), ``H`` (heer), ``A`` (aas);
  suit ``S`` schoppen, ``H`` harten, ``R`` ruiten, ``K`` klaveren: ``HH`` = heer harten.
"""
import numpy as np
import re

SUITS = "SHDC"
RANKS = "23456789TJQKA"
UNICODE_SUITS = "♠♥♦♣"
NL_SUITS = "SHRK"
NL_RANKS = "23456789TBVHA"
NOTATIONS = ("en", "nl")
DECK_SIZES = (52, 32)

SUIT_BITS = 16
RANK_MASK = 0x1FFF
N_CODES = 64  # card codes live in 0..63

RANK_7 = 5  # rank index of the 7, lowest card of the 32-card deck
# the 32-card deck (Klaverjassen, Boonaken) in code order
DECK32 = np.array([16 * s + r for s in range(4) for r in range(RANK_7, 13)], dtype=np.int64)


class CardError(ValueError):
    """Bad card input; the message is one line meant for the user."""


def card_code(suit, rank):
    return SUIT_BITS * suit + rank


def suit_of(code):
    return code // SUIT_BITS


def rank_of(code):
    return code % SUIT_BITS


def deck_codes(deck=52):
    """The cards of a deck in *deck order* (suit by suit, ranks ascending)."""
    if deck == 52:
        low = 0
    elif deck == 32:
        low = RANK_7
    else:
        raise CardError(f"unknown deck size {deck} (use 52 or 32)")
    return [card_code(s, r) for s in range(4) for r in range(low, 13)]


def deck_mask(deck=52):
    m = 0
    for c in deck_codes(deck):
        m |= 1 << c
    return m


FULL52 = deck_mask(52)   # every card of the 52-card deck, as a bit mask
FULL32 = deck_mask(32)   # and of the 32-card deck


def mask_of(codes):
    m = 0
    for c in codes:
        m |= 1 << int(c)
    return m


def codes_of(mask):
    """Card codes in ``mask`` in increasing order."""
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _split_rank_suit(token):
    if len(token) < 2:
        return None, None
    return token[:-1], token[-1]


def _ascii_upper(text):
    """Upper-case ASCII letters only: ``str.upper`` maps look-alikes onto card letters
    (``'ſ'.upper() == 'S'``, ``'ß'.upper() == 'SS'``), which must be refused, not read."""
    return "".join(ch.upper() if ch.isascii() else ch for ch in text)


def rank_help(notation="en"):
    """The ranks as a user types them, for error messages."""
    if notation == "nl":
        return "2 3 4 5 6 7 8 9 10 B V H A (or T for 10)"
    return "2 3 4 5 6 7 8 9 T J Q K A (or 10 for T)"


def suit_help(notation="en"):
    """The suit letters (and symbols) a user may type, for error messages."""
    if notation == "nl":
        return "S H R K (Dutch notation)"
    return "S H D C or ♠ ♥ ♦ ♣"


def _check_notation(notation):
    if notation not in NOTATIONS:
        raise CardError(f"unknown card notation {notation!r} (use en or nl)")


def parse_card(token, notation="en", deck=52):
    """One card string → card code. Raises :class:`CardError` with a one-line message.

    Only the documented alphabets are read (ASCII letters in any case, digits, and in the
    English notation the suit symbols); any other character is refused."""
    _check_notation(notation)
    raw = token
    token = _ascii_upper(token.strip())
    rank_txt, suit_txt = _split_rank_suit(token)
    if rank_txt is None:
        example = "AS or 10H" if notation == "en" else "AS or 10R"
        raise CardError(f"unknown card {raw!r}: expected rank then suit, e.g. {example}")
    if rank_txt == "10":
        rank_txt = "T"
    if notation == "en":
        suit = SUITS.find(suit_txt)
        if suit < 0:
            suit = UNICODE_SUITS.find(suit_txt)
        ranks = RANKS
    else:
        suit = NL_SUITS.find(suit_txt)
        ranks = NL_RANKS
    rank = ranks.find(rank_txt) if len(rank_txt) == 1 else -1
    if suit < 0:
        raise CardError(f"unknown card {raw!r}: suit must be one of {suit_help(notation)}")
    if rank < 0:
        raise CardError(f"unknown card {raw!r}: rank must be one of {rank_help(notation)}")
    code = card_code(suit, rank)
    if deck == 32 and rank < RANK_7:
        raise CardError(f"card {raw!r} is not in the 32-card deck (7 to A)")
    return code


_SEP = re.compile(r"[\s,;]+")


def parse_cards(text, notation="en", deck=52, allow_duplicates=False):
    """A list of cards separated by spaces or commas → list of codes (in the given order)."""
    if isinstance(text, str):
        tokens = [t for t in _SEP.split(text.strip()) if t]
    else:
        tokens = list(text)
    codes = [parse_card(t, notation, deck) for t in tokens]
    if not allow_duplicates:
        seen = set()
        for t, c in zip(tokens, codes):
            if c in seen:
                raise CardError(f"duplicate card {card_str(c, notation)} in {text!r}")
            seen.add(c)
    return codes


def card_str(code, notation="en", unicode=False):
    """Card code → string, e.g. ``12`` → ``AS`` (``nl``: ``AS`` is aas schoppen too)."""
    code = int(code)
    suit, rank = suit_of(code), rank_of(code)
    if not (0 <= suit < 4 and 0 <= rank < 13):
        raise CardError(f"invalid card code {code}")
    if notation == "nl":
        return NL_RANKS[rank] + NL_SUITS[suit]
    return RANKS[rank] + (UNICODE_SUITS[suit] if unicode else SUITS[suit])


def cards_str(codes, notation="en", unicode=False):
    return " ".join(card_str(c, notation, unicode) for c in codes)


def suit_str(suit, notation="en"):
    """Suit index → its letter: ``S H D C`` (``nl``: ``S H R K``)."""
    _check_notation(notation)
    suit = int(suit)
    if not 0 <= suit < 4:
        raise CardError(f"invalid suit {suit}")
    return (NL_SUITS if notation == "nl" else SUITS)[suit]


def parse_suit(text, notation="en"):
    """A suit letter/symbol → suit index (only the documented letters, any case)."""
    _check_notation(notation)
    t = _ascii_upper(text.strip())
    table = SUITS if notation == "en" else NL_SUITS
    if len(t) == 1 and t in table:
        return table.index(t)
    if notation == "en" and len(t) == 1 and t in UNICODE_SUITS:
        return UNICODE_SUITS.index(t)
    raise CardError(f"unknown suit {text!r}: use one of {suit_help(notation)}")
