package web

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph/render"
)

// listRow is one session of the list page.
type listRow struct {
	ID, Goal, Mode string
	Steps          int
	Updated        time.Time
}

// sortRows sorts the session list: by recency (default), steps or id.
func sortRows(rows []listRow, by string) {
	slices.SortStableFunc(rows, func(a, b listRow) int {
		switch by {
		case "steps":
			return cmp.Or(cmp.Compare(b.Steps, a.Steps), b.Updated.Compare(a.Updated))
		case "id":
			return strings.Compare(a.ID, b.ID)
		default:
			return cmp.Or(b.Updated.Compare(a.Updated), strings.Compare(a.ID, b.ID))
		}
	})
}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }
func fmtISO(t time.Time) string  { return t.UTC().Format(time.RFC3339Nano) }

// The pages are written by hand, not with html/template (see the render
// package's HTML for why). esc escapes user text for HTML text and quoted
// attribute values; session ids are limited to [A-Za-z0-9._:@-], so they
// need no escaping in a URL path, and are escaped for HTML all the same.
var esc = render.EscapeHTML

const head = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/assets/viewer.css">
<script src="/assets/viewer.js" defer></script>`

// writer appends strings to a buffer.
type writer struct{ b *bytes.Buffer }

func (w writer) p(parts ...string) {
	for _, s := range parts {
		w.b.WriteString(s)
	}
}

// selected is the attribute of the sort option that is chosen.
func selected(ok bool) string {
	if ok {
		return " selected"
	}
	return ""
}

// writeListPage writes the session list: rows after filtering by q, sorted
// by sortBy, out of total sessions.
func writeListPage(b *bytes.Buffer, rows []listRow, q, sortBy string, total int) {
	w := writer{b}
	w.p(head, `
<title>thinkgraph sessions</title></head>
<body class="list">
<header><h1>thinkgraph</h1><span class="sub">reasoning sessions</span></header>
<main>
<form class="filters" method="get" action="/">
<input type="search" name="q" id="tg-search" value="`, esc(q), `" placeholder="Search sessions by id, goal or mode" autocomplete="off">
<select name="sort" id="tg-sort">
<option value="recent"`, selected(sortBy == "" || sortBy == "recent"), `>Most recent</option>
<option value="steps"`, selected(sortBy == "steps"), `>Most thoughts</option>
<option value="id"`, selected(sortBy == "id"), `>Id</option>
</select>
<button type="submit">Filter</button>
</form>
`)
	if len(rows) > 0 {
		w.p(`<table id="tg-sessions"><thead><tr><th>Session</th><th>Goal</th><th>Mode</th><th>Thoughts</th><th>Updated</th></tr></thead><tbody>
`)
		for _, r := range rows {
			id, steps, iso := esc(r.ID), strconv.Itoa(r.Steps), fmtISO(r.Updated)
			w.p(`<tr data-search="`, id, " ", esc(r.Goal), " ", esc(r.Mode), `" data-steps="`, steps, `" data-updated="`, iso, `" data-id="`, id, `">
<td><a href="/sessions/`, id, `">`, id, `</a></td><td class="goal">`, esc(r.Goal), `</td><td>`, esc(r.Mode), `</td><td class="num">`, steps,
				`</td><td><time datetime="`, iso, `">`, fmtTime(r.Updated), `</time></td></tr>
`)
		}
		w.p(`</tbody></table>`)
	} else if q != "" {
		w.p(`<p class="empty">No session matches.</p>`)
	} else {
		w.p(`<p class="empty">No sessions yet: call a thinkgraph tool from an MCP client and it appears here.</p>`)
	}
	w.p("\n<p class=\"note\">", strconv.Itoa(total), ` sessions.</p>
</main></body></html>
`)
}

// writeSessionPage writes a session's page; data is the thought data
// element (HTML-safe, possibly empty).
func writeSessionPage(b *bytes.Buffer, p *graphPayload, data string) {
	w := writer{b}
	id, steps := esc(p.ID), strconv.Itoa(p.Steps)
	w.p(head, `
<title>`, id, ` · thinkgraph</title></head>
<body class="session" data-session="`, id, `" data-steps="`, steps, `">
<header><a href="/" class="back">← sessions</a><h1>`, id, `</h1>
<span class="sub" id="tg-summary"><span id="tg-steps">`, steps, `</span> thoughts · <span id="tg-branches">`, strconv.Itoa(p.Branches),
		`</span> branches · <span id="tg-contra">`, strconv.Itoa(p.Findings.Contradictions), `</span> contradictions · <span id="tg-circ">`,
		strconv.Itoa(p.Findings.Circular), `</span> circular chains · updated <time id="tg-updated" datetime="`, fmtISO(p.Updated), `">`, fmtTime(p.Updated), `</time></span>
<span id="tg-live" class="live" title="live updates">●</span>
<nav class="exports">Export: <a href="/sessions/`, id, `/export/markdown">Markdown</a> <a href="/sessions/`, id, `/export/mermaid">Mermaid</a> <a href="/sessions/`, id,
		`/export/dot">DOT</a> <a href="/sessions/`, id, `/export/html">HTML</a> <a href="/sessions/`, id, `/export/json">JSON</a></nav>
</header>
`)
	if p.Goal != "" {
		w.p(`<p class="goal"><strong>Goal:</strong> `, esc(p.Goal), `</p>`)
	}
	w.p(`
<p class="legend"><span><i class="sw low"></i>low confidence</span><span><i class="sw high"></i>high confidence</span><span><i class="sw none"></i>no confidence</span><span><b>bold outline</b>: path to the current thought</span><span>◆ branch point</span><span>dashed: unexplored alternative</span><span class="red">! contradiction</span><span class="orange">⟳ circular</span><span class="refuted">✗ refuted by a person</span><label class="toggle"><input type="checkbox" id="tg-verdicts"> stated verdicts: compatible, not circular</label><span class="note" id="tg-analysis">`, esc(p.Analysis), `</span></p>
<div class="layout">
<div class="graph" id="tg-graph">`, p.SVG, `</div>
<aside class="panel" id="tg-panel" aria-live="polite">
<div id="tg-overview">
<p class="hint" id="tg-hint">Click a thought to read it.</p>
</div>
<div id="tg-detail" hidden>
<button type="button" class="step" id="tg-back">← overview</button>
<h2 id="tg-title"></h2>
<p class="meta" id="tg-meta"></p>
<div class="text" id="tg-text"></div>
<ul id="tg-keypoints"></ul>
<dl id="tg-metrics"></dl>
<h3>Links</h3>
<ul id="tg-links"></ul>
<h3>Feedback</h3>
<ul id="tg-feedback"></ul>
<form id="tg-feedback-form" class="feedback-form">
<label for="tg-feedback-text">Refute, confirm or comment on this thought (the model gets it with its next step)</label>
<textarea id="tg-feedback-text" maxlength="2000" rows="3" required></textarea>
<div class="buttons"><button type="button" data-kind="refute">Refute</button><button type="button" data-kind="confirm">Confirm</button><button type="button" data-kind="comment">Comment</button></div>
<p class="note" id="tg-feedback-status" role="status"></p>
</form>
</div>
</aside>
</div>
`, data, `
</body></html>
`)
}
