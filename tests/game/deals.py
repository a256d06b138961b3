"""Fixed deals used by the scenario tests (each checked to total 24 cards
and 120 points by test_fixed_deals_are_whole_decks). Hands are seat 0, 1, 2;
with dealer 2 seat 0 opens (its 100 is compulsory) and seat 1 acts first.
None of them meets a redeal condition of any preset (docs/rules.md#option-details)."""

from __future__ import annotations

# Two marriages for seat 0 (hearts 100, clubs 60: cap 280), spades for seat 2
# (cap 160), none for seat 1 (cap 120).
MARRIAGES = (
    ("AH TH KH QH KC QC AS", "TS JS 9S AD KD JH JC", "KS QS TD QD 9D 9H TC"),
    "JD AC 9C",
)
# After `give JD 1`, `give 9C 2` the declarer (seat 0) holds
# AH TH KH QH KC QC AS AC and leads AS, then KH (marriage), then KC (marriage).
MARRIAGES_GIVES = ("0: give JD 1", "0: give 9C 2")

# Following rules: after `give TS 1`, `give AS 2` the hands are
#   0: AC TC KC QC JC 9C 9D AH   1: KD TH JH KS QS JS 9S TS   2: AD TD QD JD KH QH 9H AS
# trick 1: 0 leads 9D, 1 must play KD, 2 must beat KD (AD/TD) where must_beat is on;
# trick 2: 2 leads KH marriage, 0 must play AH, 1 plays TH;
# trick 3: 0 leads AC, 1 must trump with JH (must_trump), 2 must over-trump with QH
# (suit_and_trump) rather than 9H.
FOLLOWING = (
    ("AC KC QC 9D AH TS AS", "KD TH JH KS QS JS 9S", "AD TD QD JD KH QH 9H"),
    "TC 9C JC",
)
FOLLOWING_GIVES = ("0: give TS 1", "0: give AS 2")

# The worked example of the Estonian document (seeds/001, "Samm 9"): contract
# 120, the declarer takes 78 card points and declares clubs (60) = 138 -> +120;
# the opponents take 24 and 18 -> 20 each. After `give 9D 1`, `give 9S 2`:
#   0: AH TH KC QC QD QS AC TC   1: KH 9H JC AD KD JD 9D KS   2: QH JH 9C TD AS TS JS 9S
EXAMPLE_001 = (
    ("AH TH KC QC QD AC 9S", "KH 9H JC AD KD JD KS", "QH JH 9C TD AS TS JS"),
    "QS 9D TC",
)
EXAMPLE_001_GIVES = ("0: give 9D 1", "0: give 9S 2")
# The eight tricks (leader first); `M` marks the marriage lead.
EXAMPLE_001_TRICKS = (
    ("0: play AH", "1: play 9H", "2: play JH"),          # 0 wins 13
    ("0: play TH", "1: play KH", "2: play QH"),          # 0 wins 17
    ("0: M KC", "1: play JC", "2: play 9C"),             # 0 declares clubs (60), wins 6
    ("0: play QD", "1: play AD", "2: play TD"),          # 1 wins 24
    ("1: play 9D", "2: play 9S", "0: play QC"),          # 0 trumps, wins 3
    ("0: play QS", "1: play KS", "2: play AS"),          # 2 wins 18
    ("2: play JS", "0: play TC", "1: play JD"),          # 0 trumps, wins 14
    ("0: play AC", "1: play KD", "2: play TS"),          # 0 wins 25
)

# All four aces for seat 0 (ace marriage, Czech 200). After `give 9H 1`,
# `give JH 2`: 0: AC AD AH AS TC TD TH KH, leads TC then an ace.
ACES = (
    ("AC AD AH AS TC TD TH", "KC QC JC 9C KD QD 9D", "TS KS QS JS 9S QH JD"),
    "KH JH 9H",
)
ACES_GIVES = ("0: give 9H 1", "0: give JH 2")

ALL = {"MARRIAGES": MARRIAGES, "FOLLOWING": FOLLOWING, "EXAMPLE_001": EXAMPLE_001, "ACES": ACES}
