package analyze

// Calibration maps one embedder's raw cosines to relatedness, a figure in
// [0, 1] that means the same whatever the embedder: 0 is as related as two
// thoughts about unrelated subjects are on average, 1 as related as two
// thoughts about one subject are on average (or more). Embedders differ a
// lot in their raw cosines: the default offline embedder gives two
// unrelated thoughts a mean cosine of 0.127 and two thoughts on one topic
// 0.187, where older embedders put the same pairs near 0 and 0.5; a fixed
// cosine threshold means something different for each.
//
// Relatedness(c) = clamp((c − Unrelated) / (Related − Unrelated), 0, 1).
// The analyzers calibrate means of cosines (over a branch, a third of a
// branch, the earlier thoughts), not single cosines: one cosine of this
// embedder says little (the two distributions overlap widely), a mean of
// several says more.
//
// The zero value, and the calibration of an embedder that was never
// measured, is Raw: relatedness is the raw cosine clamped to [0, 1].
type Calibration struct {
	// Model is the embedder model id the constants were measured for (""
	// for Raw).
	Model string `json:"model"`
	// Unrelated is the mean cosine of two thoughts from unrelated sessions
	// (relatedness 0).
	Unrelated float64 `json:"unrelated"`
	// Related is the mean cosine of two thoughts of one session on one
	// topic (relatedness 1).
	Related float64 `json:"related"`
	// Source says where the constants come from.
	Source string `json:"source"`
}

// Raw is the identity calibration: relatedness is the cosine clamped to
// [0, 1]. It is what an embedder without measured constants gets.
var Raw = Calibration{Unrelated: 0, Related: 1, Source: "uncalibrated: relatedness is the raw cosine clamped to [0, 1]"}

// calibrations are the measured constants per embedder model id. They are
// the means over the retrieval sessions of the reasoning dev set
// (reasoningeval/testdata/dev.jsonl, 8 sessions of 16 thoughts on one
// topic each): Related over the 960 pairs of thoughts of one session,
// Unrelated over the 7168 pairs of thoughts of two sessions.
// TestEmbedderCalibration (reasoningeval) re-measures them and fails when
// they no longer match the embedder.
var calibrations = []Calibration{
	{Model: "thinkgraph-lexical-v4+wn30-3+wv1+gv1/512", Unrelated: 0.127, Related: 0.187,
		Source: "measured on the reasoning dev set: mean cosine of thoughts from unrelated sessions (0.127) and of thoughts of one session (0.187)"},
}

// CalibrationFor returns the calibration measured for the embedder model id,
// or Raw (with Model set) when the model was never measured.
func CalibrationFor(model string) Calibration {
	for _, c := range calibrations {
		if c.Model == model {
			return c
		}
	}
	r := Raw
	r.Model = model
	return r
}

// Calibrated reports whether c holds measured constants (not Raw).
func (c Calibration) Calibrated() bool { return c.valid() && (c.Unrelated != 0 || c.Related != 1) }

func (c Calibration) valid() bool { return c.Related > c.Unrelated }

// Scale maps a cosine (or a mean of cosines) linearly so that Unrelated is 0
// and Related is 1, without clamping; an invalid calibration (the zero
// value) acts as Raw.
func (c Calibration) Scale(cos float64) float64 {
	if !c.valid() {
		return cos
	}
	return (cos - c.Unrelated) / (c.Related - c.Unrelated)
}

// Relatedness is Scale clamped to [0, 1].
func (c Calibration) Relatedness(cos float64) float64 { return clampUnit(c.Scale(cos)) }

// Cosine maps a relatedness back to the raw cosine that has it (the
// inverse of Scale), e.g. to tell a user which cosine a threshold stands
// for.
func (c Calibration) Cosine(relatedness float64) float64 {
	if !c.valid() {
		return relatedness
	}
	return c.Unrelated + relatedness*(c.Related-c.Unrelated)
}

// clampUnit limits x to [0, 1].
func clampUnit(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
