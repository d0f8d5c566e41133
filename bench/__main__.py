"""``python -m bench``: every benchmark, one section each."""

from . import (
    certify,
    certify_power,
    certify_rates,
    dieharder_rates,
    fairness,
    hostile,
    languages,
    largest,
    live,
    load,
    odds,
    paths,
    peers,
    profile,
    round_parts,
    rounds,
    shoes,
    signing,
    simulate,
    sizing,
    tracing,
)

SECTIONS = [
    ("Sizing: what one worker serves (docs/operations/sizing.md)", sizing.run),
    ("The engine against its peers, on the same shoes", peers.run),
    ("Rounds and settlement: against the empty endpoint and the signed ceiling", rounds.run),
    ("Where a served request's time goes: one worker sampled under load", profile.run),
    ("Where a signed round's time goes, in process", round_parts.run),
    ("The largest valid multiplier settlement, in process", largest.run),
    ("Signed answers: the cost of signing", signing.run),
    ("Traces: off as shipped, and on", tracing.run),
    ("The answer's language, in process", languages.run),
    ("Plain paths and gc.freeze, in-process", paths.run),
    ("Shoes", shoes.run),
    ("Live tables", live.run),
    ("Exact odds", odds.run),
    ("The vectorised simulator", simulate.run),
    ("The certification kit", certify.run),
    ("The certification kit's false-failure rates", certify_rates.run),
    ("The certification kit's power: the gallery of bad shuffles", certify_power.run),
    ("The certification kit's dieharder stage: false failures and power", dieharder_rates.run),
    ("Fair service under load: shipped and sync reference", fairness.run),
    ("Load and faults under gunicorn", load.run),
    ("Hostile and slow clients", hostile.run),
]

for title, run in SECTIONS:
    print(f"== {title}", flush=True)
    for line in run():
        print(line, flush=True)
