// The floor for `run`: N JSON POSTs to the messaging route, C at a time on kept-alive sockets, no
// engine (no queue, no database). `node post-loop.mjs URL KEY N C` prints the ms it took.
import http from 'node:http';

const [url, key, nText, cText] = process.argv.slice(2);
const n = Number(nText);
const concurrency = Number(cText);
const target = new URL('/v1/channels/whatsapp', url);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < n) {
      const i = next++;
      const body = JSON.stringify({ to: `+4420794${String(60000 + (i % 1000)).padStart(5, '0')}`, text: `baseline ${i} ${t0}` });
      await new Promise((resolve, reject) => {
        const req = http.request(
          target,
          {
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'idempotency-key': `base-${t0}-${i}`,
            },
          },
          (res) => {
            res.resume();
            res.on('end', resolve);
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    }
  }),
);
process.stdout.write(`${Math.round(performance.now() - t0)}\n`);
agent.destroy();
