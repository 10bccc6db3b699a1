"""The Python relay client (clients/python/onboarding_relay.py) against the emulator in a container,
with a receiver on the host's 127.0.0.1. Run by test/image/relay-clients.test.ts, which reads the
RESULT line and checks the emulator's side; EMULATOR_URL and EMULATOR_CONTAINER come from it.
"""

import hashlib
import hmac
import json
import os
import subprocess
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from onboarding_relay import Relay, RelayError, onboarding_relay  # noqa: F401 (the fixture)

BASE = os.environ["EMULATOR_URL"]
OWNER = "hrs_test_acme_owner"
RECEIVER_STATUS = 202


def call(method, path, body, key=None):
    req = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method=method, headers={"Content-Type": "application/json"})
    if key:
        req.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.load(res)


@pytest.fixture
def receiver():
    """A server on the host's 127.0.0.1 that keeps what it got, byte for byte, and answers 202."""
    got = []
    arrived = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            got.append((dict(self.headers), self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(RECEIVER_STATUS)
            self.send_header("Content-Length", "0")
            self.end_headers()
            arrived.set()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/hooks", got, arrived
    server.shutdown()
    server.server_close()


def test_an_emulator_that_refuses_is_a_clear_error():
    with pytest.raises(RelayError) as refused:
        Relay(BASE, workspace="ws_no_such_workspace")
    assert refused.value.status == 404
    assert "ws_no_such_workspace" in str(refused.value)


def test_an_unreachable_emulator_is_a_clear_error():
    with pytest.raises(RelayError, match="cannot reach the emulator"):
        Relay("http://127.0.0.1:9", forward_to="http://127.0.0.1:9/hooks")


def test_the_fixture_brings_a_signed_message_to_the_host(onboarding_relay, receiver):
    url, got, arrived = receiver
    workspace = call("POST", "/_emulator/workspaces", {})
    key = next(k["key"] for k in workspace["keys"] if k["key"].startswith("hrs_test_acme_owner_"))
    relay = onboarding_relay(BASE, workspace=workspace["id"], forward_to=url)
    # The container cannot reach this address; only the relay delivers to it.
    hook = call("POST", "/v1/webhooks", {"url": "http://host.invalid/hooks", "events": ["onboarding.created"]}, key)
    created = call("POST", "/v1/onboardings", {
        "reference": "python-relay",
        "employee": {"first_name": "Ada", "last_name": "Python", "email": "ada.python@example.test"},
        "employment": {"position": "Cashier", "start_date": "2026-12-01", "location_id": "loc_acme_amsterdam",
                       "template_id": "tpl_acme_standard", "hours_per_week": 24, "hourly_wage_cents": 1400},
    }, key)
    assert arrived.wait(15), "no message reached the receiver"
    headers, body = got[0]
    t, v1 = (part.split("=", 1)[1] for part in headers["Service-Signature"].split(",")[:2])
    expected = hmac.new(hook["secret"].encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(v1, expected)
    assert json.loads(body)["data"]["onboarding_id"] == created["id"]
    print("RESULT " + json.dumps({
        "relay": relay.id, "workspace": workspace["id"], "key": key, "webhook": hook["id"], "secret": hook["secret"], "event_id": headers["Service-Event-Id"],
        "signature": headers["Service-Signature"], "body": body.decode("utf-8"),
    }), flush=True)


def test_an_emulator_that_goes_away_ends_the_relay_with_an_error():
    relay = Relay(BASE, key=OWNER, forward_to="http://127.0.0.1:9/hooks", wait_ms=20_000)
    subprocess.run(["docker", "kill", os.environ["EMULATOR_CONTAINER"]], check=True, stdout=subprocess.DEVNULL)
    # Three connection errors in a row, 0.3 s apart, then the relay calls the emulator lost: no hang.
    assert relay.wait(10), "the relay still runs with its emulator gone"
    assert relay.lost
    with pytest.raises(RelayError, match="ended early"):
        relay.close()
    print("LOST " + relay.lost, flush=True)
