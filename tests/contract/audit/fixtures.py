"""One signed exchange, shared by the audit tests."""

from service.contract.audit.exchange import Exchange, StoredRequest, StoredResponse
from service.contract.audit.keys import SigningKey
from service.contract.audit.signing import sign

KEY = SigningKey.generate()
REQUEST = StoredRequest("POST", "http://127.0.0.1:8000/v1/rounds", b'{"seed":"abc","bets":[]}')
BODY = b'{"outcome":"banker","engine":{"name":"baccarat-service","version":"0.1.0"}}'
UNSIGNED = Exchange(REQUEST, StoredResponse(200, {"Content-Type": "application/json"}, BODY))
SIGNED = UNSIGNED.with_headers(sign(KEY, REQUEST, 200, "application/json", BODY))
