package render

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph"
)

// SVG layout constants, in pixels. A thought's box holds a header line
// (step, confidence, badges) and up to textLines lines of its text, wrapped
// to the box (the whole text is in the tooltip and the viewer's panel).
const (
	nodeW     = 200
	nodeH     = 64
	gapX      = 24
	gapY      = 30
	marginX   = 16
	headerH   = 36
	noteH     = 24 // the line of a Graph's Note
	fontSize  = 11
	labelSize = 10
	textLines = 3
	padX      = 8
)

// maxLinkCurves is the most cross-references and stated verdicts a
// drawing draws, the latest ones (and says so): thousands of labelled
// curves read as a smear, and placing their labels costs time that grows
// with their number times the layers.
const maxLinkCurves = 500

// drawnLinks are the links a drawing draws: the latest maxLinkCurves, in
// creation order.
func (g *Graph) drawnLinks() []thinkgraph.Link {
	ls := g.sortedLinks()
	return ls[max(0, len(ls)-maxLinkCurves):]
}

// note is the line a drawing shows above the graph: g.Note, and what is
// left out of the curves.
func (g *Graph) note() string {
	note := g.Note
	if n := len(g.Links); n > maxLinkCurves {
		note = strings.TrimSpace(note + fmt.Sprintf(" The latest %d of %d cross-references and verdicts are drawn; the Markdown, DOT and JSON exports list them all.", maxLinkCurves, n))
	}
	return note
}

// maxTooltips: graphs with more thoughts get no per-thought <title>
// tooltips (the viewer's panel shows the text), which keeps them fast to
// draw.
const maxTooltips = 500

// esc escapes user text for SVG/HTML text and attribute values, with the
// characters XML forbids replaced (see xmlChars).
func esc(s string) string { return html.EscapeString(xmlChars(validUTF8(s))) }

// xmlChars replaces the characters XML 1.0 forbids, which no escape can
// write either: the C0 controls but tab, newline and carriage return by
// their pictures (U+241B ␛ for ESC, so an ANSI colour code shows as
// "␛[31m"), U+FFFE and U+FFFF by U+FFFD. One of them made a whole SVG
// unreadable to an XML parser (the graph app said "The drawing could not
// be read").
func xmlChars(s string) string {
	forbidden := func(r rune) bool {
		return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF
	}
	if !strings.ContainsFunc(s, forbidden) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case !forbidden(r):
			return r
		case r < 0x20:
			return 0x2400 + r
		default:
			return utf8.RuneError
		}
	}, s)
}

// Layout is where SVG placed each thought: the top-left corner of its box.
type Layout struct {
	Width, Height int
	X, Y          map[string]int
	// Rows is the number of layers.
	Rows int
}

// column is a branch's column in the drawing.
type column struct {
	branch string
	color  int // position in index.branches, for the colour
	x, w   int
}

// layout places the thoughts in layers by depth (distance from their root),
// so a thought's box is always below its parent's, and in columns by
// branch. Inside its branch's column a thought sits under its parent: the
// first child (in step order) continues straight down, each further child
// (an alternative) opens a slot to the right, and a branch's first thought
// sits at the top of the column's slots. A branch without thoughts gets no
// column (an empty main branch wastes no space).
func (g *Graph) layout() (*Layout, []column) {
	ix := g.index()
	var cols []column
	colOf := map[string]int{}
	has := map[string]bool{}
	for _, t := range g.Thoughts {
		has[t.BranchID] = true
	}
	for i, b := range ix.branches {
		if has[b] || len(g.Thoughts) == 0 {
			colOf[b] = len(cols)
			cols = append(cols, column{branch: b, color: i})
		}
	}
	// Slots: a pre-order walk of each branch's forest (children in the
	// same branch); a leaf ends a slot.
	slot := make([]int, len(g.Thoughts))
	next := make([]int, len(cols))
	maxDepth := 0
	var stack []int
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		maxDepth = max(maxDepth, ix.depth[i])
		if p, ok := ix.byID[t.ParentID]; ok && p < i && g.Thoughts[p].BranchID == t.BranchID {
			continue // placed with its parent
		}
		c := colOf[t.BranchID]
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			slot[n] = next[c]
			kids := ix.children[g.Thoughts[n].ID]
			pushed := false
			for k := len(kids) - 1; k >= 0; k-- {
				if j := ix.byID[kids[k]]; g.Thoughts[j].BranchID == g.Thoughts[n].BranchID {
					stack = append(stack, j)
					pushed = true
				}
			}
			if !pushed {
				next[c]++
			}
		}
	}
	x := marginX
	for c := range cols {
		cols[c].x = x
		cols[c].w = max(next[c], 1)*(nodeW+gapX) + gapX/2
		x += cols[c].w + gapX/2
	}
	l := &Layout{Width: x + marginX/2, X: map[string]int{}, Y: map[string]int{}, Rows: maxDepth + 1}
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		l.X[t.ID] = cols[colOf[t.BranchID]].x + gapX/2 + slot[i]*(nodeW+gapX)
		l.Y[t.ID] = rowTop(ix.depth[i])
	}
	// Below the last row: one more gap, for labels.
	l.Height = rowTop(maxDepth+1) + gapY/2
	if len(g.Thoughts) == 0 {
		l.Rows = 0
		l.Height = headerH + gapY
	}
	return l, cols
}

