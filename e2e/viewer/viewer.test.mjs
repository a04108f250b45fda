// Browser test of the thinkgraph viewer, driven by viewer_test.go:
//   node viewer.test.mjs SPEC.json
// SPEC names the viewer's URL (a running "thinkgraph view", which also
// serves MCP at /mcp), the seeded sessions, the expected text of one
// thought, and where to save the screenshot. Prints one JSON line of
// results; exits non-zero on a failed check.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const results = {};
const failures = [];
function check(ok, what) {
  if (!ok) failures.push(what);
  return ok;
}

// The flags of the environment notes: no sandbox as root, no GPU, and no
// background connections (the machine's network is closed).
const browser = await chromium.launch({
  executablePath: spec.chromium || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const scriptsRun = [];
  await page.exposeFunction('tgInjected', (s) => scriptsRun.push(s));
  page.on('pageerror', (e) => failures.push('page error: ' + e.message));

  // Session list: both sessions, search filters, most recent first.
  await page.goto(spec.url);
  const rows = await page.locator('#tg-sessions tbody tr').count();
  check(rows >= 2, `session list has ${rows} rows`);
  await page.fill('#tg-search', spec.session200);
  const visible = await page.locator('#tg-sessions tbody tr:visible').count();
  check(visible === 1, `search leaves ${visible} rows`);

  // The 200-thought session: every node drawn, five branch columns.
  await page.goto(spec.url + 'sessions/' + spec.session200);
  await page.waitForSelector('body[data-ready]');
  results.nodes200 = await page.locator('#tg-graph .node').count();
  results.branches200 = await page.locator('#tg-graph .branch').count();
  check(results.nodes200 === 200, `200 nodes drawn, got ${results.nodes200}`);
  check(results.branches200 === 5, `5 branches drawn, got ${results.branches200}`);
  await page.waitForSelector('#tg-live.on', { timeout: 5000 });

  // Click a node, read its text in the panel (the thought holds markup,
  // which must be shown as text and never run).
  const node = page.locator(`#tg-graph .node[data-step="${spec.expect.step}"]`);
  await node.scrollIntoViewIfNeeded();
  await node.click();
  const text = await page.locator('#tg-text').textContent();
  results.panelText = text;
  check(text === spec.expect.content, `panel text ${JSON.stringify(text)} != ${JSON.stringify(spec.expect.content)}`);
  check(await page.locator('#tg-text *').count() === 0, 'panel text has elements');
  check(scriptsRun.length === 0, 'a script in a thought ran');
  const title = await page.locator('#tg-title').textContent();
  check(title.startsWith(`Step ${spec.expect.step} · `), `panel title ${title}`);

  // Add a thought through MCP and see it appear.
  const client = new Client({ name: 'viewer-e2e', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(spec.url + 'mcp')));
  const fresh = 'Fresh thought <b>not bold</b> <img src=x onerror="tgInjected(1)">';
  const t0 = Date.now();
  const res = await client.callTool({ name: 'think', arguments: { thought: fresh, session_id: spec.session200, confidence: 0.75 } });
  check(!res.isError, 'think failed: ' + JSON.stringify(res.content));
  await page.waitForFunction(() => document.querySelectorAll('#tg-graph .node').length === 201, null, { timeout: 5000 });
  results.liveMs = Date.now() - t0;
  check(results.liveMs <= 1000, `new thought appeared after ${results.liveMs} ms`);
  await client.close();
  const freshNode = page.locator('#tg-graph .node[data-step="201"]');
  check(await freshNode.count() === 1, 'new node with step 201');
  await freshNode.scrollIntoViewIfNeeded();
  await freshNode.click();
  check(await page.locator('#tg-text').textContent() === fresh, 'new thought text in panel');
  check(await page.locator('#tg-graph img, #tg-panel img, #tg-panel b').count() === 0, 'markup of the new thought was rendered');
  await page.waitForTimeout(300);
  check(scriptsRun.length === 0, 'a script in the new thought ran');
  await page.screenshot({ path: spec.screenshot, fullPage: false });
  results.screenshot = spec.screenshot;

  // First render of the 2,000-thought session, in a fresh page each time:
  // from navigation until the viewer's script has run over the drawn graph
  // and the frame after it was painted (body[data-painted], measured in the
  // page from navigation start; wall is the same seen from this process). The first visit renders on the server (with
  // the analyses); later visits hit the server's cache.
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const cdp = await p.context().newCDPSession(p);
    await cdp.send('Performance.enable');
    const start = Date.now();
    await p.goto(spec.url + 'sessions/' + spec.session2000, { waitUntil: 'domcontentloaded' });
    await p.waitForSelector('body[data-painted]');
    const wall = Date.now() - start;
    const nav = await p.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0];
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return { ttfb: Math.round(n.responseStart), response: Math.round(n.responseEnd), dcl: Math.round(n.domContentLoadedEventEnd),
        ready: Number(document.body.dataset.ready), painted: Number(document.body.dataset.painted), fcp: fcp ? Math.round(fcp.startTime) : null,
        nodes: document.querySelectorAll('#tg-graph .node').length };
    });
    // The bands in view are drawn at once, the others when scrolled to;
    // the thought data arrives after the first paint.
    await p.waitForSelector('body[data-loaded]');
    nav.thoughts = await p.evaluate(async () => (await (await fetch(location.pathname + '/graph')).json()).data.thoughts.length);
    check(nav.thoughts === 2000, `2000 thoughts loaded, got ${nav.thoughts}`);
    check(nav.nodes > 0 && nav.nodes < 2000, `${nav.nodes} nodes drawn on first render`);
    if (i === 0) {
      check(await p.evaluate(() => window.tgReveal(2000)), 'the last thought can be drawn');
      check(await p.locator('#tg-graph .node[data-step="2000"]').count() === 1, 'the last thought drawn after scrolling');
    }
    const m = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((x) => [x.name, x.value]));
    const ms = (k) => Math.round((m[k] || 0) * 1000);
    runs.push({ wall, ...nav, layout: ms('LayoutDuration'), style: ms('RecalcStyleDuration'), script: ms('ScriptDuration'), task: ms('TaskDuration') });
    await p.close();
  }
  results.first2000 = runs;
} catch (e) {
  failures.push(String(e && e.stack || e));
} finally {
  await browser.close();
}

results.failures = failures;
console.log(JSON.stringify(results));
process.exit(failures.length ? 1 : 0);
