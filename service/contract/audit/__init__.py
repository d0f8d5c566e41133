"""Signed answers and their audit (docs/audit.md), one room each:

* :mod:`.keys`: the Ed25519 keys, their ids and the JWK Set that publishes them;
* :mod:`.signing`: the signature an answer carries (RFC 9421, RFC 9530);
* :mod:`.verification`: the verdict on a stored exchange's signature;
* :mod:`.exchange`: a stored exchange (a request and the answer it got) and
  its JSON form, which the contract's own schema reads
  (:func:`service.contract.schemas.audit.stored_exchange`).

No Flask here: the command line verifies with the same code as the service.
"""