// rowTop is the top of the boxes of layer row.
func rowTop(row int) int { return headerH + gapY/2 + row*(nodeH+gapY) }

// SVG draws the thought graph as an SVG element: branches as coloured
// columns, thoughts as boxes filled by confidence (grey without one) and
// layered by depth, the path to the current thought in bold, branch points
// with a diamond, unexplored alternatives dashed, thoughts in a
// contradiction or a circular chain with a red or orange badge,
// cross-references as labelled dashed curves and contradictions as red
// curves. Every thought is a <g class="node" data-id="…" data-step="…">.
func SVG(w io.Writer, g *Graph) error {
	bw := bufio.NewWriter(w)
	l, cols := g.layout()
	note := g.note()
	if note != "" {
		// The note on a line of its own above the drawing.
		fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" class="tg-noted" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui,sans-serif" font-size="11">`+"\n",
			l.Width, l.Height+noteH, l.Width, l.Height+noteH)
		fmt.Fprintf(bw, `<text class="tg-note" x="8" y="%d" fill="#444">%s</text>`+"\n", noteH-8, esc(note))
		fmt.Fprintf(bw, `<svg y="%d" width="%d" height="%d">`+"\n", noteH, l.Width, l.Height)
	}
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" class="tg-graph" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui,sans-serif" font-size="11">`+"\n",
		l.Width, l.Height, l.Width, l.Height)
	g.writeBranches(bw, l, cols, true)
	bw.WriteString(`<g class="edges" fill="none">` + "\n")
	g.writeEdges(bw, l, 0, l.Height)
	g.writeCurves(bw, l)
	bw.WriteString("</g>\n<g class=\"nodes\">\n")
	g.writeNodes(bw, l, 0, l.Height)
	bw.WriteString("</g>\n</svg>\n")
	if note != "" {
		bw.WriteString("</svg>\n</svg>\n")
	}
	return bw.Flush()
}

// Bands is the graph as SVG cut into horizontal bands, for a viewer that
// draws only the bands in view.
type Bands struct {
	Width, Height int
	Bands         []Band
	// Overlay is an <svg class="tg-overlay"> the size of the whole graph
	// with the cross-references and contradictions.
	Overlay string
	// Note says what the drawing leaves out ("" when nothing).
	Note string
}

// Band is one horizontal band: an <svg class="tg-band"> showing the graph
// from Top to Top+Height.
type Band struct {
	Top, Height int
	SVG         string
}

// Placeholder is an empty <svg> the size of the band, to stand for it
// until it is drawn.
func (b Band) Placeholder(width, index int) string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" class="tg-band tg-lazy" data-band="%d" width="%d" height="%d"></svg>`, index, width, b.Height)
}

