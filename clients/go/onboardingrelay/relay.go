// Package onboardingrelay is the onboarding emulator's webhook relay for Go tests: standard
// library only (Go 1.18+), one file.
//
// A receiver in your test process on the host cannot be reached by an emulator in a container.
// The relay opens itself on the emulator, long-polls for the webhook messages of the workspace,
// posts each to the receiver byte for byte with its signature headers, and reports what the
// receiver answered, so retries, auto-disable and the delivery log behave as for a direct
// delivery. It speaks the same protocol as `onboarding-emulator listen` (docs/relay.md).
//
//	relay, err := onboardingrelay.Start(ctx, onboardingrelay.Options{URL: "http://127.0.0.1:4010", ForwardTo: receiver.URL})
//	if err != nil { t.Fatal(err) }
//	t.Cleanup(func() { relay.Close() })
package onboardingrelay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
)

const (
	// DefaultWait is how long one long poll waits on the emulator.
	DefaultWait = 25 * time.Second
	// Connection errors in a row the relay rides out (a restarting proxy, a busy engine) before it calls the emulator lost.
	retries    = 3
	retryPause = 300 * time.Millisecond
	// How long a call to the emulator may take beyond its long poll's wait: a frozen emulator is an error, not a hang.
	controlTimeout = 10 * time.Second
	// Enough of a receiver's error page to tell what went wrong; the rest is never read.
	bodyCap     = 4096
	excerptRune = 300
)

// Options say where the emulator is and what the relay takes.
type Options struct {
	// URL is the emulator's base URL, e.g. http://127.0.0.1:4010.
	URL string
	// ForwardTo is the one URL every message goes to; empty: each to its address's URL, as seen from here.
	ForwardTo string
	// Key (a key of the workspace) or Workspace (its id) picks the workspace; neither: the default one.
	Key       string
	Workspace string
	// URLPrefix takes only the addresses whose URL starts with it; a message outside it is reported refused, never posted.
	URLPrefix string
	// Wait is how long one long poll waits on the emulator; 0: DefaultWait.
	Wait time.Duration
	// OnDelivery is called after each message was posted and reported (from the message's own goroutine).
	OnDelivery func(Delivery)
}

// Delivery is one message as the relay carried it.
type Delivery struct {
	MessageID  string
	EventID    string
	EventType  string
	URL        string // where it was posted (a message refused for its URL: that URL, not posted)
	StatusCode int    // 0 when no answer came
	Error      string // empty for a 2xx
	Duration   time.Duration
	Recorded   bool // false when the emulator no longer waited for the answer (the attempt had timed out there)
}

// Error is the emulator's refusal (Status and Code of its error envelope), or, with Status 0, an emulator that could not be reached.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Relay relays until its context is cancelled or Close is called; either way it finishes the
// messages being posted and closes itself on the emulator.
type Relay struct {
	ID string

	opts    Options
	base    string
	token   string
	control *http.Client
	cancel  context.CancelFunc
	done    chan struct{}
	err     error
	posting sync.WaitGroup
}

// Start opens the relay and starts relaying. An emulator that refuses answers an *Error with its
// status and code; one that cannot be reached, an *Error with Status 0.
func Start(ctx context.Context, opts Options) (*Relay, error) {
	if opts.ForwardTo != "" {
		if u, err := url.Parse(opts.ForwardTo); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("ForwardTo must be an http:// or https:// URL, such as http://127.0.0.1:3000/webhooks; got %q", opts.ForwardTo)
		}
	}
	if opts.Wait <= 0 {
		opts.Wait = DefaultWait
	}
	// The relay's paths, under the workspace's own when one is named.
	r := &Relay{opts: opts, base: strings.TrimRight(opts.URL, "/") + "/_emulator/relays", control: &http.Client{}, done: make(chan struct{})}
	if opts.Workspace != "" {
		r.base = strings.TrimRight(opts.URL, "/") + "/_emulator/workspaces/" + url.PathEscape(opts.Workspace) + "/relays"
	}
	body := map[string]string{}
	if opts.URLPrefix != "" {
		body["url_prefix"] = opts.URLPrefix
	}
	if opts.ForwardTo != "" {
		body["forward_to"] = opts.ForwardTo
	}
	var opened struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	if err := r.call(ctx, "POST", "", body, &opened, controlTimeout); err != nil {
		return nil, err
	}
	// The token goes with the relay's own calls only (claim, report, close).
	r.ID, r.token = opened.ID, opened.Token
	ctx, r.cancel = context.WithCancel(ctx)
	go r.run(ctx)
	return r, nil
}

