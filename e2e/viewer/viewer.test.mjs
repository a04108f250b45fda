// Browser test of the thinkgraph viewer, driven by viewer_test.go:
//   node viewer.test.mjs SPEC.json
// SPEC names the viewer's URL (a running "thinkgraph view", which also
// serves MCP at /mcp), the seeded sessions, the expected text of one
// thought, and where to save the screenshot. Prints one JSON line of
// results; exits non-zero on a failed check.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

  // Refute the new thought in the panel: the drawing marks it, the panel
  // lists the feedback, and the next tool result carries it once.
  {
    const reason = 'Wrong: <i>not italic</i> the cache is cold';
    await page.fill('#tg-feedback-text', reason);
    await page.click('#tg-feedback-form button[data-kind="refute"]');
    await page.waitForFunction(() => /^Sent/.test(document.getElementById('tg-feedback-status').textContent), null, { timeout: 5000 });
    await page.waitForSelector('#tg-graph .node.refuted[data-step="201"]', { timeout: 5000 });
    const listed = await page.locator('#tg-feedback li').allTextContents();
    check(listed.length === 1 && listed[0].includes(reason) && listed[0].startsWith('refute'), `panel feedback ${JSON.stringify(listed)}`);
    check(await page.locator('#tg-panel i').count() === 0, 'markup of the feedback was rendered');
    const mcp = new Client({ name: 'viewer-e2e-feedback', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(spec.url + 'mcp')));
    const path = async () => (await mcp.callTool({ name: 'show_current_path', arguments: { session_id: spec.session200 } })).structuredContent;
    const first = await path();
    const fb = first.human_feedback || [];
    check(fb.length === 1 && fb[0].kind === 'refute' && fb[0].text === reason && /backtrack/.test(fb[0].advice),
      `human_feedback ${JSON.stringify(fb)}`);
    check(!('human_feedback' in (await path())), 'feedback delivered twice');
    await mcp.close();
    // An empty text is refused with the field named, and nothing is sent.
    await page.fill('#tg-feedback-text', '');
    await page.click('#tg-feedback-form button[data-kind="comment"]');
    await page.waitForFunction(() => /^Not sent/.test(document.getElementById('tg-feedback-status').textContent), null, { timeout: 5000 });
    const status = await page.locator('#tg-feedback-status').textContent();
    check(/text/.test(status), `refusal ${status}`);
    results.feedback = 'refuted in the panel, marked, delivered once';
  }

  // A session as people write it (branch-thinking over MCP: a root,
  // alternatives from it, a branch of a branch, cross-references, a
  // contradiction, long texts), read in the layout's terms with the
  // browser's own text measurement, at a desktop and a phone width.
  {
    const id = 'readable';
    const mcp = new Client({ name: 'viewer-e2e-readable', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(spec.url + 'mcp')));
    const bt = async (args) => {
      const r = await mcp.callTool({ name: 'branch-thinking', arguments: { session_id: id, ...args } });
      check(!r.isError, `branch-thinking failed: ${JSON.stringify(r.content)}`);
      return r;
    };
    await bt({ command: { type: 'setGoal', goal: 'Choose where the web tier keeps its sessions' } });
    await bt({ content: 'Which store should hold the sessions of the web tier, given two regions and a small team?', type: 'question', confidence: 0.9 });
    await bt({ content: 'Sessions are small, read on every request and written rarely, so reads must stay under a millisecond at the 99th percentile', type: 'analysis', confidence: 0.8 });
    await bt({ content: 'The session store is fast enough today', type: 'observation', confidence: 0.7 });
    await bt({ content: 'The session store is not fast enough today', type: 'critique', confidence: 0.5 });
    await bt({ content: 'PostgreSQL: already deployed, durable, and the team knows it well', type: 'hypothesis', branchId: 'postgres', confidence: 0.75 });
    await bt({ content: 'One more index on the session id keeps reads at 0.3 ms on the production copy', type: 'validation', branchId: 'postgres', confidence: 0.85 });
    await bt({ content: 'Redis: fast, but one more system to operate and page someone for', type: 'hypothesis', branchId: 'redis', confidence: 0.55,
      crossRefs: [{ toBranch: 'postgres', type: 'alternative', reason: 'the same need, another store' }] });
    await bt({ content: 'PostgreSQL with an in-process cache in front, invalidated by LISTEN/NOTIFY', type: 'synthesis', branchId: 'pg-cache', parentBranchId: 'postgres',
      confidence: 0.8, crossRefs: [{ toBranch: 'redis', type: 'contradictory', reason: 'no second system' }, { toBranch: 'main', type: 'builds_upon', reason: 'the latency budget' }] });
    await mcp.close();

    const geometry = () => page.evaluate(() => {
      const r = (e) => e.getBoundingClientRect();
      const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const data = JSON.parse(document.getElementById('tg-data').textContent).thoughts;
      const box = {};
      const out = { overflow: [], notBelow: [], labelOnNode: [], nodes: 0 };
      document.querySelectorAll('#tg-graph .node').forEach((n) => {
        const b = r(n.querySelector('rect'));
        box[n.dataset.step] = b;
        out.nodes++;
        n.querySelectorAll('text, tspan').forEach((t) => {
          const tb = r(t);
          if (tb.width > 0 && (tb.right > b.right - 2 || tb.left < b.left)) out.overflow.push(`#${n.dataset.step}: ${t.textContent}`);
        });
      });
      data.forEach((t) => { if (t.parent && box[t.step].top < box[t.parent].bottom) out.notBelow.push(`#${t.step} under #${t.parent}`); });
      document.querySelectorAll('#tg-graph rect.label').forEach((l) => {
        const lb = r(l);
        Object.entries(box).forEach(([step, b]) => { if (hit(lb, b)) out.labelOnNode.push(`label ${l.nextSibling.textContent} on #${step}`); });
        if (r(l.nextSibling).right > lb.right) out.overflow.push('label ' + l.nextSibling.textContent);
      });
      out.labels = document.querySelectorAll('#tg-graph rect.label').length;
      // Nothing of the graph under the side panel: the pane ends where
      // the panel starts (or above it, on a phone), and no node's box
      // reaches into the panel.
      const pane = document.getElementById('tg-graph');
      const pr = r(pane), side = r(document.getElementById('tg-panel'));
      out.branches = document.querySelectorAll('#tg-graph .branch').length;
      out.paneOverPanel = hit(pr, side);
      out.underPanel = Object.entries(box).filter(([, b]) => hit(b, side)).map(([step]) => '#' + step);
      out.pane = pane.clientWidth;
      out.drawing = r(pane.querySelector('.tg-bands')).width;
      out.zoom = Number(pane.querySelector('.tg-bands').style.zoom || 1);
      out.pageWidth = document.documentElement.scrollWidth;
      out.overview = !document.getElementById('tg-overview').hidden && document.getElementById('tg-overview').textContent;
      return out;
    });
    for (const [name, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.goto(spec.url + 'sessions/' + id);
      await page.waitForSelector('body[data-loaded]');
      const g = await geometry();
      results['readable_' + name] = g;
      check(g.nodes === 8, `${name}: ${g.nodes} nodes`);
      check(g.overflow.length === 0, `${name}: text overflows its box: ${g.overflow.join('; ')}`);
      check(g.notBelow.length === 0, `${name}: children not below their parents: ${g.notBelow.join('; ')}`);
      check(g.labels >= 3 && g.labelOnNode.length === 0, `${name}: ${g.labels} labels, on nodes: ${g.labelOnNode.join('; ')}`);
      check(g.overview && g.overview.includes('Choose where the web tier keeps its sessions') && g.overview.includes('Contradictions'),
        `${name}: the panel shows no overview: ${g.overview}`);
      check(g.pageWidth <= width + 1, `${name}: the page is ${g.pageWidth} px wide in a ${width} px window`);
      check(g.branches >= 4, `${name}: ${g.branches} branch columns, the check needs 4`);
      check(!g.paneOverPanel && g.underPanel.length === 0, `${name}: the graph pane overlaps the panel (${g.paneOverPanel}) or nodes are under it: ${g.underPanel.join(' ')}`);
      check(g.drawing >= Math.min(g.pane * 0.95, (g.drawing / g.zoom) * 1.39), `${name}: the drawing uses ${g.drawing} of ${g.pane} px at zoom ${g.zoom}`);
      await page.screenshot({ path: `${spec.shots}/viewer-${name}.png` });
      const n = page.locator('#tg-graph .node[data-step="8"]');
      await n.scrollIntoViewIfNeeded();
      await n.click();
      check(await page.locator('#tg-overview').isHidden() && (await page.locator('#tg-text').textContent()).startsWith('PostgreSQL with an in-process cache'),
        `${name}: selecting a thought did not show it`);
      await page.screenshot({ path: `${spec.shots}/viewer-${name}-selected.png` });
      await page.keyboard.press('Escape');
      check(await page.locator('#tg-overview').isVisible(), `${name}: Escape did not bring the overview back`);
    }
    // A drawing wider than the pane even at the smallest zoom (the
    // 201-thought session's five columns at 1280 px) scrolls inside the
    // pane, to its rightmost node.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(spec.url + 'sessions/' + spec.session200);
    await page.waitForSelector('body[data-loaded]');
    const scroll = async () => page.evaluate(() => {
      const pane = document.getElementById('tg-graph');
      return { scrollWidth: pane.scrollWidth, clientWidth: pane.clientWidth, overflowX: getComputedStyle(pane).overflowX };
    });
    const s0 = await scroll();
    check(s0.scrollWidth > s0.clientWidth && /auto|scroll/.test(s0.overflowX),
      `the 5-column drawing at 1280 px does not scroll in its pane: ${JSON.stringify(s0)}`);
    // Scrolled to its right end, the pane shows the rightmost node whole.
    const end = await page.evaluate(() => {
      const pane = document.getElementById('tg-graph');
      pane.scrollLeft = pane.scrollWidth;
      const p = pane.getBoundingClientRect();
      const right = Math.max(...[...pane.querySelectorAll('.node rect')].map((n) => n.getBoundingClientRect().right));
      return { right, paneRight: p.right, scrollLeft: pane.scrollLeft };
    });
    check(end.scrollLeft > 0 && end.right <= end.paneRight + 1, `scrolled to the right end, the rightmost node is cut: ${JSON.stringify(end)}`);
    await page.screenshot({ path: `${spec.shots}/viewer-wide-scrolled.png` });
    await page.setViewportSize({ width: 1400, height: 900 });
  }

  // After real use: the database session of the scenario set, written
  // through MCP as a model would, with a stated verdict that two
  // thoughts agree. At 1280×900 the page opens on the current thought
  // (the decision, #24) with the recommendation (#22) in view too; the
  // compatible verdict is not drawn until the legend's toggle asks.
  if (spec.dbSession) {
    const id = 'db-session';
    const mcp = new Client({ name: 'viewer-e2e-db', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(spec.url + 'mcp')));
    const bt = async (args) => {
      const r = await mcp.callTool({ name: 'branch-thinking', arguments: { session_id: id, ...args } });
      check(!r.isError, 'db session: ' + JSON.stringify(r.content));
    };
    await bt({ command: { type: 'setGoal', data: { goal: spec.dbSession.goal } } });
    for (const t of spec.dbSession.thoughts) {
      await bt({ content: t.content, type: t.type, branchId: t.branch, ...(t.confidence != null ? { confidence: t.confidence } : {}) });
    }
    await bt({ command: { type: 'judge', data: { thoughtId: '#3', otherThoughtId: '#4', verdict: 'compatible', reason: 'the workload fits a relational store' } } });
    // judge moves nothing: the current thought is still the decision.
    await bt({ command: { type: 'focus', data: { branchId: 'hybrid' } } });
    await mcp.close();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(spec.url + 'sessions/' + id);
    await page.waitForSelector('body[data-opened]');
    const view = async () => page.evaluate(() => {
      const pane = document.getElementById('tg-graph').getBoundingClientRect();
      const inView = (step) => {
        const n = document.querySelector(`#tg-graph .node[data-step="${step}"] rect`);
        if (!n) return false;
        const b = n.getBoundingClientRect();
        return b.top >= pane.top && b.bottom <= pane.bottom && b.left >= pane.left && b.right <= pane.right;
      };
      const verdicts = [...document.querySelectorAll('#tg-graph g.verdict')];
      return { opened: document.body.dataset.opened, current: inView(24), recommendation: inView(22),
        verdicts: verdicts.length, shown: verdicts.filter((v) => getComputedStyle(v).display !== 'none').length };
    });
    const v = await view();
    results.dbSession = v;
    check(v.opened === '24' && v.current && v.recommendation, `at 1280×900 the page does not open on the decision: ${JSON.stringify(v)}`);
    check(v.verdicts === 1 && v.shown === 0, `the compatible verdict is drawn by default: ${JSON.stringify(v)}`);
    await page.screenshot({ path: `${spec.shots}/viewer-db-session.png` });
    await page.locator('#tg-verdicts').check();
    const t = await view();
    check(t.shown === 1, `the toggle does not show the verdict: ${JSON.stringify(t)}`);
    // At 1280×800 the page's top (back link, session id, counts) stays in
    // view once it has opened on the decision, and the overview shows what
    // the model is asked and the branch that left the goal, in the tools'
    // words.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(spec.url + 'sessions/' + id);
    await page.waitForSelector('body[data-opened]');
    const top = await page.evaluate(() => {
      const seen = (sel) => {
        const b = document.querySelector(sel).getBoundingClientRect();
        return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight;
      };
      const ov = document.getElementById('tg-overview').textContent;
      return { back: seen('header .back'), id: seen('header h1'), counts: seen('#tg-summary'), scrolled: window.scrollY,
        questions: ov.includes('Questions for the model') && ov.includes('Can each group') && document.querySelectorAll('#tg-overview li.question').length > 0,
        away: ov.includes('Away from the goal') && [...document.querySelectorAll('#tg-overview li.drift')].some((li) => li.textContent.startsWith('cost')),
        conclusion: ov.includes('Conclusion') };
    });
    results.dbSessionTop = top;
    check(top.back && top.id && top.counts && top.scrolled === 0, `at 1280×800 the page's top is out of view: ${JSON.stringify(top)}`);
    check(top.questions && top.away && top.conclusion, `the overview does not show what the model is asked: ${JSON.stringify(top)}`);
    await page.screenshot({ path: `${spec.shots}/viewer-db-session-1280x800.png` });
    await page.setViewportSize({ width: 1400, height: 900 });
  }

  // The graph as an MCP App, through the official TypeScript client over
  // HTTP: the tools that write link ui://thinkgraph/graph in _meta.ui, the
  // resource is a self-contained text/html;profile=mcp-app page, and in a
  // page that plays the host's side of the protocol (an iframe sandboxed
  // to scripts; ui/initialize answered, each tool result sent as
  // ui/notifications/tool-result, the app's resources/read relayed to
  // thinkgraph) it draws the session after each step.
  {
    const id = 'app-session';
    // The host declares MCP Apps, so it also sees graph_view, the app's
    // own tool; a client that does not, does not.
    const mcp = new Client({ name: 'viewer-e2e-app', version: '1' },
      { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(spec.url + 'mcp')));
    const { tools } = await mcp.listTools();
    const linked = tools.filter((t) => t._meta?.ui?.resourceUri === 'ui://thinkgraph/graph' && !t._meta.ui.visibility).map((t) => t.name);
    check(['think', 'branch-thinking', 'sequentialthinking'].every((n) => linked.includes(n)), `tools linked to the app: ${linked}`);
    check(!linked.includes('show_current_path'), 'a read-only tool is linked to the app');
    const view = tools.find((t) => t.name === 'graph_view');
    check(view && JSON.stringify(view._meta.ui.visibility) === '["app"]', `graph_view for an MCP Apps host: ${JSON.stringify(view)}`);
    const plain = new Client({ name: 'viewer-e2e-plain', version: '1' });
    await plain.connect(new StreamableHTTPClientTransport(new URL(spec.url + 'mcp')));
    check(!(await plain.listTools()).tools.some((t) => t.name === 'graph_view'), 'graph_view listed to a client without MCP Apps');
    await plain.close();
    const appRes = await mcp.readResource({ uri: 'ui://thinkgraph/graph' });
    const app = appRes.contents[0];
    check(app.mimeType === 'text/html;profile=mcp-app', `app mime type ${app.mimeType}`);
    check(!/\b(src|href)\s*=|@import|url\(|https?:\/\//i.test(app.text), 'the app loads something from outside');

    const host = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    host.on('pageerror', (e) => failures.push('host page error: ' + e.message));
    const outside = [];
    host.on('request', (r) => { if (!r.url().startsWith('about:') && !r.url().startsWith('data:')) outside.push(r.url()); });
    await host.exposeFunction('relay', async (method, params) => {
      if (method === 'resources/read') return await mcp.readResource(params);
      if (method === 'tools/call') return await mcp.callTool(params);
      throw new Error('not relayed: ' + method);
    });
    await host.setContent(`<!DOCTYPE html><html><body style="margin:0"><p id="log">host</p>
      <iframe id="app" sandbox="allow-scripts" style="width:980px;height:640px;border:1px solid #ccc"></iframe>
      <script>
      const frame = document.getElementById('app');
      window.hostState = { initialized: false, heights: [], requests: [] };
      const post = (m) => frame.contentWindow.postMessage(m, '*');
      window.addEventListener('message', async (e) => {
        if (e.source !== frame.contentWindow) return;
        const m = e.data;
        if (!m || m.jsonrpc !== '2.0' || !m.method) return;
        hostState.requests.push(m.method);
        if (m.method === 'ui/initialize') {
          post({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, hostInfo: { name: 'e2e-host', version: '1' },
            hostCapabilities: { serverResources: {}, serverTools: {} }, hostContext: { theme: 'light', displayMode: 'inline' } } });
        } else if (m.method === 'ui/notifications/initialized') {
          hostState.initialized = true;
        } else if (m.method === 'ui/notifications/size-changed') {
          hostState.heights.push(m.params.height);
        } else if (m.method === 'tools/call' && window.relayTools === false) {
          post({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'this host relays no tool calls' } });
        } else if (m.id !== undefined) {
          try { post({ jsonrpc: '2.0', id: m.id, result: await window.relay(m.method, m.params) }); }
          catch (err) { post({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: String(err && err.message || err) } }); }
        }
      });
      window.toolResult = (r) => post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: r });
      </script></body></html>`);
    await host.evaluate((html) => { document.getElementById('app').srcdoc = html; }, app.text);
    await host.waitForFunction(() => window.hostState.initialized, null, { timeout: 5000 });
    const appFrame = await (await host.$('#app')).contentFrame();
    const step = async (args, want) => {
      const r = await mcp.callTool({ name: 'branch-thinking', arguments: { session_id: id, ...args } });
      check(!r.isError, 'branch-thinking failed: ' + JSON.stringify(r.content));
      await host.evaluate((res) => window.toolResult(res), r);
      await appFrame.waitForFunction((n) => document.querySelectorAll('#graph .node').length === n, want, { timeout: 5000 })
        .catch(() => failures.push(`app: ${want} nodes not drawn`));
    };
    await step({ content: 'Which queue should carry the order events?', type: 'question', confidence: 0.9 }, 1);
    await step({ content: 'Kafka: durable and replayable, but heavy to run for two services', type: 'hypothesis', branchId: 'kafka', confidence: 0.6 }, 2);
    await step({ content: 'A table in the orders database, polled: no new system at all', type: 'hypothesis', branchId: 'outbox', confidence: 0.8,
      crossRefs: [{ toBranch: 'kafka', type: 'alternative', reason: 'same need' }] }, 3);
    const st = await host.evaluate(() => window.hostState);
    results.app = { requests: st.requests, heights: st.heights, outside };
    check(st.heights.length >= 3 && st.heights.every((h) => h > 100), `size-changed heights ${st.heights}`);
    check(outside.length === 0, `the app or host fetched ${outside}`);
    const status = await appFrame.locator('#status').textContent();
    check(status === '3 thoughts', `app status ${status}`);
    const via = await appFrame.evaluate(() => document.body.dataset.via);
    check(via === 'tools/call' && st.requests.filter((m) => m === 'tools/call').length >= 3, `the app got the drawing by ${via}: ${st.requests}`);
    // The branches fork from the root: both hypotheses sit below #1.
    const y = await appFrame.evaluate(() => Object.fromEntries([...document.querySelectorAll('#graph .node')].map((n) => [n.dataset.step, n.getBoundingClientRect().top])));
    check(y['2'] > y['1'] && y['3'] === y['2'], `app layout ${JSON.stringify(y)}`);
    await appFrame.locator('#graph .node[data-step="3"]').click();
    check((await appFrame.locator('#detail').textContent()).startsWith('#3: A table in the orders database'), 'app detail of #3');
    await host.screenshot({ path: `${spec.shots}/app-in-host.png` });
    // A host that relays resource reads but no tool calls: the app reads
    // the session's SVG resource instead.
    await host.evaluate(() => { window.relayTools = false; });
    await step({ content: 'The outbox table needs a cleanup job', type: 'critique', branchId: 'outbox', confidence: 0.7 }, 4);
    check(await appFrame.evaluate(() => document.body.dataset.via) === 'resources/read', 'the app did not fall back to resources/read');
    // The app sizes itself from its content, not from its frame: in a
    // frame three times as tall, it asks for the height it asked for
    // before (give or take the node just added).
    const before = (await host.evaluate(() => window.hostState.heights)).at(-1);
    await host.evaluate(() => { document.getElementById('app').style.height = '2400px'; });
    await step({ content: 'The cleanup job runs nightly', type: 'analysis', branchId: 'outbox', confidence: 0.7 }, 5);
    const after = (await host.evaluate(() => window.hostState.heights)).at(-1);
    results.appHeights = { before, after };
    check(after < before + 200 && after < 1000, `the app asked for ${after} px in a 2,400 px frame (${before} px before): it sizes itself from its frame`);
    // Every control character XML forbids, as an ANSI colour code too: the
    // app's DOMParser reads the drawing (issue 38: "The drawing could not
    // be read") and shows ESC as ␛.
    let controls = '';
    for (let c = 1; c < 0x20; c++) controls += String.fromCharCode(c);
    await step({ content: '\x1b[31mred\x1b[0m and ' + controls + '\uFFFE\uFFFF', type: 'observation', branchId: 'outbox' }, 6);
    const drawn = await appFrame.evaluate(() => Array.from(document.querySelectorAll('#graph .node text')).map((t) => t.textContent).join(' '));
    check(drawn.includes('␛[31mred'), `the app does not show the control characters' pictures: ${drawn.slice(0, 200)}`);
    await host.close();
    await mcp.close();
  }

  // Mermaid exports through the mermaid library (pinned in package.json):
  // the 200-thought session and a small one made here of every kind of
  // text, branch and edge an export must escape. Each must parse and
  // render with one node per thought showing its text, one edge per edge
  // line, and red edges where the export colours them. The limits are
  // raised to render here; results.mermaid records each export's size and
  // edges against mermaid's defaults (maxTextSize 50,000, maxEdges 500),
  // which a user pasting it into another mermaid gets, and the
  // 200-thought session must fit them.
  const special = 'mermaid-special';
  const mcp = new Client({ name: 'viewer-e2e-mermaid', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(spec.url + 'mcp')));
  const call = async (name, args) => {
    const r = await mcp.callTool({ name, arguments: { session_id: special, ...args } });
    check(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  };
  await call('think', { confidence: 0.9, thought: 'Start: quotes "double" \'single\' back\\slash \\N \\G ends in \\' });
  await call('think', { confidence: 0.3, thought: '<script>tgInjected(2)</script> {braces} [b] (c) | pipe # hash ; semi %% & &amp; &#60; `tick`' });
  await call('select_path', { selected_index: 1, alternatives: [
    { thought: '#35; entity #quot; --> ==> -.-> x-.-x end subgraph style classDef linkStyle', confidence: 0.5 },
    { thought: 'line one\nline two\r\n\ttabbed: emoji 🧠🤔 👨‍👩‍👧, naïve 日本語 ∑ → ≠ Ω\u200b\u202e!', confidence: 0.8 },
    { thought: '`markdown` **bold** _it_ <img src=x onerror="tgInjected(3)">', confidence: 0.4 }] });
  await call('think', { confidence: 0.7, thought: 'very long content, '.repeat(500) });
  await call('think', { thought: 'The cache hit rate is 90 percent.' });
  await call('think', { thought: 'The cache hit rate is not 90 percent.' });
  const weird = 'alt: a/b @x.y - z';
  await call('branch-thinking', { content: 'In the branch {x} "y" <z> \\ #;|', type: 'analysis', branchId: weird, confidence: 0.6 });
  await call('branch-thinking', { content: 'Second branch', type: 'analysis', branchId: 'b2', parentBranchId: weird,
    crossRefs: ['builds_upon', 'contradictory', 'complementary', 'alternative'].map((type) =>
      ({ toBranch: type === 'alternative' ? 'main' : weird, type, reason: `${type}: "quoted" <b>x</b> \\N | # ;` })) });
  await mcp.close();
  results.mermaid = {};
  const mermaidPage = await browser.newPage();
  mermaidPage.on('pageerror', (e) => failures.push('mermaid page error: ' + e.message));
  await mermaidPage.exposeFunction('tgInjected', (s) => scriptsRun.push('mermaid ' + s));
  await mermaidPage.addScriptTag({ path: fileURLToPath(new URL('node_modules/mermaid/dist/mermaid.min.js', import.meta.url)) });
  for (const id of [spec.session200, special]) {
    const get = async (format) => {
      const r = await fetch(spec.url + 'sessions/' + encodeURIComponent(id) + '/export/' + format);
      check(r.ok, `export ${format} of ${id}: HTTP ${r.status}`);
      return format === 'json' ? r.json() : r.text();
    };
    const text = await get('mermaid');
    const doc = await get('json');
    const edgeList = text.split('\n').filter((l) => /^ +t\d+ (-->|==>|-\.->|x-\.-x)/.test(l));
    const edgeLines = edgeList.length;
    // Red: the analysis' contradictions and contradictory cross-references,
    // as the from_to pairs mermaid names their paths by.
    const wantRed = edgeList.filter((l) => / x-\.-x\|/.test(l) || /\|"contradictory"\|/.test(l))
      .map((l) => l.trim().split(' ').filter((w) => /^t\d+$/.test(w)).join('_')).sort().join(' ');
    const drawn = await mermaidPage.evaluate(async (text) => {
      mermaid.initialize({ startOnLoad: false, maxTextSize: 10_000_000, maxEdges: 100_000 });
      try {
        await mermaid.parse(text);
        const { svg } = await mermaid.render('g', text);
        const box = document.createElement('div');
        box.innerHTML = svg;
        const nodes = [...box.querySelectorAll('g.node')].map((n) => [n.id.match(/flowchart-t(\d+)-/)?.[1], n.textContent]);
        const links = [...box.querySelectorAll('.flowchart-link')];
        const red = links.filter((l) => /#d62728/i.test(l.getAttribute('style'))).map((l) => l.id.match(/L_(t\d+_t\d+)_\d+$/)?.[1]);
        return { nodes, edges: links.length, red: red.sort().join(' '),
          markup: box.querySelectorAll('script, img, b').length };
      } catch (e) {
        return { error: String(e && e.message || e) };
      }
    }, text);
    results.mermaid[id] = { chars: text.length, edges: edgeLines, thoughts: doc.thoughts.length,
      fitsDefaults: text.length <= 50000 && edgeLines <= 500, drawnNodes: drawn.nodes?.length, drawnEdges: drawn.edges };
    if (!check(!drawn.error, `mermaid rejects the export of ${id}: ${drawn.error}`)) continue;
    check(drawn.nodes.length === doc.thoughts.length, `mermaid drew ${drawn.nodes.length} nodes for the ${doc.thoughts.length} thoughts of ${id}`);
    const parents = doc.thoughts.filter((t) => t.parentId).length;
    check(edgeLines >= parents + doc.links.length, `${id}: ${edgeLines} edges for ${parents} parents and ${doc.links.length} links`);
    check(drawn.edges === edgeLines, `mermaid drew ${drawn.edges} of the ${edgeLines} edges of ${id}`);
    check(drawn.red === wantRed, `${id}: mermaid drew red edges ${drawn.red}, want ${wantRed}`);
    check(drawn.markup === 0, `markup of a thought of ${id} rendered as elements`);
    // Each node shows its step and confidence, then the thought on one
    // line (clipped at 60 characters with an ellipsis).
    const byStep = new Map(doc.thoughts.map((t) => [String(t.step), t]));
    for (const [step, shown] of drawn.nodes) {
      const t = byStep.get(step);
      const conf = t?.confidence == null ? '—' : t.confidence.toFixed(2);
      const line = Array.from(t ? t.content.split(/\s+/).filter(Boolean).join(' ') : '');
      const want = `#${step} · ${conf}` + (line.length <= 60 ? line.join('') : line.slice(0, 59).join('') + '…');
      check(shown === want, `${id}: node ${step} shows ${JSON.stringify(shown)}, want ${JSON.stringify(want)}`);
    }
  }
  const m200 = results.mermaid[spec.session200];
  check(m200.fitsDefaults, `the Mermaid export of the 200-thought session (${m200.chars} characters, ${m200.edges} edges) exceeds mermaid's default limits`);
  check(results.mermaid[special].thoughts >= 10, `the special session has ${results.mermaid[special].thoughts} thoughts`);
  check(scriptsRun.length === 0, 'a script in a Mermaid export ran');
  await mermaidPage.close();

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
