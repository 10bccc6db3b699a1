// The benchmark baseline: a bare Express 5 app with express.json() and the emulator's bearer-key
// check, serving fixed JSON bytes (captured from the emulator by bench/run.mjs).
//
//   node bench/baseline.mjs --port <port> --body <file>
//
// It also answers GET /_emulator/health, so start-up is measured the same way for both servers.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import express from 'express';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    body: { type: 'string' },
  },
});
if (!values.port || !values.body) {
  console.error('usage: node bench/baseline.mjs --port <port> --body <file>');
  process.exit(2);
}

const body = readFileSync(values.body);
const health = Buffer.from(JSON.stringify({ status: 'ok' }));
const expected = 'Bearer hrs_test_acme_owner';

const app = express();
// Same two settings the emulator's app uses, so the comparison is about the emulator's own work.
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json());

app.get('/_emulator/health', (_req, res) => {
  res.type('application/json').send(health);
});

app.get('/v1/onboardings/:id', (req, res) => {
  if (req.get('authorization') !== expected) {
    res.status(401).json({ error: { type: 'authentication_error', code: 'api_key_invalid', message: 'Invalid API key.' } });
    return;
  }
  res.type('application/json').send(body);
});

const server = app.listen(Number(values.port), values.host, (err) => {
  if (err) {
    console.error(err.message);
    process.exit(1);
  }
});
server.keepAliveTimeout = 5_000;
const stop = () => server.close(() => process.exit(0)).closeAllConnections();
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
