package render

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"time"

	"github.com/thinkgraph/thinkgraph"
)

// htmlPage is the self-contained HTML export: no script or style is loaded
// from anywhere else. html/template escapes every piece of user text; the
// SVG is built by SVG, which escapes its own.
var htmlPage = template.Must(template.New("page").Funcs(template.FuncMap{
	"conf": confidence,
	"time": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"fill": confColor,
	"f2":   func(p *float64) string { return confidence(p) },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Reasoning session {{.G.Session.ID}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1em;color:#222}
.graph{overflow:auto;border:1px solid #ddd;border-radius:6px;max-height:80vh}
.graph .node{cursor:default}
.thought{border-left:6px solid #ccc;padding:.3em .8em;margin:.6em 0;background:#fafafa}
.thought pre{white-space:pre-wrap;font:inherit;margin:.3em 0}
.meta{color:#555;font-size:.9em}
.tag{display:inline-block;border-radius:3px;padding:0 .35em;margin-right:.3em;background:#eee}
.tag.contra{background:#d62728;color:#fff}.tag.circ{background:#ff7f0e;color:#fff}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left}
.legend span{display:inline-block;margin-right:1em}
.sw{display:inline-block;width:1em;height:1em;vertical-align:middle;border:1px solid #999;margin-right:.3em}
</style></head><body>
<h1>Reasoning session <code>{{.G.Session.ID}}</code></h1>
<p><strong>Goal:</strong> {{if .G.Session.Goal}}{{.G.Session.Goal}}{{else}}none stated{{end}}</p>
<p class="meta">Mode {{or .G.Session.Mode "—"}} · {{len .G.Thoughts}} thoughts in {{len .Branches}} branches · created {{time .G.Session.CreatedAt}} · updated {{time .G.Session.UpdatedAt}}</p>
<p class="legend"><span><i class="sw" style="background:{{fill .Low}}"></i>low confidence</span><span><i class="sw" style="background:{{fill .High}}"></i>high confidence</span><span><i class="sw" style="background:{{fill nil}}"></i>no confidence</span><span>bold: path to the current thought</span><span>◆ branch point</span><span>dashed: unexplored alternative</span><span style="color:#d62728">red: contradiction</span><span style="color:#ff7f0e">orange: circular reasoning</span></p>
<div class="graph">{{.SVG}}</div>
<h2>Branches</h2>
<table><tr><th>Branch</th><th>State</th><th>Thoughts</th></tr>
{{range .Branches}}<tr><td>{{.ID}}</td><td>{{.State}}</td><td>{{.N}}</td></tr>
{{end}}</table>
<h2>Thoughts</h2>
{{range .Thoughts}}<div class="thought" id="step-{{.T.Step}}" style="border-color:{{fill .T.Confidence}}">
<div class="meta">Step {{.T.Step}} · branch {{.T.BranchID}}{{if .T.Type}} · {{.T.Type}}{{end}} · confidence {{conf .T.Confidence}}{{range .Tags}} <span class="tag {{.Class}}">{{.Text}}</span>{{end}}</div>
<pre>{{.T.Content}}</pre>{{if .T.KeyPoints}}<ul>{{range .T.KeyPoints}}<li>{{.}}</li>{{end}}</ul>{{end}}
</div>
{{end}}
{{if .G.Links}}<h2>Cross-references</h2><ul>{{range .G.Links}}<li>{{.FromBranch}} {{.FromThought}} → {{.ToBranch}} {{.ToThought}}: {{.Type}} ({{printf "%.2f" .Strength}}){{if .Reason}} — {{.Reason}}{{end}}</li>{{end}}</ul>{{end}}
<h2>Contradictions</h2>
{{with .G.Analysis}}{{if .Unavailable}}<p>Not analysed: {{.Unavailable}}</p>{{else}}{{if .Contradictions}}<ul>{{range .Contradictions}}<li>step {{.ThoughtA.Step}} ({{.ThoughtA.Branch}}) “{{.ThoughtA.Content}}” ↔ step {{.ThoughtB.Step}} ({{.ThoughtB.Branch}}) “{{.ThoughtB.Content}}” — {{printf "%.2f" .Confidence}}: {{.Reason}}</li>{{end}}</ul>{{else}}<p>None found among {{.Checked}} thoughts.</p>{{end}}
<h2>Circular reasoning</h2>{{if .Circular}}<ul>{{range .Circular}}<li>{{.Kind}}: {{range $i, $r := .Thoughts}}{{if $i}} → {{end}}step {{$r.Step}}{{end}} — {{.Reason}}</li>{{end}}</ul>{{else}}<p>None found.</p>{{end}}
<h2>Evaluation</h2><table><tr><th>Branch</th><th>Quality</th><th>Overall</th><th>Coherence</th><th>Contradiction</th><th>Information gain</th><th>Redundancy</th></tr>
{{range .Evaluations}}<tr><td>{{.Branch}}</td><td>{{.Quality}}</td><td>{{f2 .OverallScore}}</td><td>{{f2 .CoherenceScore}}</td><td>{{f2 .ContradictionScore}}</td><td>{{f2 .InformationGain}}</td><td>{{f2 .RedundancyScore}}</td></tr>{{end}}</table>{{end}}{{else}}<p>Not analysed.</p>{{end}}
<p class="meta">Exported by thinkgraph.</p>
</body></html>
`))

type htmlTag struct{ Class, Text string }

// HTML writes a self-contained HTML page of the session: the SVG graph, the
// branches, every thought with its tags, cross-references and the analyses.
func HTML(w io.Writer, g *Graph) error {
	ix := g.index()
	var svg bytes.Buffer
	if err := SVG(&svg, g); err != nil {
		return err
	}
	type branchRow struct {
		ID, State string
		N         int
	}
	type thoughtRow struct {
		T    *thinkgraph.Thought
		Tags []htmlTag
	}
	byBranch := g.branchThoughts()
	var branches []branchRow
	for _, id := range ix.branches {
		state := "—"
		if b := g.branch(id); b != nil {
			state = b.State
		}
		branches = append(branches, branchRow{id, state, len(byBranch[id])})
	}
	var thoughts []thoughtRow
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		var tags []htmlTag
		if g.isBranchPoint(t) {
			tags = append(tags, htmlTag{"", "branch point"})
		}
		if unexplored(t) {
			tags = append(tags, htmlTag{"", "unexplored alternative"})
		} else if t.Alternative {
			tags = append(tags, htmlTag{"", "selected alternative"})
		}
		if r := g.thought(t.RevisesID); r != nil {
			tags = append(tags, htmlTag{"", fmt.Sprintf("revises step %d", r.Step)})
		}
		if t.ID == g.Session.CurrentThoughtID {
			tags = append(tags, htmlTag{"", "current"})
		} else if ix.onPath[t.ID] {
			tags = append(tags, htmlTag{"", "on the current path"})
		}
		if ix.contradicts[t.ID] {
			tags = append(tags, htmlTag{"contra", "contradiction"})
		}
		if ix.circular[t.ID] {
			tags = append(tags, htmlTag{"circ", "circular"})
		}
		thoughts = append(thoughts, thoughtRow{t, tags})
	}
	low, high := 0.0, 1.0
	return htmlPage.Execute(w, map[string]any{
		"G": g, "SVG": template.HTML(svg.String()), "Branches": branches, "Thoughts": thoughts,
		"Low": &low, "High": &high,
	})
}
