"""ladder.toml (arena/ladder/config.py): the written example reads back,
and each bad value is one line naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.ladder.config import LadderConfigError, load_config
from arena.ladder.create import new_ladder

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "sample_bots" / "random"


def test_the_example_reads_back(tmp_path: Path) -> None:
    path = new_ladder(tmp_path / "l", [RANDOM], seed=2**62)
    config = load_config(tmp_path / "l")
    assert config.seed == 2**62 and config.name == "l"
    assert config.reference == (str((tmp_path / "l" / "reference" / "random").resolve()),)
    assert config.match.rules_options == (("max_deals", 6),)
    assert config.match.keep_logs == "faults"
    text = path.read_text()
    path.write_text(text.replace('sandbox = "auto"', 'sandbox = "auto"\nkeep_logs = "all"', 1))
    assert load_config(tmp_path / "l").match.keep_logs == "all"
    assert (path.stat().st_mode & 0o777) == 0o600  # the seed is the organiser's
    with pytest.raises(Exception, match="exists already"):
        new_ladder(tmp_path / "l", [RANDOM])


@pytest.mark.parametrize(("edit", "fragment"), [
    (("seed = ", "sed = "), "key 'sed': unknown key (did you mean 'seed'?)"),
    (("tau = 0.2", "tau = -1"), "key 'ratings.tau': must be 0..25"),
    (("tau = 0.2", "tau = nan"), "key 'ratings.tau': must be a finite number"),
    (("files = 1000", "files = true"), "key 'quotas.files': must be an integer"),
    (("nearest = 4", "nearest = 4\nfar = 2"), "key 'matchmaking.far': unknown key"),
    (('"reference/random",', '"reference/nothing",'), "key 'reference[0]'"),
    (("max_deals = 6", "max_deals = 0"), "key 'rules.max_deals'"),
    (('sandbox = "auto"', 'sandbox = "vm"'), "key 'sandbox': unknown level 'vm'"),
    (('sandbox = "auto"', 'sandbox = "auto"\nkeep_logs = "some"'),
     "key 'keep_logs': unknown choice 'some' (choose faults, all)"),
])
def test_bad_values_are_one_line(tmp_path: Path, edit: tuple[str, str], fragment: str) -> None:
    path = new_ladder(tmp_path / "l", [RANDOM])
    text = path.read_text()
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(LadderConfigError) as caught:
        load_config(tmp_path / "l")
    assert fragment in str(caught.value) and str(path) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_no_reference_bot_is_refused(tmp_path: Path) -> None:
    path = new_ladder(tmp_path / "l", [RANDOM])
    path.write_text(path.read_text().replace('    "reference/random",\n', ""))
    with pytest.raises(LadderConfigError, match="at least one reference bot"):
        load_config(tmp_path / "l")
