package web

import (
	"cmp"
	"html/template"
	"slices"
	"strings"
	"time"
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

var funcs = template.FuncMap{
	"time": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") },
	"iso":  func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) },
}

const head = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/assets/viewer.css">
<script src="/assets/viewer.js" defer></script>`

var listPage = template.Must(template.New("list").Funcs(funcs).Parse(head + `
<title>thinkgraph sessions</title></head>
<body class="list">
<header><h1>thinkgraph</h1><span class="sub">reasoning sessions</span></header>
<main>
<form class="filters" method="get" action="/">
<input type="search" name="q" id="tg-search" value="{{.Q}}" placeholder="Search sessions by id, goal or mode" autocomplete="off">
<select name="sort" id="tg-sort">
<option value="recent"{{if eq .Sort "" "recent"}} selected{{end}}>Most recent</option>
<option value="steps"{{if eq .Sort "steps"}} selected{{end}}>Most thoughts</option>
<option value="id"{{if eq .Sort "id"}} selected{{end}}>Id</option>
</select>
<button type="submit">Filter</button>
</form>
{{if .Rows}}<table id="tg-sessions"><thead><tr><th>Session</th><th>Goal</th><th>Mode</th><th>Thoughts</th><th>Updated</th></tr></thead><tbody>
{{range .Rows}}<tr data-search="{{.ID}} {{.Goal}} {{.Mode}}" data-steps="{{.Steps}}" data-updated="{{iso .Updated}}" data-id="{{.ID}}">
<td><a href="/sessions/{{.ID}}">{{.ID}}</a></td><td class="goal">{{.Goal}}</td><td>{{.Mode}}</td><td class="num">{{.Steps}}</td><td><time datetime="{{iso .Updated}}">{{time .Updated}}</time></td></tr>
{{end}}</tbody></table>{{else}}<p class="empty">{{if .Q}}No session matches.{{else}}No sessions yet: call a thinkgraph tool from an MCP client and it appears here.{{end}}</p>{{end}}
<p class="note">{{.Total}} sessions.</p>
</main></body></html>
`))

var sessionPage = template.Must(template.New("session").Funcs(funcs).Parse(head + `
<title>{{.P.ID}} · thinkgraph</title></head>
<body class="session" data-session="{{.P.ID}}" data-steps="{{.P.Steps}}">
<header><a href="/" class="back">← sessions</a><h1>{{.P.ID}}</h1>
<span class="sub" id="tg-summary"><span id="tg-steps">{{.P.Steps}}</span> thoughts · <span id="tg-branches">{{.P.Branches}}</span> branches · <span id="tg-contra">{{.P.Findings.Contradictions}}</span> contradictions · <span id="tg-circ">{{.P.Findings.Circular}}</span> circular chains · updated <time id="tg-updated" datetime="{{iso .P.Updated}}">{{time .P.Updated}}</time></span>
<span id="tg-live" class="live" title="live updates">●</span>
<nav class="exports">Export: <a href="/sessions/{{.P.ID}}/export/markdown">Markdown</a> <a href="/sessions/{{.P.ID}}/export/mermaid">Mermaid</a> <a href="/sessions/{{.P.ID}}/export/dot">DOT</a> <a href="/sessions/{{.P.ID}}/export/html">HTML</a> <a href="/sessions/{{.P.ID}}/export/json">JSON</a></nav>
</header>
{{if .P.Goal}}<p class="goal"><strong>Goal:</strong> {{.P.Goal}}</p>{{end}}
<p class="legend"><span><i class="sw low"></i>low confidence</span><span><i class="sw high"></i>high confidence</span><span><i class="sw none"></i>no confidence</span><span><b>bold outline</b>: path to the current thought</span><span>◆ branch point</span><span>dashed: unexplored alternative</span><span class="red">! contradiction</span><span class="orange">⟳ circular</span><span class="note" id="tg-analysis">{{.P.Analysis}}</span></p>
<div class="layout">
<div class="graph" id="tg-graph">{{.SVG}}</div>
<aside class="panel" id="tg-panel" aria-live="polite">
<p class="hint" id="tg-hint">Click a thought to read it.</p>
<div id="tg-detail" hidden>
<h2 id="tg-title"></h2>
<p class="meta" id="tg-meta"></p>
<div class="text" id="tg-text"></div>
<ul id="tg-keypoints"></ul>
<dl id="tg-metrics"></dl>
<h3>Links</h3>
<ul id="tg-links"></ul>
</div>
</aside>
</div>
{{.Data}}
</body></html>
`))
