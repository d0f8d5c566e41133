"""The certification kit: the evidence a testing laboratory asks for before
an RNG baccarat goes live (docs/certification.md), one room per concern:

* :mod:`.exact`: the game's math, exact, per bet and pay-table line, with
  the GLI-11 check that every award can be won;
* :mod:`.shuffle_tests`: the service's shuffle over many shoes (cards by
  position, the first card and the burn, adjacent pairs, runs, distances
  between equal ranks, repeated shoes);
* :mod:`.bit_tests`: the shuffle's HMAC bit stream through the NIST SP
  800-22 tests that fit its length, corrected where the publication fails
  a true random source;
* :mod:`.million_bits`: the NIST SP 800-22 tests that need 10⁶ bits, on
  sequences of 76 consecutive shoes' streams;
* :mod:`.dieharder`: the same stream through dieharder, where it is
  installed;
* :mod:`.verdicts`: every statistical test of a report judged in one
  family at 99% (Holm);
* :mod:`.agreement`: the vectorised simulator's returns and line counts
  against the exact math;
* :mod:`.recall`: rounds of the run re-dealt, with the command and request
  that deal each again;
* :mod:`.given_shoes`: shoes an operator's RNG or a shuffler produced
  (``certify --shoes``), read and checked line by line, dealt like the
  service's;
* :mod:`.gallery`: bad shuffles, each a documented generator, to measure
  what the shuffle tests can see;
* :mod:`.workers`: the work split by shoe number over in-process, local
  (Dask ``LocalCluster``) or remote (a Dask scheduler) workers;
* :mod:`.report` and :mod:`.page`: ``report.json`` and ``report.html``.

The statistics are scipy.stats'; the engine's own public functions deal,
shuffle and count. Nothing here imports Flask or marshmallow.
"""
