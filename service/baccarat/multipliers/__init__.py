"""The multiplier games (docs/multipliers.md): a rule, its cards, its settlement, its odds.

The rule an operator or a preset gives, checked field by field
(:mod:`.rule`), its faults as problems (:mod:`.problems`), the presets
(:mod:`.presets`), the multiplier cards drawn from a seed or given by a
studio (:mod:`.cards`) and a shoe's cards round by round (:mod:`.shoes`),
a slip settled by the rule (:mod:`.settlement`), and its exact returns
(:mod:`.odds`). It imports the rulebook, the bets, the shoes and the
counting of rounds; the tables and the round above it name it.
"""
