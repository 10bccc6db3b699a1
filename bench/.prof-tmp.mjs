import { spawn } from 'node:child_process';
import http from 'node:http';
import autocannon from 'autocannon';
const sink = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end('{}')); });
await new Promise((r) => sink.listen(0, '127.0.0.1', r));
const port = 42555;
const child = spawn('taskset', ['-c', '0', process.execPath, '--cpu-prof', '--cpu-prof-dir=/tmp/prof', 'dist/cli/main.js', 'serve', '--port', String(port), '--log-level', 'warn'], { env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.address().port}`, OTEL_BSP_SCHEDULE_DELAY: '1000', OTEL_BSP_MAX_QUEUE_SIZE: '65536', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048' }, stdio: 'inherit' });
for (let i = 0; i < 500; i++) { try { await fetch(`http://127.0.0.1:${port}/_emulator/health`); break; } catch { await new Promise((r) => setTimeout(r, 20)); } }
await autocannon({ url: `http://127.0.0.1:${port}/v1/onboardings/onb_demo_jansen`, connections: 50, duration: 5, headers: { authorization: 'Bearer hrs_test_acme_owner' } });
child.kill('SIGINT');
await new Promise((r) => child.on('exit', r));
sink.close();
