"""The multiplier presets: named by their keys, each with its operators'
sources, the cards and multipliers they publish, a stable id, and the
largest win of each bet (their returns are in test_multiplier_odds.py)."""

from decimal import Decimal

import pytest

from service.baccarat.multipliers.odds import largest_pays
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.rule import MULTIPLIED_BETS

#: The presets' ids: they change only when a preset's rule does.
IDS = {
    "lightning": "c15a53feeda9ecf7",
    "golden_wealth": "2c0db03c516c4b35",
    "prosperity_tree": "9ab3b440b28b77c1",
}


@pytest.mark.parametrize("name", PRESETS)
def test_a_preset_s_id_is_stable(name):
    assert PRESETS[name].rule.id == IDS[name]


def test_the_presets_are_named_by_their_keys_and_describe_their_sources():
    for name, preset in PRESETS.items():
        assert preset.name == name
        assert preset.sources
        assert all(source.url.startswith("https://") for source in preset.sources)
        # The weights are this service's, and say so.
        assert any("example weights" in (source.note or "") for source in preset.sources)
        assert set(preset.published) <= set(preset.rule.pays)
        assert preset.rule.bet_types == MULTIPLIED_BETS
        assert preset.rule.fee.rate == Decimal("0.2")
        assert not preset.rule.fee.returned_on_push


@pytest.mark.parametrize(
    ("preset", "cards", "multipliers"),
    [
        ("lightning", {1, 2, 3, 4, 5}, {2, 3, 4, 5, 8}),
        ("golden_wealth", {5}, {2, 3, 5, 8}),
        ("prosperity_tree", {8}, {2, 3}),
    ],
)
def test_each_preset_draws_the_cards_and_multipliers_its_operator_publishes(preset, cards, multipliers):
    made = PRESETS[preset].rule
    assert set(made.cards) == cards
    assert set(made.multipliers) == multipliers


#: Each preset's largest win per unit staked, bet by bet, as its operator
#: prints the top of each range (the Banker's less the 5% of the stake it keeps).
LARGEST = {
    "lightning": {
        "player": "512",
        "banker": "511.95",
        "tie": "1310720",
        "player_pair": "576",
        "banker_pair": "576",
    },
    "golden_wealth": {
        "player": "512",
        "banker": "511.95",
        "tie": "1310720",
        "player_pair": "576",
        "banker_pair": "576",
    },
    "prosperity_tree": {
        "player": "27",
        "banker": "26.95",
        "tie": "3645",
        "player_pair": "90",
        "banker_pair": "90",
    },
}


@pytest.mark.parametrize("name", PRESETS)
def test_the_largest_win_of_every_bet_of_every_preset(name):
    assert {str(bet): str(pays) for bet, pays in largest_pays(PRESETS[name].rule).items()} == LARGEST[name]