// SVGBands draws the same graph as SVG, cut into horizontal bands of rows
// layers, each its own <svg class="tg-band"> (so a browser can skip the
// bands out of view, with CSS content-visibility, or a viewer draw them
// when they come into view), under one <svg class="tg-overlay"> with the
// cross-references and contradictions; all inside <div class="tg-bands">.
// Branch names are <g class="branch"> in the first band only.
func SVGBands(w io.Writer, g *Graph, rows int) error {
	bs := g.Bands(rows)
	bw := bufio.NewWriter(w)
	bw.WriteString(`<div class="tg-bands">` + "\n")
	for _, b := range bs.Bands {
		bw.WriteString(b.SVG)
	}
	bw.WriteString(bs.Overlay)
	bw.WriteString("</div>\n")
	return bw.Flush()
}

// Bands lays the graph out and draws it in bands of rows layers (20 if
// rows <= 0).
func (g *Graph) Bands(rows int) *Bands {
	if rows <= 0 {
		rows = 20
	}
	l, cols := g.layout()
	out := &Bands{Width: l.Width, Height: l.Height, Note: g.note()}
	var sb strings.Builder
	bw := bufio.NewWriter(&sb)
	open := func(class string, top, height int) {
		fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" class="%s" width="%d" height="%d" viewBox="0 %d %d %d" font-family="system-ui,sans-serif" font-size="11">`+"\n",
			class, l.Width, height, top, l.Width, height)
	}
	take := func() string {
		_ = bw.Flush()
		s := sb.String()
		sb.Reset()
		return s
	}
	band := rows * (nodeH + gapY)
	for top := 0; top < l.Height; {
		bottom := headerH + ((top-headerH)/band+1)*band
		if top == 0 {
			bottom = headerH + band
		}
		bottom = min(bottom, l.Height)
		if l.Height-bottom < band/2 {
			bottom = l.Height // no sliver of a band at the end
		}
		open("tg-band", top, bottom-top)
		g.writeBranches(bw, l, cols, top == 0)
		bw.WriteString(`<g class="edges" fill="none">` + "\n")
		g.writeEdges(bw, l, top, bottom)
		bw.WriteString("</g>\n<g class=\"nodes\">\n")
		g.writeNodes(bw, l, top, bottom)
		bw.WriteString("</g>\n</svg>\n")
		out.Bands = append(out.Bands, Band{Top: top, Height: bottom - top, SVG: take()})
		top = bottom
	}
	open("tg-overlay", 0, l.Height)
	bw.WriteString(`<g class="edges" fill="none">` + "\n")
	g.writeCurves(bw, l)
	bw.WriteString("</g>\n</svg>\n")
	out.Overlay = take()
	return out
}

// writeBranches draws the branch columns, with their names when header.
func (g *Graph) writeBranches(bw *bufio.Writer, l *Layout, cols []column, header bool) {
	for _, c := range cols {
		color := branchColor(c.color)
		if !header {
			fmt.Fprintf(bw, `<rect class="branch-bg" x="%d" y="4" width="%d" height="%d" rx="8" fill="%s" fill-opacity="0.07" stroke="%s" stroke-opacity="0.5"/>`+"\n",
				c.x, c.w, l.Height-8, color, color)
			continue
		}
		fmt.Fprintf(bw, `<g class="branch" data-branch="%s"><rect x="%d" y="4" width="%d" height="%d" rx="8" fill="%s" fill-opacity="0.07" stroke="%s" stroke-opacity="0.5"/><text x="%d" y="24" font-weight="bold" fill="%s">%s</text></g>`+"\n",
			esc(c.branch), c.x, c.w, l.Height-8, color, color, c.x+10, color, esc(fitText(c.branch, float64(c.w-20), fontSize*1.1)))
	}
}

