"""The arena's paired comparison of hard as it plays against its full search
(scripts/arena.py ``--against-full``)."""

from __future__ import annotations

from tests.scripts import load_script

arena = load_script("arena")


def test_the_paired_comparison_counts_the_games_each_arm_did_better_in() -> None:
    early = [1.0, 0.0, 0.5, 1.0, 1.0]
    full = [1.0, 1.0, 0.5, 0.0, 0.5]
    compared = arena.paired(early, full)
    assert (compared["early_better"], compared["full_better"]) == (2, 1)
    assert compared["mean_difference"] == 0.1  # (0 - 1 + 0 + 1 + 0.5) / 5
    low, high = compared["ci95"]
    assert low < 0.1 < high
    # Three games split two to one: as likely as not under an even coin.
    assert compared["sign_test_p"] == 1.0


def test_the_sign_test_is_two_sided_and_exact() -> None:
    # Six games all won by one arm: 2 / 2**6 either way.
    assert arena.paired([1.0] * 6, [0.0] * 6)["sign_test_p"] == round(2 / 64, 3)
    assert arena.paired([0.0] * 6, [1.0] * 6)["sign_test_p"] == round(2 / 64, 3)
    # Eight to one: 2 * (1 + 9) / 2**9.
    compared = arena.paired([1.0] * 8 + [0.0], [0.0] * 8 + [1.0])
    assert compared["sign_test_p"] == round(2 * 10 / 512, 3)


def test_both_arms_play_the_same_seeds_and_are_compared() -> None:
    lines = arena.match("stuck", 2, ("hard", "normal"), range(3, 5), 16, 1, arms=(False, True))
    early, full, comparison = lines
    assert (early["full_search"], full["full_search"]) == (False, True)
    assert early["games"] == full["games"] == 2
    assert comparison["early_against_full"]["games"] == 2
