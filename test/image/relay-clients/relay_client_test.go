// The Go relay client (clients/go/onboardingrelay/relay.go) against the emulator in a container,
// with a receiver on the host's 127.0.0.1. Run by test/image/relay-clients.test.ts, which copies
// the client beside it as package onboardingrelay, reads the RESULT line and checks the emulator's
// side; EMULATOR_URL and EMULATOR_CONTAINER come from it.
package relayclient_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"relayclient/onboardingrelay"
)

var base = os.Getenv("EMULATOR_URL")

const receiverStatus = http.StatusAccepted

func call(t *testing.T, method, path, key string, body, out any) {
	t.Helper()
	payload, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, base+path, bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		text, _ := io.ReadAll(res.Body)
		t.Fatalf("%s %s answered %d: %s", method, path, res.StatusCode, text)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

func TestAnEmulatorThatRefusesIsAClearError(t *testing.T) {
	_, err := onboardingrelay.Start(context.Background(), onboardingrelay.Options{URL: base, Workspace: "ws_no_such_workspace"})
	var refused *onboardingrelay.Error
	if !errors.As(err, &refused) || refused.Status != 404 || !strings.Contains(err.Error(), "ws_no_such_workspace") {
		t.Fatalf("want a 404 naming the workspace, got %v", err)
	}
	_, err = onboardingrelay.Start(context.Background(), onboardingrelay.Options{URL: "http://127.0.0.1:9"})
	if !errors.As(err, &refused) || refused.Status != 0 || !strings.Contains(err.Error(), "cannot reach the emulator") {
		t.Fatalf("want cannot reach, got %v", err)
	}
}

type received struct {
	header http.Header
	body   []byte
}

func TestTheHelperBringsASignedMessageToTheHost(t *testing.T) {
	got := make(chan received, 10)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- received{r.Header, body}
		w.WriteHeader(receiverStatus)
	}))
	defer receiver.Close()

	var workspace struct {
		ID   string `json:"id"`
		Keys []struct{ Key string }
	}
	call(t, "POST", "/_emulator/workspaces", "", map[string]any{}, &workspace)
	key := ""
	for _, k := range workspace.Keys {
		if strings.HasPrefix(k.Key, "hrs_test_acme_owner_") {
			key = k.Key
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	relay, err := onboardingrelay.Start(ctx, onboardingrelay.Options{URL: base, Key: key, ForwardTo: receiver.URL + "/hooks"})
	if err != nil {
		t.Fatal(err)
	}
	// The container cannot reach this address; only the relay delivers to it.
	var hook struct{ ID, Secret string }
	call(t, "POST", "/v1/webhooks", key, map[string]any{"url": "http://host.invalid/hooks", "events": []string{"onboarding.created"}}, &hook)
	var created struct{ ID string }
	call(t, "POST", "/v1/onboardings", key, map[string]any{
		"reference": "go-relay",
		"employee":  map[string]any{"first_name": "Ada", "last_name": "Go", "email": "ada.go@example.test"},
		"employment": map[string]any{"position": "Cashier", "start_date": "2026-12-01", "location_id": "loc_acme_amsterdam",
			"template_id": "tpl_acme_standard", "hours_per_week": 24, "hourly_wage_cents": 1400},
	}, &created)

	var message received
	select {
	case message = <-got:
	case <-time.After(15 * time.Second):
		t.Fatal("no message reached the receiver")
	}
	signature := message.header.Get("Service-Signature")
	var ts, v1 string
	fmt.Sscanf(strings.Replace(signature, ",v1=", " ", 1), "t=%s %s", &ts, &v1)
	mac := hmac.New(sha256.New, []byte(hook.Secret))
	mac.Write([]byte(ts + "."))
	mac.Write(message.body)
	if !hmac.Equal([]byte(v1), []byte(hex.EncodeToString(mac.Sum(nil)))) {
		t.Fatalf("signature %s does not verify over %s", signature, message.body)
	}
	var event struct {
		Data struct {
			OnboardingID string `json:"onboarding_id"`
		}
	}
	json.Unmarshal(message.body, &event)
	if event.Data.OnboardingID != created.ID {
		t.Fatalf("the message is about %q, not %q", event.Data.OnboardingID, created.ID)
	}

	// Cancelling the context ends the relay and closes it on the emulator.
	cancel()
	select {
	case <-relay.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("the relay did not end after its context was cancelled")
	}
	if err := relay.Err(); err != nil {
		t.Fatalf("a cancelled relay ended with %v", err)
	}
	result, _ := json.Marshal(map[string]string{
		"relay": relay.ID, "workspace": workspace.ID, "key": key, "webhook": hook.ID, "secret": hook.Secret,
		"event_id": message.header.Get("Service-Event-Id"), "signature": signature, "body": string(message.body),
	})
	fmt.Println("RESULT " + string(result))
}

func TestAnEmulatorThatGoesAwayEndsTheRelayWithAnError(t *testing.T) {
	relay, err := onboardingrelay.Start(context.Background(), onboardingrelay.Options{URL: base, Key: "hrs_test_acme_owner", ForwardTo: "http://127.0.0.1:9/hooks", Wait: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("docker", "kill", os.Getenv("EMULATOR_CONTAINER")).CombinedOutput(); err != nil {
		t.Fatalf("docker kill: %v %s", err, out)
	}
	// Three connection errors in a row, 0.3 s apart, then the relay calls the emulator lost: no hang.
	select {
	case <-relay.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the relay still runs with its emulator gone")
	}
	if relay.Err() == nil || relay.Close() == nil {
		t.Fatal("a relay whose emulator went away ended without an error")
	}
	fmt.Println("LOST " + relay.Err().Error())
}
