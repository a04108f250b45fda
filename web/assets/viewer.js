// thinkgraph viewer. User text is only ever set with textContent; the SVG
// comes from the server with every piece of user text already escaped.
(function () {
  'use strict';
  var body = document.body;

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function initList() {
    var q = document.getElementById('tg-search');
    var sort = document.getElementById('tg-sort');
    var table = document.getElementById('tg-sessions');
    if (!q || !sort || !table) return;
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    function updated(r) { return Date.parse(r.dataset.updated) || 0; }
    function apply() {
      var s = q.value.trim().toLowerCase();
      rows.forEach(function (r) { r.hidden = s !== '' && r.dataset.search.toLowerCase().indexOf(s) < 0; });
      var by = sort.value;
      rows.slice().sort(function (a, b) {
        if (by === 'steps') return (b.dataset.steps - a.dataset.steps) || (updated(b) - updated(a));
        if (by === 'id') return a.dataset.id < b.dataset.id ? -1 : a.dataset.id > b.dataset.id ? 1 : 0;
        return updated(b) - updated(a);
      }).forEach(function (r) { tbody.appendChild(r); });
    }
    q.addEventListener('input', apply);
    sort.addEventListener('change', apply);
  }

  function initSession() {
    var id = body.dataset.session;
    var base = '/sessions/' + encodeURIComponent(id);
    var graph = document.getElementById('tg-graph');
    var thoughts = [];
    var byID = {}, byStep = {};
    var selected = null;

    var bands = [];
    var drawn = {};
    var observer = window.IntersectionObserver ? new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) drawBand(e.target); });
    }, {root: graph, rootMargin: '600px'}) : null;

    // drawBand replaces a placeholder with its band (server-rendered SVG,
    // user text escaped there).
    function drawBand(ph) {
      var i = Number(ph.dataset.band);
      if (!ph.parentNode || bands[i] === undefined) return;
      if (observer) observer.unobserve(ph);
      var tmp = document.createElement('div');
      tmp.innerHTML = bands[i];
      var svg = tmp.firstElementChild;
      ph.parentNode.replaceChild(svg, ph);
      drawn[i] = true;
      if (selected) { var n = nodeOf(selected); if (n) n.classList.add('selected'); }
    }

    function lazyBands() {
      var phs = graph.querySelectorAll('.tg-lazy');
      for (var i = 0; i < phs.length; i++) {
        if (drawn[phs[i].dataset.band] || !observer) drawBand(phs[i]);
        else observer.observe(phs[i]);
      }
    }

    function setData(d, b) {
      bands = b || [];
      setThoughts(d.thoughts);
      if (d.overview) showOverview(d.overview);
    }

    // showOverview fills the panel's overview: what the session is about
    // and what to look at, shown until a thought is selected.
    function showOverview(ov) {
      var box = document.getElementById('tg-overview');
      var hint = document.getElementById('tg-hint');
      box.replaceChildren(hint);
      function section(title, items, empty, fill) {
        box.appendChild(el('h3', title));
        if (!items.length) { box.appendChild(el('p', empty, 'empty')); return; }
        var ul = el('ul');
        items.forEach(function (it) { var li = el('li'); fill(li, it); ul.appendChild(li); });
        box.appendChild(ul);
      }
      function steps(li, list, sep) {
        list.forEach(function (s, i) { if (i) li.appendChild(document.createTextNode(sep)); li.appendChild(stepButton(s)); });
      }
      if (ov.goal) { box.appendChild(el('h3', 'Goal')); box.appendChild(el('p', ov.goal, 'text')); }
      // more says how many entries a list leaves out.
      function more(n, what) { if (n) box.appendChild(el('p', 'and ' + n + ' ' + what + ' (the Markdown download lists them all)', 'note')); }
      section('Branches', ov.branches || [], 'No thoughts yet.', function (li, b) {
        var s = b.id + ' · ' + b.thoughts + ' thought' + (b.thoughts === 1 ? '' : 's');
        if (b.state && b.state !== 'active') s += ' · ' + b.state;
        if (b.quality) s += ' · ' + b.quality + (b.score !== undefined && b.score !== null ? ' ' + b.score.toFixed(2) : '');
        if (b.away) s += ' · ' + b.away;
        li.textContent = s;
      });
      more(ov.branchesMore, 'more branches');
      if (ov.conclusion) {
        var cp = el('p', 'Conclusion: ', 'note');
        cp.appendChild(stepButton(ov.conclusion));
        box.appendChild(cp);
      }
      if (ov.analysis) box.appendChild(el('p', ov.analysis, 'note'));
      section('Contradictions', ov.contradictions || [], 'None found.', function (li, c) {
        li.className = 'contradiction';
        steps(li, c.steps, ' ↔ ');
        li.appendChild(document.createTextNode(' (' + c.score + ')' + (c.reason ? ': ' + c.reason : '')));
      });
      section('Circular reasoning', ov.circular || [], 'None found.', function (li, c) {
        li.className = 'circular';
        li.appendChild(document.createTextNode(c.kind + ': '));
        steps(li, c.steps, ' → ');
        if (c.reason) li.appendChild(document.createTextNode(': ' + c.reason));
      });
      // What the model is asked: the open review groups, in the words of
      // findContradictions.
      var qs = ov.questions || [];
      var qTitle = 'Questions for the model' + (ov.openQuestions > qs.length ? ' (' + qs.length + ' of ' + ov.openQuestions + ')' : '');
      section(qTitle, qs, 'None open.', function (li, q) {
        li.className = 'question';
        if (q.signs) li.appendChild(el('span', q.signs + ': ', 'signs'));
        (q.claims || []).forEach(function (c, i) {
          if (i) li.appendChild(document.createTextNode(' · '));
          li.appendChild(stepButton(c.step));
          li.appendChild(document.createTextNode(' ' + c.text));
        });
      });
      if (qs.length && ov.ask) box.appendChild(el('p', ov.ask, 'note'));
      section('Away from the goal', ov.drift || [], 'No branch drifts.', function (li, d) {
        li.className = 'drift';
        li.textContent = d.branch + (d.offGoal ? ', off the goal from its first thought: ' : ', drifting: ') + d.reason;
      });
      section('Unexplored alternatives', (ov.unexplored || []).length ? [ov.unexplored] : [], 'None.', function (li, list) { steps(li, list, ' '); });
      more(ov.unexploredMore, 'more');
      more(ov.feedbackMore, 'earlier pieces of feedback');
      section('Human feedback', ov.feedback || [], 'None yet: select a thought to refute, confirm or comment on it.', function (li, f) {
        fillFeedback(li, f, true);
      });
    }

    // fillFeedback writes one piece of feedback: its kind, (its step), its
    // text and whether the model has received it.
    function fillFeedback(li, f, withStep) {
      li.className = 'feedback ' + f.kind;
      li.appendChild(document.createTextNode(f.kind + (withStep ? ' ' : '')));
      if (withStep && f.step) li.appendChild(stepButton(f.step));
      li.appendChild(document.createTextNode(': ' + f.text + (f.delivered ? ' (delivered)' : ' (not delivered yet)')));
    }

    // The feedback form of the selected thought.
    var fbForm = document.getElementById('tg-feedback-form');
    var fbStatus = document.getElementById('tg-feedback-status');
    if (fbForm) {
      fbForm.addEventListener('submit', function (e) { e.preventDefault(); });
      var kinds = fbForm.querySelectorAll('button[data-kind]');
      for (var k = 0; k < kinds.length; k++) {
        kinds[k].addEventListener('click', function (e) {
          var kind = e.currentTarget.dataset.kind;
          var textArea = document.getElementById('tg-feedback-text');
          if (!selected) return;
          fbStatus.textContent = 'Sending…';
          fetch(base + '/feedback', {
            method: 'POST', credentials: 'same-origin', cache: 'no-store',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({thought_id: selected, kind: kind, text: textArea.value})
          }).then(function (r) {
            return r.json().catch(function () { return {}; }).then(function (b) {
              if (!r.ok) throw new Error(b.error || ('HTTP ' + r.status));
              textArea.value = '';
              fbStatus.textContent = 'Sent: the model gets it with its next step.';
              refresh();
            });
          }).catch(function (err) { fbStatus.textContent = 'Not sent: ' + err.message; });
        });
      }
    }

    function deselect() {
      selected = null;
      var prev = graph.querySelectorAll('.node.selected');
      for (var i = 0; i < prev.length; i++) prev[i].classList.remove('selected');
      document.getElementById('tg-detail').hidden = true;
      document.getElementById('tg-overview').hidden = false;
    }
    document.getElementById('tg-back').addEventListener('click', deselect);
    document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && selected) deselect(); });

    // fit enlarges a drawing narrower than its pane to use the pane's
    // width (at most 1.4 times), shrinks one a little wider than the pane
    // to fit it (down to minZoom, where the text is still readable), and
    // leaves a wider one at its size, to scroll inside the pane.
    var minZoom = 0.85;
    function fit() {
      var b = graph.querySelector('.tg-bands');
      if (!b) return;
      b.style.zoom = '';
      var z = Math.min(1.4, (graph.clientWidth - 4) / b.scrollWidth);
      if (z > 1.02) b.style.zoom = String(Math.round(z * 100) / 100);
      else if (z < 1 && z >= minZoom) b.style.zoom = String(Math.floor(z * 100) / 100);
    }
    fit();
    window.addEventListener('resize', fit);

    function setThoughts(list) {
      thoughts = list || [];
      byID = {}; byStep = {};
      thoughts.forEach(function (t) { byID[t.id] = t; byStep[t.step] = t; });
    }
    // Small sessions carry their thought data in the page; large ones
    // fetch it, with the bands not drawn yet, after the first paint.
    var inline = document.getElementById('tg-data');
    if (inline) setData(JSON.parse(inline.textContent));
    // painted resolves once the first frame with the graph is drawn (two
    // animation frames after this script ran); body[data-painted] says when,
    // in ms since navigation started.
    var painted = new Promise(function (done) {
      requestAnimationFrame(function () { requestAnimationFrame(function () {
        body.dataset.painted = String(Math.round(performance.now()));
        setTimeout(done, 0);
      }); });
    });
    var dataReady = inline && !graph.querySelector('.tg-lazy') ? Promise.resolve() : painted.then(function () {
      return fetch(base + '/graph', {credentials: 'same-origin', cache: 'no-store'});
    }).then(function (r) { return r.ok ? r.json() : {}; })
      .then(function (p) {
        if (!thoughts.length && p.data) setThoughts(p.data.thoughts);
        if (!bands.length) bands = p.bands || [];
        lazyBands();
      });
    dataReady.then(function () { body.dataset.loaded = 'true'; });

    function nodeOf(tid) {
      var t = byID[tid];
      return t ? graph.querySelector('.node[data-step="' + Number(t.step) + '"]') : null;
    }

    // centre scrolls the drawing's pane (and only it: the page's top stays
    // in view) so that node n sits in its middle.
    function centre(n) {
      var p = graph.getBoundingClientRect(), r = n.getBoundingClientRect();
      graph.scrollTop += (r.top + r.height / 2) - (p.top + p.height / 2);
      graph.scrollLeft += (r.left + r.width / 2) - (p.left + p.width / 2);
    }

    // reveal draws the band of a thought and scrolls it into view.
    function reveal(tid) {
      var t = byID[tid];
      if (!t) return null;
      var n = nodeOf(tid);
      if (!n) {
        // Draw the one band that holds the thought.
        var mark = 'data-step="' + Number(t.step) + '"';
        var phs = graph.querySelectorAll('.tg-lazy');
        for (var i = 0; i < phs.length && !n; i++) {
          var b = bands[Number(phs[i].dataset.band)];
          if (b !== undefined && b.indexOf(mark) >= 0) { drawBand(phs[i]); n = nodeOf(tid); }
        }
      }
      if (n) centre(n);
      return n;
    }

    function stepButton(step) {
      var b = el('button', '#' + step, 'step');
      b.type = 'button';
      b.addEventListener('click', function () {
        var t = byStep[step];
        if (t) { reveal(t.id); select(t.id); }
      });
      return b;
    }

    function row(dl, name, value) {
      if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return;
      dl.appendChild(el('dt', name));
      var dd = el('dd');
      if (Array.isArray(value)) {
        value.forEach(function (s, i) { if (i) dd.appendChild(document.createTextNode(' ')); dd.appendChild(stepButton(s)); });
      } else if (typeof value === 'number' && name !== 'confidence') {
        dd.appendChild(stepButton(value));
      } else {
        dd.textContent = String(value);
      }
      dl.appendChild(dd);
    }

    function select(tid) {
      var t = byID[tid];
      if (!t) return;
      var prevSelected = selected;
      selected = tid;
      var prev = graph.querySelectorAll('.node.selected');
      for (var i = 0; i < prev.length; i++) prev[i].classList.remove('selected');
      var n = nodeOf(tid);
      if (n) n.classList.add('selected');
      document.getElementById('tg-overview').hidden = true;
      document.getElementById('tg-detail').hidden = false;
      document.getElementById('tg-title').textContent = 'Step ' + t.step + ' · ' + t.branch;
      var meta = [];
      if (t.type) meta.push(t.type);
      meta.push('confidence ' + (t.confidence === null || t.confidence === undefined ? '—' : t.confidence.toFixed(2)));
      if (t.tool) meta.push(t.tool);
      if (t.author) meta.push('by ' + t.author);
      if (t.createdAt) meta.push(new Date(t.createdAt).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
      document.getElementById('tg-meta').textContent = meta.join(' · ');
      document.getElementById('tg-text').textContent = t.content;
      var kp = document.getElementById('tg-keypoints');
      kp.replaceChildren();
      (t.keyPoints || []).forEach(function (k) { kp.appendChild(el('li', k)); });
      var dl = document.getElementById('tg-metrics');
      dl.replaceChildren();
      row(dl, 'confidence', t.confidence === null || t.confidence === undefined ? 'not given' : t.confidence.toFixed(2));
      row(dl, 'flags', (t.flags || []).join(', '));
      row(dl, 'follows', t.parent || null);
      row(dl, 'followed by', t.children || []);
      row(dl, 'revises', t.revises || null);
      if (t.unexplored) row(dl, 'unexplored', t.unexplored + ' alternative' + (t.unexplored > 1 ? 's' : ''));
      row(dl, 'id', t.id);
      var links = document.getElementById('tg-links');
      links.replaceChildren();
      (t.links || []).forEach(function (l) {
        var li = el('li', null, l.kind);
        var what = l.kind === 'link' ? (l.dir === 'to' ? l.type + ' → ' : l.type + ' ← ') : (l.kind === 'contradiction' ? 'contradicts ' : 'circular (' + l.type + ') with ');
        li.appendChild(document.createTextNode(what));
        if (l.step) li.appendChild(stepButton(l.step));
        var rest = (l.score ? ' (' + l.score + ')' : '') + (l.text ? ': ' + l.text : '');
        li.appendChild(document.createTextNode(rest));
        links.appendChild(li);
      });
      if (t.linksMore) links.appendChild(el('li', 'and ' + t.linksMore + ' more (the Markdown download lists them all)', 'none'));
      if (!links.children.length) links.appendChild(el('li', 'none', 'none'));
      var fb = document.getElementById('tg-feedback');
      fb.replaceChildren();
      if (t.feedbackMore) fb.appendChild(el('li', t.feedbackMore + ' earlier pieces (the Markdown download lists them all)', 'none'));
      (t.feedback || []).forEach(function (f) { var li = el('li'); fillFeedback(li, f, false); fb.appendChild(li); });
      if (prevSelected !== tid && fbStatus) fbStatus.textContent = '';
    }

    graph.addEventListener('click', function (e) {
      var n = e.target.closest && e.target.closest('.node');
      if (n) dataReady.then(function () { select(n.dataset.id); });
    });
    graph.addEventListener('keydown', function (e) {
      var n = e.target.closest && e.target.closest('.node');
      if (n && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); select(n.dataset.id); }
    });

    function text(idName, value) { var e = document.getElementById(idName); if (e) e.textContent = String(value); }

    var busy = false, again = false;
    function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      fetch(base + '/graph', {credentials: 'same-origin', cache: 'no-store'})
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (p) {
          var known = byID;
          var sx = graph.scrollLeft, sy = graph.scrollTop;
          graph.innerHTML = p.svg;
          fit();
          graph.scrollLeft = sx; graph.scrollTop = sy;
          setData(p.data, p.bands);
          lazyBands();
          var nodes = graph.querySelectorAll('.node');
          for (var i = 0; i < nodes.length; i++) if (!known[nodes[i].dataset.id]) nodes[i].classList.add('fresh');
          text('tg-steps', p.steps); text('tg-branches', p.branches);
          text('tg-contra', p.contradictions); text('tg-circ', p.circular); text('tg-analysis', p.analysis || '');
          var up = document.getElementById('tg-updated');
          if (up) { up.textContent = new Date(p.updated).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'); up.setAttribute('datetime', p.updated); }
          body.dataset.steps = p.steps;
          if (selected && byID[selected]) select(selected);
        })
        .catch(function () {})
        .then(function () { busy = false; if (again) { again = false; refresh(); } });
    }

    if (window.EventSource) {
      var live = document.getElementById('tg-live');
      var es = new EventSource(base + '/events');
      es.addEventListener('open', function () { live.classList.add('on'); });
      es.addEventListener('error', function () { live.classList.remove('on'); });
      es.addEventListener('change', refresh);
      es.addEventListener('version', function (e) {
        // After a reconnect, catch up on what changed meanwhile.
        try { if (JSON.parse(e.data).steps !== Number(body.dataset.steps)) refresh(); } catch (err) {}
      });
    }
    // For tests: draw the band of a step and scroll to it.
    window.tgReveal = function (step) {
      return dataReady.then(function () { var t = byStep[step]; return !!(t && reveal(t.id)); });
    };
    // Stated verdicts that two thoughts agree (compatible, not circular)
    // are drawn hidden; the legend's toggle shows them.
    var verdicts = document.getElementById('tg-verdicts');
    if (verdicts) verdicts.addEventListener('change', function () { graph.classList.toggle('show-verdicts', verdicts.checked); });
    // The page opens on the current thought, at the end of the path the
    // model followed (once: a live update keeps the reader's place).
    dataReady.then(function () {
      var cur = thoughts.filter(function (t) { return (t.flags || []).indexOf('current') >= 0; })[0];
      if (cur && !selected) reveal(cur.id);
      body.dataset.opened = cur ? String(cur.step) : '';
    });
    body.dataset.ready = String(Math.round(performance.now()));
  }

  if (body.classList.contains('list')) initList();
  else if (body.classList.contains('session')) initSession();
})();
