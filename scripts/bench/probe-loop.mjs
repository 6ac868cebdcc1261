// The window's side of the responsiveness bench, in a process of its own: every INTERVAL ms one
// request to the browser host, one at a time on a kept-alive socket, with a WebSocket open to
// /events as the window has; in turn a trivial contract call (POST /rpc/app.info, answered by the
// engine's process), the window's list of batches (POST /rpc/batches.list, a read of the data
// folder: the reader thread's when the build has one, else the engine's) and the window's page
// (GET /index.html, answered by the host's own process).
// The bench names the phase by IPC ({ phase: 'import' }, { phase: null } between phases); every
// answer's time (ms, from sending to the whole answer read) is kept under the phase it was sent in
// and its kind ('call', 'list' or 'page'). { stop: true } sends them back.
// `node probe-loop.mjs URL TOKEN INTERVAL_MS`
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { WebSocket } from 'ws';

const [base, token, intervalText] = process.argv.slice(2);
const interval = Number(intervalText);
const LOG = process.env.BENCH_PROBE_LOG ?? null;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const targets = [
  {
    kind: 'call',
    url: new URL('/rpc/app.info', base),
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': 2 },
    body: '{}',
  },
  {
    kind: 'list',
    url: new URL('/rpc/batches.list', base),
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': 2 },
    body: '{}',
  },
  { kind: 'page', url: new URL('/index.html', base), method: 'GET', headers: { authorization: `Bearer ${token}` }, body: undefined },
];

let phase = null;
let stopping = false;
const samples = {};
let events = 0;

const ws = new WebSocket(`${base.replace('http', 'ws')}/events`, { headers: { authorization: `Bearer ${token}`, origin: base } });
ws.on('message', () => events++);
ws.on('error', () => undefined);

function ask(t) {
  return new Promise((resolve, reject) => {
    const req = http.request(t.url, { method: t.method, agent, headers: t.headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${t.url.pathname}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(t.body);
  });
}

process.on('message', (m) => {
  if (m.stop) stopping = true;
  else phase = m.phase;
});

// Up once its socket is open and every kind has been answered once: the bench's idle phase starts
// then (a loaded machine takes seconds to start this process).
await new Promise((resolve, reject) => {
  ws.once('open', resolve);
  ws.once('error', reject);
});
for (const t of targets) await ask(t);
process.send({ up: true });

for (let turn = 0; !stopping; turn++) {
  const at = phase;
  const t = targets[turn % targets.length];
  const t0 = performance.now();
  await ask(t);
  const ms = performance.now() - t0;
  if (at !== null && at === phase) {
    (samples[at] ??= { call: [], list: [], page: [] })[t.kind].push(ms);
    // BENCH_PROBE_LOG=FILE: every answer with its end time, to set the slow ones beside the engine's turns.
    if (LOG) appendFileSync(LOG, `${Date.now()} ${at} ${t.kind} ${ms.toFixed(1)}\n`);
  }
  await new Promise((r) => setTimeout(r, interval));
}
ws.close();
agent.destroy();
process.send({ samples, events }, () => process.exit(0));
