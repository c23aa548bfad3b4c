import pytest

from fastsim import cards
from fastsim.cards import CardError, card_str, parse_card, parse_cards


def test_codes_and_deck_sizes():
    assert parse_card("2S") == 0 and parse_card("AS") == 12
    assert parse_card("2H") == 16 and parse_card("AC") == 60
    assert len(cards.deck_codes(52)) == 52 and len(set(cards.deck_codes(52))) == 52
    d32 = cards.deck_codes(32)
    assert len(d32) == 32 and min(cards.rank_of(c) for c in d32) == cards.RANK_7
    assert bin(cards.deck_mask(52)).count("1") == 52
    assert bin(cards.deck_mask(32)).count("1") == 32
    assert cards.deck_mask(52) < 2**63


@pytest.mark.parametrize("text,code", [
    ("AS", 12), ("as", 12), ("10H", 24), ("TH", 24), ("th", 24), ("Q♥", 26), ("2♣", 48),
    ("K♦", 43), (" 9d ", 39),
])
def test_english_notation(text, code):
    assert parse_card(text) == code


@pytest.mark.parametrize("text,en", [
    ("HH", "KH"), ("10R", "TD"), ("BK", "JC"), ("VS", "QS"), ("AK", "AC"), ("7r", "7D"),
    ("tH", "TH"),
])
def test_dutch_notation(text, en):
    assert parse_card(text, notation="nl") == parse_card(en)
    assert card_str(parse_card(en), notation="nl").upper() == text.upper().replace("10", "T")


def test_roundtrip_every_card():
    for c in cards.deck_codes(52):
        assert parse_card(card_str(c)) == c
        assert parse_card(card_str(c, unicode=True)) == c
        assert parse_card(card_str(c, "nl"), "nl") == c


@pytest.mark.parametrize("bad", ["", "A", "1S", "11H", "AX", "ZS", "AH1", "10", "♥"])
def test_unknown_cards_rejected(bad):
    with pytest.raises(CardError) as e:
        parse_card(bad)
    assert "\n" not in str(e.value)


def test_notation_is_explicit():
    # "KH" is king of hearts in English, but "K" is not a Dutch rank letter for kings... it is
    # klaveren as a suit: "HK" = heer klaveren in Dutch, heart-king is invalid in English
    assert parse_card("HK", notation="nl") == parse_card("KC")
    with pytest.raises(CardError):
        parse_card("HK")
    with pytest.raises(CardError):
        parse_card("AS", notation="xx")


def test_duplicates_and_32_deck():
    assert parse_cards("AS, KS 10h") == [12, 11, 24]
    with pytest.raises(CardError, match="duplicate"):
        parse_cards("AS KS as")
    with pytest.raises(CardError, match="duplicate"):
        parse_cards("TH 10H")
    with pytest.raises(CardError, match="32-card"):
        parse_cards("6S AS", deck=32)
    assert parse_cards("7S AS", deck=32) == [5, 12]


def test_masks():
    codes = parse_cards("2S AS 7H KC")
    m = cards.mask_of(codes)
    assert cards.codes_of(m) == sorted(codes)
    assert cards.codes_of(0) == []


def test_bit_helpers_compiled():
    from fastsim import bits
    m = cards.mask_of(parse_cards("3S QS 5H 3D KC"))
    assert bits.popcount_nb(m) == 5
    assert bits.lowest_nb(m) == parse_card("3S")
    assert bits.highest_nb(m) == parse_card("KC")
    assert bits.low_card_nb(m) == parse_card("3S")   # rank 3 twice: lowest suit index wins
    assert bits.high_card_nb(m) == parse_card("KC")
    assert bits.nth_card_nb(m, 2) == parse_card("5H")
    assert bits.suit_ranks_nb(m, 0) == (1 << 1) | (1 << 10)
    assert bits.high_card_nb(cards.mask_of(parse_cards("KS KH 2C"))) == parse_card("KS")
