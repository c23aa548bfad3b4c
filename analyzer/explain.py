"""Rules explainers: what a trick is worth and which cards a hand may play (no pandas)."""
import numpy as np

from fastsim import klaverjassen_nb as knb
from fastsim.cards import CardError, card_str, mask_of, parse_cards, parse_suit
from fastsim.common import RulesError
from fastsim.klaverjassen_schema import FLAGS, LAST_TRICK, build_rules


def _trick_state(cards, trump):
    led, winner, wpos, hi = -1, -1, -1, -1
    for j, c in enumerate(cards):
        if j == 0 or knb.beats_nb(c, winner, led, trump):
            winner, wpos = c, j
        if j == 0:
            led = c >> 4
        if c >> 4 == trump and (hi < 0 or knb.strength_nb(c, trump) > knb.strength_nb(hi, trump)):
            hi = c
    return led, winner, wpos, hi


def roem_items(cards, trump, rv, notation="en"):
    """The roem of a trick, item by item: [{"name", "points"}] (a rank in ``notation``;
    ``rv``: the variant tuple, ``Rules.flags``)."""
    mask = np.int64(mask_of(cards))
    run, stuk, four = knb.roem_parts_nb(mask, trump, rv)
    items = []
    if run:
        items.append({"name": "four in a row" if run == 50 else "three in a row", "points": int(run)})
    if stuk:
        items.append({"name": "stuk (king and queen of trump)", "points": int(stuk)})
    if four:
        items.append({"name": f"four {card_str(cards[0], notation)[0]}s".replace("Ts", "tens"),
                      "points": int(four)})
    return items


# the variants the wording below knows; the legal cards themselves always come from the kernel
DESCRIBED = ("amsterdam", "undertrump_forced", "all_100")


def legal_rule(hand, trick, trump, rules):
    """Legal cards (codes) and the obligation that applies (docs/rules.md §2). Where a
    variant the wording does not know changes the legal cards, the line names it instead
    of a description that would no longer fit."""
    led, winner, wpos, hi = _trick_state(trick, trump)
    pw = bool(trick) and wpos == len(trick) - 2
    hmask = np.int64(mask_of(hand))
    mask = int(knb.legal_nb(hmask, led, trump, hi, pw, rules.flags))
    legal = [c for c in sorted(hand) if mask >> c & 1]
    known = tuple(v if f in DESCRIBED else 0 for f, v in zip(FLAGS, rules.flags))
    if known != rules.flags and int(knb.legal_nb(hmask, led, trump, hi, pw, known)) != mask:
        names = ", ".join(f for f, v in zip(FLAGS, rules.flags) if v and f not in DESCRIBED)
        return legal, f"the cards the rules in force allow (variant {names}: docs/rules.md)"
    trumps = [c for c in hand if c >> 4 == trump]
    if not trick:
        rule = "leading: any card"
    elif led != trump and any(c >> 4 == led for c in hand):
        rule = "must follow the led suit (any card of it)"
    elif led == trump:
        if not trumps:
            rule = "trump led, holding no trump: any card"
        elif all(c >> 4 == trump for c in legal) and len(legal) < len(trumps):
            rule = "trump led: must overtrump the highest trump"
        else:
            rule = "trump led, cannot overtrump: any trump"
    elif not trumps:
        rule = "void in the led suit, no trump: any card"
    elif rules.amsterdam and pw:
        rule = ("amsterdam, partner winning: no need to trump, but no trump lower than the "
                "trick's highest while holding another card")
    elif all(c >> 4 == trump for c in legal) and (hi < 0 or
                                                  any(knb.beats_nb(c, hi, led, trump) for c in legal)):
        rule = ("void in the led suit: must trump" if hi < 0 else
                "void in the led suit: must overtrump (also over the partner)")
    elif all(c >> 4 != trump for c in legal):
        rule = "void, cannot overtrump: must discard a non-trump (no undertrumping)"
    elif rules.undertrump_forced and len(legal) < len(hand):
        rule = "void, cannot overtrump: must undertrump (undertrump=forced)"
    elif rules.undertrump_forced:
        rule = "void, cannot overtrump: must undertrump (undertrump=forced)"
    else:
        rule = "void, cannot overtrump, only trumps left: undertrumping is forced"
    return legal, rule