// Done is closed when the relay has ended, whichever way.
func (r *Relay) Done() <-chan struct{} { return r.done }

// Err says why the relay ended early (the emulator went away, stopped or forgot it); nil while it runs or after a Close.
func (r *Relay) Err() error {
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

// Close stops polling, waits for the messages being posted, closes the relay on the emulator,
// and answers Err.
func (r *Relay) Close() error {
	r.cancel()
	<-r.done
	return r.err
}

func (r *Relay) run(ctx context.Context) {
	defer close(r.done)
	r.err = r.loop(ctx)
	r.posting.Wait()
	// A fresh context: the relay's own is cancelled by now, and the close must still go out.
	closing, stop := context.WithTimeout(context.Background(), controlTimeout)
	defer stop()
	r.call(closing, "DELETE", "/"+r.ID, nil, nil, controlTimeout)
}

type message struct {
	ID        string            `json:"id"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	Body      string            `json:"body"`
	TimeoutMS int               `json:"timeout_ms"`
}

func (r *Relay) loop(ctx context.Context) error {
	failures := 0
	for ctx.Err() == nil {
		var claimed struct {
			Data     []message `json:"data"`
			Stopping bool      `json:"stopping"`
		}
		err := r.call(ctx, "POST", "/"+r.ID+"/claim", map[string]int64{"wait_ms": r.opts.Wait.Milliseconds()}, &claimed, r.opts.Wait+controlTimeout)
		if ctx.Err() != nil {
			return nil
		}
		var refused *Error
		if errors.As(err, &refused) && refused.Status == 404 {
			return fmt.Errorf("the emulator no longer knows relay %s (it restarted, or its workspace was deleted)", r.ID)
		} else if errors.As(err, &refused) && refused.Status != 0 {
			return fmt.Errorf("the emulator refused the poll: %w", err)
		} else if err != nil {
			if failures++; failures > retries {
				return err
			}
			select {
			case <-time.After(retryPause):
			case <-ctx.Done():
			}
			continue
		}
		failures = 0
		for _, m := range claimed.Data {
			r.posting.Add(1)
			go r.forward(m)
		}
		if claimed.Stopping {
			return errors.New("the emulator is stopping")
		}
	}
	return nil
}

func (r *Relay) forward(m message) {
	defer r.posting.Done()
	// The prefix bounds what this relay posts, whatever the emulator hands it: outside it, nothing is sent.
	outside := r.opts.URLPrefix != "" && !strings.HasPrefix(m.URL, r.opts.URLPrefix)
	target := m.URL
	if !outside && r.opts.ForwardTo != "" {
		target = r.opts.ForwardTo
	}
	var status int
	var problem string
	var took time.Duration
	if outside {
		problem = fmt.Sprintf("refused by the relay: %s does not start with its URLPrefix %s", m.URL, r.opts.URLPrefix)
	} else {
		status, problem, took = Post(target, m.Headers, []byte(m.Body), time.Duration(m.TimeoutMS)*time.Millisecond)
	}
	report := map[string]any{"message_id": m.ID, "status_code": nil, "error": nil, "duration_ms": took.Milliseconds()}
	if status != 0 {
		report["status_code"] = status
	}
	if problem != "" {
		report["error"] = problem
	}
	// Reported whatever became of the relay's context: the emulator waits for this answer.
	ctx, stop := context.WithTimeout(context.Background(), controlTimeout)
	defer stop()
	recorded := true
	if err := r.call(ctx, "POST", "/"+r.ID+"/results", report, nil, controlTimeout); err != nil {
		// The emulator gave up on this attempt (timed out there) or forgot the relay: the poll loop finds out which.
		var refused *Error
		if !errors.As(err, &refused) || refused.Status != 404 {
			return
		}
		recorded = false
	}
	if r.opts.OnDelivery != nil {
		r.opts.OnDelivery(Delivery{
			MessageID: m.ID, EventID: m.Headers["Service-Event-Id"], EventType: m.Headers["Service-Event-Type"], URL: target,
			StatusCode: status, Error: problem, Duration: took, Recorded: recorded,
		})
	}
}

// call sends one request to the emulator and decodes its JSON answer into out (when not nil).
func (r *Relay) call(ctx context.Context, method, path string, body, out any, timeout time.Duration) error {
	ctx, stop := context.WithTimeout(ctx, timeout)
	defer stop()
	var payload io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, payload)
	if err != nil {
		return &Error{Message: fmt.Sprintf("not a valid emulator URL %q: %v", r.opts.URL, err)}
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.opts.Key != "" {
		req.Header.Set("Authorization", "Bearer "+r.opts.Key)
	}
	if r.token != "" {
		req.Header.Set("Relay-Token", r.token)
	}
	res, err := r.control.Do(req)
	if err != nil {
		return &Error{Message: fmt.Sprintf("cannot reach the emulator at %s: %v (is it running?)", r.opts.URL, err)}
	}
	defer res.Body.Close()
	// Every answer of the emulator carries both headers; another server's does not.
	if res.Header.Get("Request-Id") == "" || res.Header.Get("Service-Version") == "" {
		return &Error{Status: res.StatusCode, Message: fmt.Sprintf("%s is not an onboarding emulator (got %d)", r.opts.URL, res.StatusCode)}
	}
	text, err := io.ReadAll(res.Body)
	if err != nil {
		return &Error{Message: fmt.Sprintf("the emulator at %s went away mid-answer: %v", r.opts.URL, err)}
	}
	if res.StatusCode >= 300 {
		var envelope struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(text, &envelope) != nil || envelope.Error.Message == "" {
			envelope.Error.Message = strings.TrimSpace(string(text))
		}
		e := envelope.Error
		return &Error{Status: res.StatusCode, Code: e.Code, Message: strings.Join(strings.Fields(fmt.Sprintf("%d %s %s", res.StatusCode, e.Code, e.Message)), " ")}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(text, out)
}

// ownHeaders are set from the body when it is sent; a message's own value could only disagree.
var ownHeaders = map[string]bool{"content-length": true, "transfer-encoding": true, "connection": true}

// Post sends one message as the emulator would: no redirects followed, no keep-alive, the whole
// exchange bounded by timeout. It answers the status (0 when no answer came), the error in the
// emulator's words (empty for a 2xx) and how long it took.
func Post(target string, headers map[string]string, body []byte, timeout time.Duration) (int, string, time.Duration) {
	started := time.Now()
	if timeout < time.Millisecond {
		timeout = time.Millisecond
	}
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return 0, "invalid URL", time.Since(started)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return 0, "unsupported protocol " + u.Scheme + ":", time.Since(started)
	}
	req, err := http.NewRequest("POST", target, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Sprintf("invalid request (%v)", err), time.Since(started)
	}
	for name, value := range headers {
		if !ownHeaders[strings.ToLower(name)] {
			req.Header[name] = []string{value}
		}
	}
	client := &http.Client{
		Timeout:       timeout,
		Transport:     &http.Transport{DisableKeepAlives: true, Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, describe(err, u.Hostname(), timeout), time.Since(started)
	}
	defer res.Body.Close()
	status := res.StatusCode
	switch {
	case status >= 200 && status < 300:
		return status, "", time.Since(started)
	case status >= 300 && status < 400:
		to := ""
		if location := res.Header.Get("Location"); location != "" {
			to = " to " + clip(clean(location), 200)
		}
		return status, fmt.Sprintf("redirect (%d%s) not followed", status, to), time.Since(started)
	}
	// What arrived of the error page before the cap or the timeout tells enough.
	excerpt, _ := io.ReadAll(io.LimitReader(res.Body, bodyCap))
	if text := clip(clean(string(excerpt)), excerptRune); text != "" {
		return status, fmt.Sprintf("HTTP %d: %s", status, text), time.Since(started)
	}
	return status, fmt.Sprintf("HTTP %d", status), time.Since(started)
}

func describe(err error, host string, timeout time.Duration) string {
	var dns *net.DNSError
	var timedOut interface{ Timeout() bool }
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection reset"
	case errors.As(err, &dns):
		return "could not resolve " + host
	case errors.Is(err, syscall.EHOSTUNREACH):
		return "host unreachable"
	case errors.Is(err, syscall.ENETUNREACH):
		return "network unreachable"
	case errors.As(err, &timedOut) && timedOut.Timeout():
		return fmt.Sprintf("timed out after %d ms", timeout.Milliseconds())
	case strings.Contains(err.Error(), "tls:") || strings.Contains(err.Error(), "x509:"):
		return "TLS error (" + clip(clean(err.Error()), 100) + ")"
	}
	return "request failed (" + clip(clean(err.Error()), 100) + ")"
}

// clean makes one line of printable text: the emulator records it as the attempt's error.
func clean(text string) string {
	return strings.Join(strings.FieldsFunc(text, func(c rune) bool { return unicode.IsSpace(c) || !unicode.IsPrint(c) }), " ")
}

func clip(text string, max int) string {
	if runes := []rune(text); len(runes) > max {
		return string(runes[:max]) + "…"
	}
	return text
}
