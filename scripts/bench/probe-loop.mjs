// The window's side of the responsiveness bench, in a process of its own: a trivial contract call
// (POST /rpc/app.info) to the browser host every INTERVAL ms, one at a time on a kept-alive socket,
// with a WebSocket open to /events as the window has. The bench names the phase by IPC
// ({ phase: 'import' }, { phase: null } between phases); every answer's time (ms, from sending to
// the whole answer read) is kept under the phase it was sent in. { stop: true } sends them back.
// `node probe-loop.mjs URL TOKEN INTERVAL_MS`
import http from 'node:http';
import { WebSocket } from 'ws';

const [base, token, intervalText] = process.argv.slice(2);
const interval = Number(intervalText);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = new URL('/rpc/app.info', base);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': 2 };

let phase = null;
let stopping = false;
const samples = {};
let events = 0;

const ws = new WebSocket(`${base.replace('http', 'ws')}/events`, { headers: { authorization: `Bearer ${token}`, origin: base } });
ws.on('message', () => events++);
ws.on('error', () => undefined);

function ask() {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`app.info: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

process.on('message', (m) => {
  if (m.stop) stopping = true;
  else phase = m.phase;
});

while (!stopping) {
  const at = phase;
  const t0 = performance.now();
  await ask();
  const ms = performance.now() - t0;
  if (at !== null && at === phase) (samples[at] ??= []).push(ms);
  await new Promise((r) => setTimeout(r, interval));
}
ws.close();
agent.destroy();
process.send({ samples, events }, () => process.exit(0));
