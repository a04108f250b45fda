package render

import (
	"fmt"
	"math"
)

// branchPalette colours branches (outlines, columns, clusters), in branch
// order, repeating after eight.
var branchPalette = []string{"#1f77b4", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#2ca02c", "#7f7f7f"}

func branchColor(i int) string { return branchPalette[i%len(branchPalette)] }

// confColor is the fill of a thought: red (0) through amber to green (1),
// light grey without a confidence.
func confColor(c *float64) string {
	if c == nil {
		return "#e0e0e0"
	}
	v := math.Max(0, math.Min(1, *c))
	return hsl(120*v, 0.65, 0.78)
}

// hsl converts a colour to #rrggbb (h in degrees, s and l in [0,1]).
func hsl(h, s, l float64) string {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	default:
		r, g, b = 0, c, x
	}
	to := func(v float64) int { return int(math.Round((v + m) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", to(r), to(g), to(b))
}

// contradictionColor draws contradictions.
const contradictionColor = "#d62728"

// circularColor marks thoughts in a circular chain.
const circularColor = "#ff7f0e"

// refutedColor marks thoughts a person refuted.
const refutedColor = "#7f1d1d"

// pathColor emphasises the path to the current thought.
const pathColor = "#111111"
