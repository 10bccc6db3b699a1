"""The onboarding emulator's webhook relay, for Python tests: standard library only (3.9+), one file.

A receiver in your test process on the host cannot be reached by an emulator in a container. The
relay opens itself on the emulator, long-polls for the webhook messages of the workspace, posts
each to the receiver byte for byte with its signature headers, and reports what the receiver
answered, so retries, auto-disable and the delivery log behave as for a direct delivery. It
speaks the same protocol as `onboarding-emulator listen` (docs/relay.md).

    with Relay("http://127.0.0.1:4010", forward_to="http://127.0.0.1:3000/hooks") as relay:
        ...  # make events happen; the receiver gets them

With pytest, the `onboarding_relay` fixture starts relays and closes them after the test:

    from onboarding_relay import onboarding_relay  # noqa: F401 (registers the fixture)

    def test_hooks(onboarding_relay):
        onboarding_relay("http://127.0.0.1:4010", forward_to=receiver_url)
"""

import http.client
import json
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["Relay", "RelayError", "onboarding_relay"]

DEFAULT_WAIT_MS = 25_000
# Connection errors in a row the relay rides out (a restarting proxy, a busy engine) before it calls the emulator lost.
RETRIES = 3
RETRY_PAUSE_S = 0.3
# How long a call to the emulator may take beyond its long poll's wait: a frozen emulator is an error, not a hang.
CONTROL_TIMEOUT_S = 10
# Enough of a receiver's error page to tell what went wrong; the rest is never read.
BODY_CAP_BYTES = 4096
EXCERPT_CHARS = 300
# Set from the body when it is sent; a message's own value could only disagree.
OWN_HEADERS = {"content-length", "transfer-encoding", "connection"}


class RelayError(Exception):
    """The emulator refused (`status` and `code` of its error envelope), could not be reached, or went away."""

    def __init__(self, message, status=None, code=None):
        super().__init__(message)
        self.status = status
        self.code = code