// writeEdges draws the parent edges with an end between y0 and y1 as three
// paths (plain, on the current path, to unexplored alternatives) of many
// segments, without markers: the graph reads top to bottom, and one element
// per edge would make a large session slow to draw.
func (g *Graph) writeEdges(bw *bufio.Writer, l *Layout, y0, y1 int) {
	ix := g.index()
	var plain, onPath, unexp strings.Builder
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		if g.thought(t.ParentID) == nil {
			continue
		}
		x1, py := l.X[t.ParentID]+nodeW/2, l.Y[t.ParentID]+nodeH
		x2, cy := l.X[t.ID]+nodeW/2, l.Y[t.ID]
		if (py < y0 || py >= y1) && (cy < y0 || cy >= y1) {
			continue
		}
		my := (py + cy) / 2
		b := &plain
		switch {
		case ix.onPath[t.ID]:
			b = &onPath
		case unexplored(t):
			b = &unexp
		}
		if x1 == x2 {
			fmt.Fprintf(b, "M%d,%dV%d", x1, py, cy)
		} else {
			fmt.Fprintf(b, "M%d,%dC%d,%d %d,%d %d,%d", x1, py, x1, my, x2, my, x2, cy)
		}
	}
	if plain.Len() > 0 {
		fmt.Fprintf(bw, `<path class="edge" d="%s" stroke="#888" stroke-width="1.2"/>`+"\n", plain.String())
	}
	if unexp.Len() > 0 {
		fmt.Fprintf(bw, `<path class="edge unexplored" d="%s" stroke="#888" stroke-width="1.2" stroke-dasharray="4 3"/>`+"\n", unexp.String())
	}
	if onPath.Len() > 0 {
		fmt.Fprintf(bw, `<path class="edge path" d="%s" stroke="%s" stroke-width="3"/>`+"\n", onPath.String(), pathColor)
	}
}

// labelPlacer puts the labels of cross-references and contradictions in
// the gaps between layers, where no thought's box is, and side by side
// when several fall in one gap.
type labelPlacer struct {
	l      *Layout
	placed map[int][][2]int // gap (the layer below it) -> x ranges taken
}

// place returns the top-left corner of a label w pixels wide for a curve
// whose ends' centres are (x1,y1) and (x2,y2): in the gap nearest the
// middle of the curve, as near its middle as free, else the next gap
// (alternately above and below), else in the last gap tried.
func (p *labelPlacer) place(x1, y1, x2, y2, w int) (int, int) {
	mx, my := (x1+x2)/2, (y1+y2)/2
	rows := p.l.Rows
	near := max(1, min(rows, (my-headerH+(nodeH+gapY)/2)/(nodeH+gapY)))
	h := labelSize + 4
	// The gaps in the order tried: near, near-1, near+1, near-2, ...
	// within 1..rows; the last one tried is the farther end.
	last := rows
	if near-1 >= rows-near+1 {
		last = 1
	}
	for d := 0; near+d <= rows || near-d-1 >= 1; d++ {
		for _, k := range [2]int{near + d, near - d - 1} {
			if k < 1 || k > rows {
				continue
			}
			x := max(2, min(mx-w/2, p.l.Width-w-2))
			for moved := true; moved; {
				moved = false
				for _, r := range p.placed[k] {
					if x < r[1]+4 && r[0] < x+w+4 {
						x, moved = r[1]+4, true
					}
				}
			}
			if x+w <= p.l.Width-2 || k == last {
				p.placed[k] = append(p.placed[k], [2]int{x, x + w})
				return x, rowTop(k) - gapY/2 - h/2
			}
		}
	}
	return max(2, mx-w/2), rowTop(near) - gapY/2 - h/2
}

