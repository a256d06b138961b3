"""The pure parts of the results bundle and `arena verify`: the manifest
chain, the comparison of tables, the two deal-seed derivations. The whole
command, on a real tournament, is tests/tournament/test_verify.py."""

from __future__ import annotations

from arena.tournament.plan import schedule
from arena.tournament.results import bundle_format as fmt
from arena.verify.table import first_difference


def test_the_chain_depends_on_every_match_and_its_order() -> None:
    start = fmt.chain_start("a" * 64, "b" * 64)
    pairs = [("m1", "h1"), ("m2", "h2"), ("m3", "h3")]
    links = fmt.chain(start, pairs)
    assert len(set(links)) == 3
    assert fmt.chain(start, [pairs[1], pairs[0], pairs[2]])[-1] != links[-1]   # reordered
    assert fmt.chain(start, [pairs[0], pairs[2]])[-1] != links[-1]             # one removed
    assert fmt.chain(start, [pairs[0], ("m2", "hx"), pairs[2]])[-1] != links[-1]  # changed
    assert fmt.chain(fmt.chain_start("a" * 64, "c" * 64), pairs)[-1] != links[-1]  # table edited
    assert fmt.chain(start, pairs) == links                                     # deterministic


def test_first_difference_names_the_row_the_bot_and_the_key() -> None:
    published = {"rows": [{"bot": "a", "mu": 25.0}, {"bot": "b", "mu": 21.357}]}
    computed = {"rows": [{"bot": "a", "mu": 25.0}, {"bot": "b", "mu": 21.356}]}
    assert first_difference(published, computed) == \
        "rows[1] (b).mu: published 21.357, recomputed 21.356"
    assert first_difference(computed, computed) is None
    assert first_difference({"rows": []}, {"rows": [{"bot": "a"}]}) == \
        "rows: 0 entries published, 1 computed"
    # 1 and 1.0 print differently: not the same table.
    assert first_difference({"x": 1}, {"x": 1.0}) == "x: published 1, recomputed 1.0"


def test_every_table_played_gives_the_fresh_derivation() -> None:
    field = ["a@1", "b@1", "c@1"]
    names = ["a", "b", "c"]
    shared = schedule.plan(field, 1, 99, names=names)
    fresh = schedule.plan(field, 1, 99, names=names, played=schedule.EVERY_TABLE_PLAYED)
    assert [m.match_id for m in shared] == [m.match_id for m in fresh]
    key = schedule.table_key(names)
    played = {(0, schedule.table_digest(key)): {frozenset({"a@0", "b@1", "c@1"})}}
    real = schedule.plan(field, 1, 99, names=names, played=played)
    assert {m.seed for m in fresh} == {m.seed for m in real} != {m.seed for m in shared}