class Relay:
    """Opens a relay on the emulator at `url` and relays in a thread of its own until close().

    forward_to: the one URL every message goes to; left out, each to its address's URL as seen from here.
    key / workspace: the workspace to relay for (a key of it, or its id); neither: the default workspace.
    url_prefix: take only the addresses whose URL starts with this; a message outside it is reported refused, never posted.
    on_delivery: called with a dict (message_id, event_id, event_type, url, status_code, error, duration_ms, recorded) after each report.

    An emulator that refuses the open raises RelayError with its status and code; one that
    cannot be reached raises RelayError. One that goes away later ends the relay: `lost` then
    says why, and close() raises it.
    """

    def __init__(self, url, forward_to=None, key=None, workspace=None, url_prefix=None, wait_ms=DEFAULT_WAIT_MS, on_delivery=None):
        if forward_to is not None and urllib.parse.urlsplit(forward_to).scheme not in ("http", "https"):
            raise ValueError(f"forward_to must be an http:// or https:// URL, such as http://127.0.0.1:3000/webhooks; got {forward_to!r}")
        self._base = url.rstrip("/")
        self._key = key
        # The relay's paths, under the workspace's own when one is named (the key then picks nothing).
        self._relays = "/_emulator/relays" if workspace is None else "/_emulator/workspaces/" + urllib.parse.quote(workspace, safe="") + "/relays"
        self._forward_to = forward_to
        self._url_prefix = url_prefix
        self._wait_ms = wait_ms
        self._on_delivery = on_delivery
        body = {}
        if url_prefix is not None:
            body["url_prefix"] = url_prefix
        if forward_to is not None:
            body["forward_to"] = forward_to
        opened = self._call("POST", "", body)
        # The token goes with the relay's own calls only (claim, report, close), never into `info`.
        self._token = opened.pop("token")
        self.info = opened
        self.id = opened["id"]
        self.lost = None
        self._stopping = threading.Event()
        self._ended = threading.Event()
        self._posting = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name=f"onboarding-relay-{self.id}", daemon=True)
        self._thread.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def wait(self, timeout=None):
        """Blocks until the relay has ended (closed, or the emulator went away); True if it has."""
        return self._ended.wait(timeout)

    def close(self):
        """Finishes the messages being posted, closes the relay on the emulator; raises RelayError if it was lost before."""
        self._stopping.set()
        self._join_posting()
        try:
            # Closing ends the long poll waiting on the emulator, so the loop sees the stop at once.
            self._call("DELETE", f"/{self.id}", token=True)
        except RelayError:
            pass
        self._thread.join(CONTROL_TIMEOUT_S)
        self._join_posting()
        if self.lost is not None:
            raise RelayError(f"relay {self.id} ended early: {self.lost}")

    def _join_posting(self):
        while True:
            with self._lock:
                threads = list(self._posting)
            if not threads:
                return
            for t in threads:
                t.join()

    def _loop(self):
        failures = 0
        try:
            while not self._stopping.is_set():
                try:
                    claimed = self._call("POST", f"/{self.id}/claim", {"wait_ms": self._wait_ms}, token=True, timeout=self._wait_ms / 1000 + CONTROL_TIMEOUT_S)
                except RelayError as err:
                    if self._stopping.is_set():
                        return
                    if err.status is not None:
                        self.lost = _lost_because(err, self.id)
                        return
                    failures += 1
                    if failures > RETRIES:
                        self.lost = str(err)
                        return
                    time.sleep(RETRY_PAUSE_S)
                    continue
                failures = 0
                # Claimed messages are posted even while stopping: the emulator waits for their reports.
                for message in claimed["data"]:
                    t = threading.Thread(target=self._forward, args=(message,), daemon=True)
                    with self._lock:
                        self._posting.add(t)
                    t.start()
                if claimed.get("stopping"):
                    self.lost = "the emulator is stopping"
                    return
        except Exception as err:  # an answer it cannot read: the relay ends saying why, never silently
            self.lost = f"the relay failed: {err!r}"
        finally:
            self._ended.set()

    def _forward(self, message):
        try:
            # The prefix bounds what this relay posts, whatever the emulator hands it: outside it, nothing is sent.
            outside = self._url_prefix is not None and not message["url"].startswith(self._url_prefix)
            target = message["url"] if outside or self._forward_to is None else self._forward_to
            if outside:
                status, error, duration = None, f"refused by the relay: {message['url']} does not start with its url_prefix {self._url_prefix}", 0
            else:
                status, error, duration = post(target, message["headers"], message["body"].encode("utf-8"), message["timeout_ms"])
            recorded = True
            try:
                self._call("POST", f"/{self.id}/results", {"message_id": message["id"], "status_code": status, "error": error, "duration_ms": duration}, token=True)
            except RelayError as err:
                # The emulator gave up on this attempt (timed out there) or forgot the relay: the poll loop finds out which.
                if err.status != 404:
                    return
                recorded = False
            if self._on_delivery is not None:
                headers = message["headers"]
                self._on_delivery({
                    "message_id": message["id"], "event_id": headers.get("Service-Event-Id"), "event_type": headers.get("Service-Event-Type"),
                    "url": target, "status_code": status, "error": error, "duration_ms": duration, "recorded": recorded,
                })
        finally:
            with self._lock:
                self._posting.discard(threading.current_thread())

    def _call(self, method, path, body=None, token=False, timeout=CONTROL_TIMEOUT_S):
        url = self._base + self._relays + path
        req = urllib.request.Request(url, method=method, headers={"Accept": "application/json"})
        if body is not None:
            req.data = json.dumps(body).encode()
            req.add_header("Content-Type", "application/json")
        if self._key:
            req.add_header("Authorization", f"Bearer {self._key}")
        if token:
            req.add_header("Relay-Token", self._token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                _check_emulator(url, res)
                text = res.read()
            try:
                return json.loads(text)
            except ValueError:
                raise RelayError(f"{url} answered {res.status} with no JSON: {text[:60]!r}") from None
        except urllib.error.HTTPError as res:
            _check_emulator(url, res)
            text = res.read().decode("utf-8", "replace")
            try:
                envelope = json.loads(text)["error"]
            except (ValueError, KeyError, TypeError):
                envelope = {"message": text.strip() or res.reason}
            raise RelayError(f"{res.code} {envelope.get('code', '')} {envelope.get('message', '')}".replace("  ", " "), res.code, envelope.get("code")) from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as err:
            reason = getattr(err, "reason", err)
            raise RelayError(f"cannot reach the emulator at {self._base}: {reason} (is it running?)") from None


def _check_emulator(url, res):
    # Every answer of the emulator carries both headers; another server's does not.
    if res.headers.get("Request-Id") is None or res.headers.get("Service-Version") is None:
        raise RelayError(f"{url} is not an onboarding emulator (got {res.status})")


def _lost_because(err, relay_id):
    if err.status == 404:
        return f"the emulator no longer knows relay {relay_id} (it restarted, or its workspace was deleted)"
    return f"the emulator refused the poll: {err}"


def post(url, headers, body, timeout_ms):
    """POSTs one message as the emulator would: no redirects followed, the whole exchange bounded.

    Answers (status_code or None, error or None, duration_ms), with the emulator's wording of errors.
    """
    started = time.monotonic()
    timeout_ms = max(1, int(timeout_ms))
    ms = lambda: round((time.monotonic() - started) * 1000)  # noqa: E731
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None, f"unsupported protocol {parts.scheme}:" if parts.hostname else "invalid URL", ms()
    connection = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = connection(parts.hostname, parts.port, timeout=timeout_ms / 1000)
    sent = {name: value for name, value in headers.items() if name.lower() not in OWN_HEADERS}
    sent["Content-Length"] = str(len(body))
    sent["Connection"] = "close"
    status = None
    try:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        # Only the message's headers and the transport's own (Host, Content-Length, Connection), as the emulator sends it.
        conn.putrequest("POST", path, skip_accept_encoding=True)
        for name, value in sent.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        res = conn.getresponse()
        status = res.status
        if 200 <= status < 300:
            return status, None, ms()
        if 300 <= status < 400:
            location = res.getheader("Location")
            return status, f"redirect ({status}{' to ' + _clip(_clean(location), 200) if location else ''}) not followed", ms()
        excerpt = b""
        try:
            excerpt = res.read(BODY_CAP_BYTES)
        except (OSError, http.client.HTTPException):
            pass  # what arrived tells enough
        text = _clip(_clean(excerpt.decode("utf-8", "replace")), EXCERPT_CHARS)
        return status, f"HTTP {status}: {text}" if text else f"HTTP {status}", ms()
    except (socket.timeout, TimeoutError):
        return status, f"HTTP {status}" if status else f"timed out after {timeout_ms} ms", ms()
    except ConnectionRefusedError:
        return None, "connection refused", ms()
    except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
        return None, "connection reset", ms()
    except socket.gaierror:
        return None, f"could not resolve {parts.hostname}", ms()
    except ssl.SSLError as err:
        return None, f"TLS error ({err.reason})", ms()
    except http.client.HTTPException as err:
        return None, f"invalid HTTP response ({type(err).__name__})", ms()
    except (OSError, ValueError) as err:
        return None, f"request failed ({_clip(_clean(str(err)), 100)})", ms()
    finally:
        conn.close()


def _clean(text):
    """One line of printable text: the emulator records it as the attempt's error."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _clip(text, limit):
    return text if len(text) <= limit else text[:limit] + "…"


try:
    import pytest
except ImportError:  # the relay works without pytest; only the fixture needs it
    pytest = None

if pytest is not None:

    @pytest.fixture
    def onboarding_relay():
        """Starts relays for the test: call it as Relay(url, **options); each is closed after the test.

        A relay the emulator dropped while the test ran (stopped, restarted) fails the teardown with the reason.
        """
        relays = []

        def start(url, **options):
            relay = Relay(url, **options)
            relays.append(relay)
            return relay

        yield start
        errors = []
        for relay in relays:
            try:
                relay.close()
            except RelayError as err:
                errors.append(str(err))
        if errors:
            pytest.fail("; ".join(errors), pytrace=False)