// writeCurves draws cross-references and contradictions as curves from
// the edge of one box to the edge of the other through their label, which
// sits on a white ground in a gap between layers.
func (g *Graph) writeCurves(bw *bufio.Writer, l *Layout) {
	if l.Rows == 0 {
		return
	}
	p := &labelPlacer{l: l, placed: map[int][][2]int{}}
	curve := func(a, b *thinkgraph.Thought, class, stroke, dash, label, title string) {
		display := ""
		if strings.Contains(class, "verdict") {
			display = ` display="none"`
		}
		ax, ay := l.X[a.ID]+nodeW/2, l.Y[a.ID]+nodeH/2
		bx, by := l.X[b.ID]+nodeW/2, l.Y[b.ID]+nodeH/2
		w := int(math.Ceil(textWidth(label, labelSize))) + 8
		lx, ly := p.place(ax, ay, bx, by, w)
		cx, cy := lx+w/2, ly+(labelSize+4)/2
		// Leave each box from the side that faces the label.
		edge := func(y int) int {
			if cy < y {
				return y - nodeH/2
			}
			return y + nodeH/2
		}
		ay, by = edge(ay), edge(by)
		qx, qy := 2*cx-(ax+bx)/2, 2*cy-(ay+by)/2 // the curve passes through (cx, cy)
		fmt.Fprintf(bw, `<g class="%s"%s><path d="M%d,%d Q%d,%d %d,%d" stroke="%s" stroke-width="2" stroke-dasharray="%s"/>`,
			class, display, ax, ay, qx, qy, bx, by, stroke, dash)
		if label != "" {
			fmt.Fprintf(bw, `<rect class="label" x="%d" y="%d" width="%d" height="%d" rx="3" fill="#fff" fill-opacity="0.9" stroke="none"/><text x="%d" y="%d" fill="%s" stroke="none" font-size="%d">%s</text>`,
				lx, ly, w, labelSize+4, lx+4, ly+labelSize+1, stroke, labelSize, esc(label))
		}
		fmt.Fprintf(bw, "<title>%s</title></g>\n", esc(clip(title, 300)))
	}
	// The contradictions found, one per pair of thoughts (the strongest,
	// with every reason): a pair that a contradictory cross-reference
	// already joins (the analysis reports declared ones too) is drawn on
	// that curve with one label, not as a second curve whose label would
	// sit beside the first.
	type pair [2]string
	key := func(a, b string) pair {
		if a > b {
			a, b = b, a
		}
		return pair{a, b}
	}
	type found struct {
		a, b    *thinkgraph.Thought
		conf    float64
		reasons []string
		drawn   bool
	}
	var pairs []*found
	byPair := map[pair]*found{}
	if g.Analysis != nil {
		for _, c := range g.Analysis.Contradictions {
			a, b := g.thought(c.ThoughtA.ID), g.thought(c.ThoughtB.ID)
			if a == nil || b == nil {
				continue
			}
			f := byPair[key(a.ID, b.ID)]
			if f == nil {
				f = &found{a: a, b: b, conf: c.Confidence}
				byPair[key(a.ID, b.ID)] = f
				pairs = append(pairs, f)
			}
			f.conf = max(f.conf, c.Confidence)
			if c.Reason != "" && !slices.Contains(f.reasons, c.Reason) {
				f.reasons = append(f.reasons, c.Reason)
			}
		}
	}
	for _, lk := range g.drawnLinks() {
		a, b := g.linkEnd(lk.FromThought, lk.FromBranch), g.linkEnd(lk.ToThought, lk.ToBranch)
		if a == nil || b == nil {
			continue
		}
		stroke, class, label, title := "#555", "link", clip(lk.Type, 30), lk.Reason
		if quietVerdict[lk.Type] {
			// Hidden unless the reader asks for them (the viewer's
			// toggle): a verdict that two thoughts agree is no finding.
			curve(a, b, "link verdict", "#999", "1 3", label, title)
			continue
		}
		if lk.Type == "contradictory" {
			stroke = contradictionColor
			if f := byPair[key(a.ID, b.ID)]; f != nil && !f.drawn {
				f.drawn = true
				class, label = "link contradiction", fmt.Sprintf("contradictory %.2f", f.conf)
				for _, r := range f.reasons {
					if r != lk.Reason {
						title = strings.TrimPrefix(title+"; "+r, "; ")
					}
				}
			}
		}
		curve(a, b, class, stroke, "6 4", label, title)
	}
	if g.Analysis != nil {
		for _, f := range pairs {
			if !f.drawn {
				curve(f.a, f.b, "contradiction", contradictionColor, "2 2", fmt.Sprintf("contradicts %.2f", f.conf), strings.Join(f.reasons, "; "))
			}
		}
		// A circular chain: each thought to the next (a cycle closes back
		// to its first; a restatement is one conclusion–premise pair).
		for _, c := range g.Analysis.Circular {
			n := len(c.Thoughts)
			for i := 0; i < n && n > 1; i++ {
				if n == 2 && i == 1 {
					break
				}
				a, b := g.thought(c.Thoughts[i].ID), g.thought(c.Thoughts[(i+1)%n].ID)
				if a == nil || b == nil {
					continue
				}
				label := ""
				if i == 0 {
					label = c.Kind
				}
				curve(a, b, "circular-chain", circularColor, "8 3", label, c.Reason)
			}
		}
	}
}