def explain_klaverjassen(trump, trick, hand=None, variants=(), notation="en"):
    rules = build_rules(variants)
    t = parse_suit(trump, notation)
    cards = parse_cards(trick, notation, deck=32)
    if hand is None:
        if len(cards) != 4:
            raise RulesError(f"a complete trick has 4 cards, got {len(cards)} (give --hand to ask "
                             "which cards may be played to a partial trick)")
        led, winner, wpos, hi = _trick_state(cards, t)
        pts = sum(int(knb.points_nb(c, t)) for c in cards)
        items = roem_items(cards, t, rules.flags, notation)
        return {"winner": wpos, "winner_card": card_str(cards[wpos], notation),
                "card_points": pts, "roem": sum(i["points"] for i in items), "roem_items": items,
                "last_trick_bonus": LAST_TRICK}
    hcards = parse_cards(hand, notation, deck=32)
    if not hcards:
        raise CardError("--hand is empty")
    if len(hcards) > 8:
        raise RulesError(f"a Klaverjassen hand holds at most 8 cards, got {len(hcards)}")
    if len(cards) > 3:
        raise RulesError(f"the trick so far has at most 3 cards when asking for legal cards, got {len(cards)}")
    clash = set(hcards) & set(cards)
    if clash:
        raise CardError(f"card {card_str(min(clash), notation)} is both in the hand and in the trick")
    legal, rule = legal_rule(hcards, cards, t, rules)
    return {"legal": [card_str(c, notation) for c in legal], "rule": rule}


def explain_boerenbridge(trick, trump=None, trump_card=None, hand=None, notation="en"):
    """Who wins a Boerenbridge trick, or which cards a hand may play to it."""
    from fastsim.cards import card_str, parse_card, parse_cards, parse_suit
    from fastsim.trick import resolve_tricks
    if trump is not None and trump_card is not None:
        raise ValueError("give --trump or --trump-card, not both")
    if trump_card is not None:
        tcard = parse_card(trump_card, notation)
        t = tcard // 16
    elif trump is None or trump.strip().isascii() and trump.strip().lower() in ("none", "nt", "-"):
        tcard, t = None, -1
    else:
        tcard, t = None, parse_suit(trump, notation)
    tcards = parse_cards(trick, notation)
    if len(tcards) > 7:
        raise ValueError(f"a trick has at most 7 cards, got {len(tcards)}")
    if tcard is not None and tcard in tcards:
        raise ValueError(f"the turned card {card_str(tcard, notation)} is out of play")
    if hand is None:
        if not tcards:
            raise ValueError("--trick needs at least one card (or give --hand)")
        w = int(resolve_tricks(np.array([tcards]), t)[0])
        return {"winner": w, "winner_card": card_str(tcards[w], notation)}
    hcards = parse_cards(hand, notation)
    if not hcards:
        raise ValueError("--hand is empty")
    clash = set(hcards) & (set(tcards) | ({tcard} if tcard is not None else set()))
    if clash:
        raise ValueError(f"card {card_str(min(clash), notation)} is both in the hand and on the table")
    from .boerenbridge_play import pq
    led = tcards[0] // 16 if tcards else -1
    mask = int(pq.follow_nb(np.int64(mask_of(hcards)), len(tcards), led))   # the kernel's rule
    legal = [c for c in sorted(hcards) if mask >> c & 1]
    if not tcards:
        rule = "leading: any card"
    elif all(c // 16 == led for c in legal):
        rule = "must follow the led suit"
    else:
        rule = "void in the led suit: any card (no duty to trump)"
    return {"legal": [card_str(c, notation) for c in legal], "rule": rule}


def render_explain(payload):
    """An explain answer (either game) as one text line."""
    if "legal" in payload:
        return [f"legal: {' '.join(payload['legal'])} ({payload['rule']})"]
    if "roem_items" not in payload:
        return [f"winner: {payload['winner_card']} (card {payload['winner'] + 1} of the trick)"]
    items = ", ".join(f"{i['name']} {i['points']}" for i in payload["roem_items"]) or "none"
    return [f"winner: {payload['winner_card']} (card {payload['winner'] + 1}); "
            f"card points {payload['card_points']}; roem {payload['roem']} ({items})"]


def solve_klaverjassen(hands, trump, leader=0, playing_team=0, trick="", cards=False,
                       variants=(), notation="en"):
    """Double-dummy analysis from CLI-style text: four hands separated by "/"."""
    from fastsim import klaverjassen_dd as kdd
    from fastsim.cards import parse_cards, parse_suit
    from fastsim.common import RulesError
    from fastsim.klaverjassen_schema import build_rules
    parts = hands.split("/")
    if len(parts) != 4:
        raise RulesError(f'give four hands separated by "/", got {len(parts)}')
    hs = [parse_cards(p, notation, deck=32) for p in parts]
    tr = parse_cards(trick, notation, deck=32)
    return kdd.solve(hs, parse_suit(trump, notation), build_rules(variants), leader=leader,
                     playing_team=playing_team, trick=tr, cards=cards, notation=notation)


def render_solve(r, playing_team, show_cards):
    lines = [f"margin for team {playing_team} (card points + roem, perfect play): {r['margin']:+d}",
             f"team {playing_team} {'makes it' if r['makes'] else 'goes nat'}",
             "pit: " + (f"team {r['pit_team']} can force all remaining tricks" if r["pit_possible"]
                        else "neither team can force it")]
    if show_cards:
        lines.append("cards: " + "  ".join(f"{c['card']} {c['margin']:+d}" for c in r["cards"]))
    lines.append(f"search: {r['nodes']:,} nodes in {r['seconds'] * 1000:.1f} ms")
    return lines