// quietVerdict are the stated verdicts that a pair is no finding
// (compatible, not circular): drawn hidden, with the class verdict.
var quietVerdict = map[string]bool{"compatible": true, "not_circular": true}

// writeNodes draws the thoughts whose box starts between y0 and y1.
func (g *Graph) writeNodes(bw *bufio.Writer, l *Layout, y0, y1 int) {
	ix := g.index()
	branchPos := map[string]int{}
	for i, b := range ix.branches {
		branchPos[b] = i
	}
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		if y := l.Y[t.ID]; y < y0 || y >= y1 {
			continue
		}
		classes := []string{"node"}
		stroke, width, dash := branchColor(branchPos[t.BranchID]), "1.5", ""
		if ix.onPath[t.ID] {
			classes = append(classes, "on-path")
			width = "2.5"
		}
		if t.ID == g.Session.CurrentThoughtID {
			classes = append(classes, "current")
			stroke, width = pathColor, "4"
		}
		if unexplored(t) {
			classes = append(classes, "unexplored")
			dash = ` stroke-dasharray="5 3" opacity="0.75"`
		}
		bp := g.isBranchPoint(t)
		if bp {
			classes = append(classes, "branch-point")
		}
		if ix.contradicts[t.ID] {
			classes = append(classes, "contradiction")
		}
		if ix.circular[t.ID] {
			classes = append(classes, "circular")
		}
		if ix.refuted[t.ID] {
			classes = append(classes, "refuted")
		}
		title := ""
		if len(g.Thoughts) <= maxTooltips {
			title = "<title>" + esc(clip(t.Content, 300)) + "</title>"
		}
		fmt.Fprintf(bw, `<g class="%s" data-id="%s" data-step="%d" transform="translate(%d,%d)" tabindex="0">%s<rect width="%d" height="%d" rx="6" fill="%s" stroke="%s" stroke-width="%s"%s/>`,
			strings.Join(classes, " "), esc(t.ID), t.Step, l.X[t.ID], l.Y[t.ID], title, nodeW, nodeH, confColor(t.Confidence), stroke, width, dash)
		fmt.Fprintf(bw, `<text x="%d" y="15" font-weight="bold">#%d · %s</text><text class="content" y="17">`, padX, t.Step, confidence(t.Confidence))
		for _, line := range wrapText(t.Content, nodeW-2*padX, fontSize, textLines) {
			fmt.Fprintf(bw, `<tspan x="%d" dy="14">%s</tspan>`, padX, esc(line))
		}
		bw.WriteString("</text>")
		badge := nodeW - 10
		if bp {
			fmt.Fprintf(bw, `<path class="bp-mark" d="M%d,2 l6,6 l-6,6 l-6,-6z" fill="#333"/>`, badge)
			badge -= 16
		}
		if ix.contradicts[t.ID] {
			fmt.Fprintf(bw, `<circle cx="%d" cy="8" r="6" fill="%s"/><text x="%d" y="11.5" fill="#fff" font-size="9" text-anchor="middle">!</text>`, badge, contradictionColor, badge)
			badge -= 16
		}
		if ix.circular[t.ID] {
			fmt.Fprintf(bw, `<circle cx="%d" cy="8" r="6" fill="%s"/><text x="%d" y="11.5" fill="#fff" font-size="9" text-anchor="middle">⟳</text>`, badge, circularColor, badge)
			badge -= 16
		}
		if ix.refuted[t.ID] {
			// Struck through, with a ✗: a person refuted it.
			fmt.Fprintf(bw, `<line class="refuted-mark" x1="2" y1="%d" x2="%d" y2="2" stroke="%s" stroke-width="1.5" opacity="0.6"/>`, nodeH-2, nodeW-2, refutedColor)
			fmt.Fprintf(bw, `<circle cx="%d" cy="8" r="6" fill="%s"/><text x="%d" y="11.5" fill="#fff" font-size="9" text-anchor="middle">✗</text>`, badge, refutedColor, badge)
		}
		bw.WriteString("</g>\n")
	}
}
